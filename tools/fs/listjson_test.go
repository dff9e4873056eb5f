package fs

import (
	"bytes"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// sameListJSON fails the test unless r.AppendJSON writes what
// encoding/json writes for r without HTML escaping, or fails as it does.
func sameListJSON(t *testing.T, r ListDirectoryResult) {
	t.Helper()
	want, wantErr := jsonwire.Marshal(r)
	got, err := r.AppendJSON([]byte("prefix"))
	if wantErr != nil || err != nil {
		if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
			t.Fatalf("AppendJSON error %v, encoding/json's %v", err, wantErr)
		}
		return
	}
	if !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("AppendJSON wrote\n%s\nencoding/json\nprefix%s", got, want)
	}
}

func TestListJSONIsEncodingJSON(t *testing.T) {
	size0, size, big := int64(0), int64(321), int64(-1<<63)
	paris := time.FixedZone("CET", 3600)
	at := func(tm time.Time) *time.Time { return &tm }
	tests := []struct {
		name string
		r    ListDirectoryResult
	}{
		{"the zero result, entries null", ListDirectoryResult{}},
		{"an empty directory", ListDirectoryResult{Path: "empty", Entries: []ListEntry{}}},
		{"files, directories, links and others, with the optional counts", ListDirectoryResult{
			Path: "d", Total: 4, Files: 1, Dirs: 1, Symlinks: 1, Other: 1, Truncated: true, Note: "more <here> & there",
			Entries: []ListEntry{{Name: "a", Type: typeFile}, {Name: "b", Type: typeDir}, {Name: "c", Type: typeSymlink}, {Name: "d", Type: typeOther}}}},
		{"sizes and their total, zero included", ListDirectoryResult{Path: ".", Bytes: &size0,
			Entries: []ListEntry{{Name: "z", Type: typeFile, Size: &size0}, {Name: "s", Type: typeFile, Size: &size}, {Name: "m", Type: typeFile, Size: &big}}}},
		{"times in zones, with and without nanoseconds", ListDirectoryResult{Path: "t", Entries: []ListEntry{
			{Name: "utc", Type: typeFile, Modified: at(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))},
			{Name: "cet", Type: typeDir, Modified: at(time.Date(2024, 1, 2, 3, 4, 5, 120, paris))},
			{Name: "local", Type: typeFile, Modified: at(time.Unix(1700000000, 999999999))},
			{Name: "zero", Type: typeFile, Modified: at(time.Time{})}}}},
		{"a time past 9999 fails as encoding/json does", ListDirectoryResult{Path: "t", Entries: []ListEntry{
			{Name: "far", Type: typeFile, Modified: at(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))}}}},
		{"a time before year 0 too", ListDirectoryResult{Path: "t", Entries: []ListEntry{
			{Name: "old", Type: typeFile, Modified: at(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC))}}}},
		{"names that need JSON escapes", ListDirectoryResult{Path: "we\"ird\\", Entries: []ListEntry{
			{Name: "new\nline\ttab\r\b\f\x00\x1f\x7f", Type: typeFile}, {Name: "bad\xffbyte\xed\xa0\x80", Type: typeFile},
			{Name: "sep\u2028\u2029", Type: typeFile}, {Name: "<html>&amp;", Type: typeFile}, {Name: "中文 😀 é\u202e", Type: typeFile}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { sameListJSON(t, tt.r) })
	}
}

// FuzzListJSON holds AppendJSON to encoding/json for fuzzed names, path,
// note, counts, sizes and times. flags: 1 entries nil, 2 a size, 4 a
// time, 8 the total bytes, 16 truncated, bits 5-6 the zone of the time.
func FuzzListJSON(f *testing.F) {
	f.Add("name", "file", "dir", "", int64(12), int64(1700000000), int64(5), 3, uint8(2|4|8))
	f.Add("a\nb\xff<>&\u2028", "dir", "p\"q\\", "note <x>", int64(-1), int64(253402300800), int64(0), -7, uint8(1|16|32))
	f.Add("", "", "", "", int64(0), int64(-62135596800), int64(999999999), 0, uint8(4|64))
	f.Fuzz(func(t *testing.T, name, typ, path, note string, size, sec, nsec int64, n int, flags uint8) {
		zones := []*time.Location{time.UTC, time.Local, time.FixedZone("X", -5*3600-30*60), time.FixedZone("S", 61)}
		e := ListEntry{Name: name, Type: typ}
		if flags&2 != 0 {
			e.Size = &size
		}
		if flags&4 != 0 {
			tm := time.Unix(sec, nsec).In(zones[flags>>5&3])
			e.Modified = &tm
		}
		r := ListDirectoryResult{Path: path, Note: note, Total: n, Files: -n, Dirs: n / 2, Symlinks: n % 3, Other: n % 2, Truncated: flags&16 != 0}
		if flags&1 == 0 {
			r.Entries = []ListEntry{e, {Name: typ, Type: name}}
		}
		if flags&8 != 0 {
			r.Bytes = &size
		}
		sameListJSON(t, r)
	})
}
