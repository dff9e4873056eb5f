package fs

import (
	"bytes"
	"io"
	iofs "io/fs"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// sizedReader is a reader that says its size, which may be out of date,
// as a file's Stat is when the file grows while it is read.
type sizedReader struct {
	io.Reader
	size int64
}

func (r sizedReader) Stat() (iofs.FileInfo, error) { return fakeInfo{r.size}, nil }

type fakeInfo struct{ size int64 }

func (i fakeInfo) Name() string        { return "f" }
func (i fakeInfo) Size() int64         { return i.size }
func (i fakeInfo) Mode() iofs.FileMode { return 0o644 }
func (i fakeInfo) ModTime() time.Time  { return time.Time{} }
func (i fakeInfo) IsDir() bool         { return false }
func (i fakeInfo) Sys() any            { return nil }

func TestReadUpToReadsHeadAndRestUpToOneBytePastTheBudget(t *testing.T) {
	body := strings.Repeat("0123456789", 100) // 1,000 bytes
	tests := []struct {
		name   string
		r      io.Reader
		budget int64
		want   int // bytes returned
		capMax int // the most the slice may hold
	}{
		{"no size, fits", strings.NewReader(body[10:]), 2000, 1000, 2001},
		{"no size, over", strings.NewReader(body[10:]), 500, 501, 501},
		{"size known", sizedReader{strings.NewReader(body[10:]), 1000}, 1 << 20, 1000, 1001},
		{"grew since its size", sizedReader{strings.NewReader(body[10:]), 100}, 1 << 20, 1000, 1 << 20},
		{"grew past the budget", sizedReader{strings.NewReader(body[10:]), 100}, 700, 701, 768},
		{"head is all", sizedReader{strings.NewReader(""), 10}, 5, 10, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readUpTo(tt.r, []byte(body[:10]), tt.budget)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.want || !bytes.Equal(got, []byte(body[:len(got)])) || cap(got) > tt.capMax {
				t.Errorf("got %d bytes (cap %d), want the first %d (cap at most %d)", len(got), cap(got), tt.want, tt.capMax)
			}
		})
	}
}

func TestTextOfSharesValidBytesAndReplacesInvalidOnes(t *testing.T) {
	b := []byte("valid é text")
	s, bad := textOf(b)
	if s != "valid é text" || bad != 0 || unsafe.StringData(s) != &b[0] {
		t.Errorf("valid text: %q, %d replaced, shared %v", s, bad, unsafe.StringData(s) == &b[0])
	}
	b = []byte("bad \xff\xfe end")
	s, bad = textOf(b)
	if s != "bad \uFFFD\uFFFD end" || bad != 2 {
		t.Errorf("invalid text: %q, %d replaced", s, bad)
	}
	if s, bad = textOf(nil); s != "" || bad != 0 {
		t.Errorf("no text: %q, %d", s, bad)
	}
}
