package main

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// events reads every event of a stream.
func events(r io.Reader) ([]string, error) {
	s := newSSEReader(r)
	var out []string
	for {
		d, err := s.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(d))
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"one event", "data: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"no space after the colon", "data:x\n\n", []string{"x"}},
		{"only one space is removed", "data:  x\n\n", []string{" x"}},
		{"data lines are joined by newlines", "data: a\ndata: b\n\n", []string{"a\nb"}},
		{"CRLF line ends", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"CR line ends", "data: a\r\rdata: b\r\r", []string{"a", "b"}},
		{"comments and other fields are skipped", ": keep-alive\nevent: message\nid: 7\nretry: 10\ndata: x\n\n", []string{"x"}},
		{"blank lines without data make no event", "\n\n\ndata: x\n\n\n", []string{"x"}},
		{"an event cut off by the end is dropped", "data: a\n\ndata: b", []string{"a"}},
		{"a field without a colon", "data\n\n", []string{""}},
		{"UTF-8 passes through", "data: 静夜思\n\n", []string{"静夜思"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := events(r)
				if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("got %q %v, want %q", got, err, tt.want)
				}
			}
		})
	}
}

func TestSSEReaderRefusesEndlessLines(t *testing.T) {
	_, err := events(strings.NewReader("data: " + strings.Repeat("x", maxSSELine+1)))
	if err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzSSEReader checks that the events do not depend on how the stream
// is cut into reads, and that nothing panics.
func FuzzSSEReader(f *testing.F) {
	f.Add("data: a\n\n", 3)
	f.Add("data: a\r\ndata: b\r\n\r\n: c\r\r", 1)
	f.Add("event: x\ndata\ndata:\n\n", 2)
	f.Fuzz(func(t *testing.T, in string, n int) {
		whole, werr := events(strings.NewReader(in))
		cut, cerr := events(&chunkReader{s: in, n: int(uint(n)%17) + 1})
		if (werr == nil) != (cerr == nil) || strings.Join(whole, "\x00") != strings.Join(cut, "\x00") || len(whole) != len(cut) {
			t.Fatalf("%q: whole %q %v, cut %q %v", in, whole, werr, cut, cerr)
		}
	})
}

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	s string
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
