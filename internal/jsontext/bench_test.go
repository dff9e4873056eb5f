//go:build unix

package jsontext

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// sourceString returns 8 MiB of source code as a JSON string, the way a
// client sends the content of a file: a tab, a line break or a quote
// escaped every ten bytes or so.
func sourceString(b *testing.B) []byte {
	const unit = "\tif err := run(ctx, \"write\", path); err != nil { // naïve retry\n\t\treturn fmt.Errorf(\"writing %s: %w\", path, err)\n\t}\n"
	return AppendString(nil, strings.Repeat(unit, (8<<20)/len(unit)+1)[:8<<20], false)
}

// BenchmarkLongString measures each pass over 8 MiB of source code as a
// JSON string that the reading of a request makes, beside what a pass
// over as many bytes costs at least: SetBytes is the length of the JSON
// text, so MB/s compare.
func BenchmarkLongString(b *testing.B) {
	data := sourceString(b)
	dst := make([]byte, len(data))
	for _, c := range []struct {
		name string
		pass func() bool
	}{
		{"copy", func() bool { return copy(dst, data) == len(data) }},
		{"utf8.Valid", func() bool { return utf8.Valid(data) }},
		{"IndexByte", func() bool { return bytes.IndexByte(data[1:], 0) < 0 }},
		{"Valid", func() bool { return Valid(data) }},
		{"StringEnd", func() bool { return StringEnd(data, 0) == len(data) }},
		{"Unquote", func() bool { _, ok := Unquote(data); return ok }},
		{"DecodeValid", func() bool { _, ok := DecodeValid(data); return ok }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			start := cpuTime(b)
			for b.Loop() {
				if !c.pass() {
					b.Fatal("refused")
				}
			}
			b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime returns the CPU time the process has used, in nanoseconds: on a
// machine shared with other work a pass is descheduled for part of its
// time, which ns/op counts and this does not.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
