package jsonwire

import (
	"bytes"
	"strings"
	"testing"
)

// inPieces writes s as AppendStringPart does through a buffer of size
// bytes, flushing it whenever it is full, and returns what was flushed,
// in quotes. It fails if a piece passes the buffer or one makes no
// progress with MaxEscape bytes free.
func inPieces(t testing.TB, s string, html bool, size int) []byte {
	t.Helper()
	out := []byte{'"'}
	buf := make([]byte, 0, size)
	for rest := s; len(rest) > 0; {
		var n int
		buf, n = AppendStringPart(buf, rest, html)
		if cap(buf) != size {
			t.Fatalf("buffer of %d grew to %d", size, cap(buf))
		}
		if n == 0 {
			if len(buf) == 0 {
				t.Fatalf("no progress through an empty buffer of %d at %q", size, rest)
			}
			out, buf = append(out, buf...), buf[:0]
			continue
		}
		rest = rest[n:]
		if cap(buf)-len(buf) < MaxEscape {
			out, buf = append(out, buf...), buf[:0]
		}
	}
	return append(append(out, buf...), '"')
}

// escapingClasses are texts with a character of every class the escaper
// treats apart, placed so that buffers of small sizes cut next to them.
var escapingClasses = []string{
	"",
	"plain text without escapes, longer than a word of eight",
	`quote " and backslash \ in the middle`,
	"controls \x00\x01\x1f\x7f\b\f\n\r\t in a row",
	"<html> & friends",
	"line separator \u2028 and paragraph separator \u2029",
	"invalid \xff\xfe bytes \x80 and a cut rune \xe6\x97",
	"surrogate half \xed\xa0\x80 here",
	"静夜思 床前明月光 疑是地上霜 🙂🙂🙂",
	"a\xe2\x80\xa8b\xe2\x80\xa9c\xe2\x80",
	strings.Repeat("é\"\n🙂\u2028\xff", 40),
}

func TestAppendStringPartThroughAnyBufferWritesWhatAppendStringWrites(t *testing.T) {
	for _, s := range escapingClasses {
		for _, html := range []bool{false, true} {
			want := AppendString(nil, s, html)
			if len(want) != QuotedLen(s, html) {
				t.Errorf("%q html %v: QuotedLen %d, AppendString wrote %d", s, html, QuotedLen(s, html), len(want))
			}
			for size := MaxEscape; size <= 40; size++ {
				if got := inPieces(t, s, html, size); !bytes.Equal(got, want) {
					t.Errorf("%q html %v through %d bytes:\n got %s\nwant %s", s, html, size, got, want)
				}
			}
		}
	}
}

func TestAppendStringPartNeverPassesTheCapacity(t *testing.T) {
	s := strings.Repeat("\x01", 10)
	for room := range MaxEscape {
		b := make([]byte, 3, 3+room)
		b, n := AppendStringPart(b, s, false)
		if len(b) > 3+room || n != 0 {
			t.Errorf("room %d: took %d bytes into %d", room, n, len(b)-3)
		}
	}
	b, n := AppendStringPart(make([]byte, 0, MaxEscape), s, false)
	if n != 1 || string(b) != `\u0001` {
		t.Errorf("with MaxEscape free: took %d as %q, want one control as \\u0001", n, b)
	}
}

// FuzzAppendStringPart holds the pieces, through buffers of several
// sizes, to encoding/json's encoding of the whole string, and QuotedLen
// to its length.
func FuzzAppendStringPart(f *testing.F) {
	for _, s := range escapingClasses {
		f.Add(s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, s string, size uint8) {
		for _, html := range []bool{false, true} {
			want := reference(s, html)
			if got := inPieces(t, s, html, MaxEscape+int(size)); !bytes.Equal(got, want) {
				t.Fatalf("%q html %v through %d bytes:\n got %s\nwant %s", s, html, MaxEscape+int(size), got, want)
			}
			if n := QuotedLen(s, html); n != len(want) {
				t.Fatalf("%q html %v: QuotedLen %d, encoding/json wrote %d", s, html, n, len(want))
			}
		}
	})
}

func BenchmarkAppendString(b *testing.B) {
	line := "The quick brown fox jumps over the \"lazy\" dog\t0123456789.\n"
	s := strings.Repeat(line, 1<<20/len(line))
	buf := make([]byte, 0, 2<<20)
	b.SetBytes(int64(len(s)))
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			buf = AppendString(buf[:0], s, false)
		}
	})
	b.Run("64KiB_pieces", func(b *testing.B) {
		chunk := make([]byte, 0, 64<<10)
		for b.Loop() {
			for rest := s; len(rest) > 0; {
				var n int
				chunk, n = AppendStringPart(chunk[:0], rest, false)
				rest = rest[n:]
			}
		}
	})
	b.Run("QuotedLen", func(b *testing.B) {
		for b.Loop() {
			_ = QuotedLen(s, false)
		}
	})
}
