package jsonwire

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/cpumeter"
)

// longStrings returns 8 MiB of text in two shapes, each as a JSON string
// the way a client sends the content of a file: source code, where a tab,
// a line break or a quote is escaped every ten bytes or so, and numbered
// lines of 64 bytes, as the bench suite writes, one escape in 64 bytes.
func longStrings() map[string][]byte {
	const unit = "\tif err := run(ctx, \"write\", path); err != nil { // naïve retry\n\t\treturn fmt.Errorf(\"writing %s: %w\", path, err)\n\t}\n"
	const filler = "the quick brown fox jumps over the lazy dog 0123456789."
	var lines []byte
	for i := 0; len(lines) < 8<<20; i++ {
		lines = append(fmt.Appendf(lines, "%07d %s", i, filler)[:len(lines)+63], '\n')
	}
	return map[string][]byte{
		"source": AppendString(nil, strings.Repeat(unit, (8<<20)/len(unit)+1)[:8<<20], false),
		"lines":  AppendString(nil, string(lines[:8<<20]), false),
	}
}

// BenchmarkLongString measures each pass over 8 MiB of text as a JSON
// string that the reading of a request makes, beside what a pass over as
// many bytes costs at least: SetBytes is the length of the JSON text, so
// MB/s compare; cpu-ns/op is the CPU time, which a shared machine does
// not inflate as it does ns/op.
func BenchmarkLongString(b *testing.B) {
	for _, shape := range []string{"source", "lines"} {
		data := longStrings()[shape]
		dst := make([]byte, len(data))
		for _, c := range []struct {
			name string
			pass func() bool
		}{
			{"copy", func() bool { return copy(dst, data) == len(data) }},
			{"make+copy", func() bool { return copy(make([]byte, len(data)), data) == len(data) }},
			{"utf8.Valid", func() bool { return utf8.Valid(data) }},
			{"IndexByte", func() bool { return bytes.IndexByte(data[1:], 0) < 0 }},
			{"Valid", func() bool { return Valid(data) }},
			{"StringEnd", func() bool { return StringEnd(data, 0) == len(data) }},
			{"Unquote", func() bool { _, ok := Unquote(data); return ok }},
			{"DecodeValid", func() bool { _, ok := DecodeValid(data); return ok }},
		} {
			b.Run(shape+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				cpu := cpumeter.Start()
				for b.Loop() {
					if !c.pass() {
						b.Fatal("refused")
					}
				}
				cpu.Report(b)
			})
		}
	}
}
