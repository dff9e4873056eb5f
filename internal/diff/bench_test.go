package diff

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDiffOfARewrite measures the diff of an edit that rewrites a
// whole 1 MiB file of short lines (8 bytes each, 131,072 of them), the
// case whose memory grows fastest with the file: B/op is what the diff
// takes per byte of file, beyond the texts themselves.
func BenchmarkDiffOfARewrite(b *testing.B) {
	old := strings.Repeat("old ln\n\n", 1<<20/8)
	new := strings.Repeat("new ln\n\n", 1<<20/8)
	b.SetBytes(int64(len(old)))
	b.ReportAllocs()
	for b.Loop() {
		diff := Unified("f", old, new)
		if added, removed := Stat(diff); added != removed || added == 0 {
			b.Fatalf("%d added, %d removed", added, removed)
		}
	}
}

// BenchmarkUnifiedDiff measures the diff of seven scattered one-line
// changes in a file of 10,000 short lines.
func BenchmarkUnifiedDiff(b *testing.B) {
	old := strings.Repeat(numberedLines(100), 100)
	new := strings.Replace(old, "line 50\n", "line fifty\n", 7)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", old, new)
	}
}

// numberedLines returns n lines "line 00" to "line 99", the last two
// digits of their index, as tools/fs's tests write files.
func numberedLines(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString("line ")
		sb.WriteByte(byte('0' + i/10%10))
		sb.WriteByte(byte('0' + i%10))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// BenchmarkDiffOfOneLineInALargeFile measures the diff of one changed line
// in 1 MiB: the window around it is all that is compared.
func BenchmarkDiffOfOneLineInALargeFile(b *testing.B) {
	old := strings.Repeat(numberedLines(100), 1<<20/800)
	new := strings.Replace(old, "line 42\n", "line forty-two\n", 1)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", old, new)
	}
}

// BenchmarkDiffOfEveryFourthLine measures the diff of 2,000 lines of which
// every fourth changed: 500 hunks' worth of search.
func BenchmarkDiffOfEveryFourthLine(b *testing.B) {
	old, new := everyFourth(2000, false), everyFourth(2000, true)
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", old, new)
	}
}

// BenchmarkDiffOfTextsFarApart measures the diff of 3,000 lines that all
// differ: the search runs to its bound, then shows the texts replaced.
func BenchmarkDiffOfTextsFarApart(b *testing.B) {
	var old, new strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&old, "a%d\n", i)
		fmt.Fprintf(&new, "b%d\n", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		Unified("f", old.String(), new.String())
	}
}

// everyFourth returns n lines, every fourth of them changed if edited.
func everyFourth(n int, edited bool) string {
	var sb strings.Builder
	for i := range n {
		if edited && i%4 == 0 {
			fmt.Fprintf(&sb, "changed line %d\n", i)
		} else {
			fmt.Fprintf(&sb, "line %d of the file\n", i)
		}
	}
	return sb.String()
}
