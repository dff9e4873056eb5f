package fs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// statInfo is a FileInfo with the facts a version is made of.
type statInfo struct {
	size  int64
	mtime time.Time
	sys   any
}

func (f statInfo) Name() string       { return "f" }
func (f statInfo) Size() int64        { return f.size }
func (f statInfo) Mode() fs.FileMode  { return 0o644 }
func (f statInfo) ModTime() time.Time { return f.mtime }
func (f statInfo) IsDir() bool        { return false }
func (f statInfo) Sys() any           { return f.sys }

func TestAVersionChangesWithEveryFactItHolds(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	small := bytes.Repeat([]byte("a"), 100)
	flipped := append([]byte("b"), small[1:]...)
	big := int64(versionContentMax + 1)
	base := statInfo{size: 100, mtime: at}
	tests := []struct {
		name      string
		a, b      statInfo
		ca, cb    []byte
		different bool
	}{
		{name: "the same state gives the same version", a: base, b: base, ca: small, cb: small},
		{name: "one byte changed in a small file changes it", a: base, b: base, ca: small, cb: flipped, different: true},
		{name: "a nanosecond of modification time changes it", a: base, b: statInfo{size: 100, mtime: at.Add(1)}, ca: small, cb: small, different: true},
		{name: "another size changes it", a: base, b: statInfo{size: 99, mtime: at}, ca: small, cb: small[:99], different: true},
		{name: "the content of a large file is not part of it",
			a: statInfo{size: big, mtime: at}, b: statInfo{size: big, mtime: at}, ca: small, cb: flipped},
		{name: "a large file changes with its time", a: statInfo{size: big, mtime: at}, b: statInfo{size: big, mtime: at.Add(time.Millisecond)}, different: true},
		{name: "the largest file hashed whole has its content in it",
			a: statInfo{size: versionContentMax, mtime: at}, b: statInfo{size: versionContentMax, mtime: at},
			ca: bytes.Repeat([]byte("x"), versionContentMax), cb: append(bytes.Repeat([]byte("x"), versionContentMax-1), 'y'), different: true},
	}
	tests = append(tests, sysVersionCases(at)...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			va, vb := fileVersion(tt.a, tt.ca), fileVersion(tt.b, tt.cb)
			for _, v := range []string{va, vb} {
				if p, ok := parseVersion(v); !ok || p != v {
					t.Errorf("version %q is not 16 lower-case hexadecimal digits", v)
				}
			}
			if (va != vb) != tt.different {
				t.Errorf("versions %s and %s; want different: %v", va, vb, tt.different)
			}
		})
	}
}

// failingReaderAt fails every read: a version that must not read.
type failingReaderAt struct{ t *testing.T }

func (f failingReaderAt) ReadAt([]byte, int64) (int, error) {
	f.t.Error("the version read the file")
	return 0, errors.New("read")
}

func TestReadVersionReadsOnlyWhatItNeeds(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	content := []byte(strings.Repeat("0123456789", 3000)) // 30,000 bytes
	fi := statInfo{size: int64(len(content)), mtime: at}
	want := fileVersion(fi, content)
	tests := []struct {
		name string
		r    io.ReaderAt
		have []byte
		fi   statInfo
		want string
	}{
		{name: "what the caller read is enough", r: failingReaderAt{t}, have: content, fi: fi, want: want},
		{name: "more than the file, as a read with room for one byte more", r: failingReaderAt{t}, have: append(content[:len(content):len(content)], 'x'), fi: fi, want: want},
		{name: "the rest is read after the start", r: bytes.NewReader(content), have: content[:100], fi: fi, want: want},
		{name: "all is read when nothing was", r: bytes.NewReader(content), fi: fi, want: want},
		{name: "a file that shrank is hashed as it is", r: bytes.NewReader(content[:500]), fi: fi, want: fileVersion(fi, content[:500])},
		{name: "a large file is not read", r: failingReaderAt{t}, fi: statInfo{size: 1 << 30, mtime: at}, want: fileVersion(statInfo{size: 1 << 30, mtime: at}, nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readVersion(tt.r, tt.fi, tt.have)
			if err != nil || got != tt.want {
				t.Errorf("readVersion = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{in: "3f9a0c1e22b4d5e6", want: "3f9a0c1e22b4d5e6", ok: true},
		{in: "3F9A0C1E22B4D5E6", want: "3f9a0c1e22b4d5e6", ok: true},
		{in: "3f9a0c1e22b4d5e", ok: false},
		{in: "3f9a0c1e22b4d5e66", ok: false},
		{in: "3f9a0c1e22b4d5eg", ok: false},
		{in: "[version 3f9a0c1]", ok: false},
		{in: "", ok: false},
	}
	for _, tt := range tests {
		got, ok := parseVersion(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseVersion(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"3f9a0c1e22b4d5e6", "3F9A0C1E22B4D5E6", "", "zzzzzzzzzzzzzzzz", "3f9a0c1e22b4d5e6\n", "ü3f9a0c1e22b4d5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseVersion(s)
		hex := len(s) == versionDigits && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
		if ok != hex {
			t.Fatalf("parseVersion(%q) ok = %v; 16 hexadecimal digits: %v", s, ok, hex)
		}
		if ok && got != strings.ToLower(s) {
			t.Fatalf("parseVersion(%q) = %q", s, got)
		}
		if !ok && got != "" {
			t.Fatalf("parseVersion(%q) refused but gave %q", s, got)
		}
	})
}

// BenchmarkVersion measures a version per size of file, from an open
// file and its Stat, as read_file and the writes compute it; and, to
// compare, the Stat alone and the open, Stat and close that a write adds
// to compute one. The 1 GiB file is sparse: its version reads nothing.
func BenchmarkVersion(b *testing.B) {
	dir := b.TempDir()
	sizes := []struct {
		name string
		size int64
	}{{"1KiB", 1 << 10}, {"16KiB", 16 << 10}, {"64KiB", 64 << 10}, {"1GiB-sparse", 1 << 30}}
	for _, s := range sizes {
		p := filepath.Join(dir, s.name)
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if s.size <= versionContentMax {
			_, err = f.Write(bytes.Repeat([]byte("x"), int(s.size)))
		} else {
			err = f.Truncate(s.size)
		}
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
		b.Run(s.name, func(b *testing.B) {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			b.ReportAllocs()
			for b.Loop() {
				fi, err := f.Stat()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := readVersion(f, fi, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("stat", func(b *testing.B) {
		f, err := os.Open(filepath.Join(dir, "1KiB"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		for b.Loop() {
			if _, err := f.Stat(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("open-stat-close", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open(filepath.Join(dir, "1KiB"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.Stat(); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
}
