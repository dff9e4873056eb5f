package fs

import (
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
		diff := unifiedDiff("f", old, new)
		if added, removed := diffStat(diff); added != removed || added == 0 {
			b.Fatalf("%d added, %d removed", added, removed)
		}
	}
}
