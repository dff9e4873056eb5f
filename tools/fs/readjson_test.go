package fs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// sameReadJSON fails the test unless r.AppendJSON writes what
// encoding/json writes for r without HTML escaping.
func sameReadJSON(t *testing.T, r ReadFileResult) {
	t.Helper()
	want, err := jsonwire.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.AppendJSON([]byte("prefix"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("AppendJSON wrote\n%s\nencoding/json\nprefix%s", got, want)
	}
}

func TestReadJSONIsEncodingJSON(t *testing.T) {
	total, zero := 42, 0
	long := strings.Repeat("é<", 200) // 600 bytes
	for _, r := range []ReadFileResult{
		{},
		{Path: "a.txt", Kind: "text", Size: 1024, TotalLines: &total, FromLine: 1, ToLine: 42, Lines: 42, Version: "0123456789abcdef"},
		{Path: "dir/<x>&\u2028.png", Kind: "image", MIMEType: "image/png", Size: -1, Note: "an image \"q\"\\", Version: "v"},
		{Path: "b", Kind: "text", TotalLines: &zero, Truncated: true, InvalidUTF8: true, ReplacedBytes: 3, Note: "cut\n", Text: "not in the JSON", Data: []byte("nor this")},
		// Each string longer than the room the others are given: the
		// room is a hint, never a count to subtract from.
		{Path: long, Kind: "text"},
		{Kind: long},
		{Kind: "image", MIMEType: long},
		{Kind: "text", Note: long},
		{Kind: "text", Version: long},
	} {
		sameReadJSON(t, r)
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add("a.txt", "text", "", "note", "0123456789abcdef", int64(12), 3, 1, 2, 3, 0, uint8(1))
	f.Add("a\nb\xff<>&\u2028", "image", "image/png", "", "", int64(-1), -7, 0, 0, 0, 5, uint8(6))
	f.Fuzz(func(t *testing.T, path, kind, mime, note, version string, size int64, total, from, to, lines, replaced int, flags uint8) {
		r := ReadFileResult{Path: path, Kind: kind, MIMEType: mime, Note: note, Version: version, Size: size,
			FromLine: from, ToLine: to, Lines: lines, ReplacedBytes: replaced, Truncated: flags&2 != 0, InvalidUTF8: flags&4 != 0}
		if flags&1 != 0 {
			r.TotalLines = &total
		}
		sameReadJSON(t, r)
	})
}
