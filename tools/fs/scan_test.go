package fs

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestScanForwardGivesTheSameFromMemoryAsFromAReader holds the two ways
// scanForward takes a file (whole in memory, or read through a reader)
// to one answer (the whole file in memory always gives its count of
// lines; a reader stopped early, none), for texts with and without a last line feed, empty
// lines, ranges inside, across and past the text, and budgets that cut
// within a line, at its end, and not at all.
func TestScanForwardGivesTheSameFromMemoryAsFromAReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	texts := []string{"", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\n\n", "one\n\nthree\n"}
	for range 40 {
		var b bytes.Buffer
		for range rng.IntN(150) {
			b.WriteString(string(bytes.Repeat([]byte{'x'}, rng.IntN(12))))
			if rng.IntN(5) > 0 {
				b.WriteByte('\n')
			}
		}
		texts = append(texts, b.String())
	}
	for i, text := range texts {
		for _, r := range []struct{ from, to int }{{1, 0}, {1, 1}, {2, 3}, {3, 0}, {5, 9}, {40, 0}, {60, 100}} {
			for _, budget := range []int64{0, 1, 5, 16, 700, 1 << 20} {
				for _, stop := range []bool{false, true} {
					name := fmt.Sprintf("text %d, lines %d-%d, budget %d, stop %v", i, r.from, r.to, budget, stop)
					mem, err := scanForward(context.Background(), nil, []byte(text), r.from, r.to, budget, stop, int64(len(text)))
					if err != nil {
						t.Fatal(name, err)
					}
					rd, err := scanForward(context.Background(), bytes.NewReader([]byte(text)), nil, r.from, r.to, budget, stop, 0) // read in 512-byte chunks
					if err != nil {
						t.Fatal(name, err)
					}
					if !bytes.Equal(mem.text, rd.text) || mem.from != rd.from || mem.to != rd.to || mem.lines != rd.lines ||
						mem.total != countLines([]byte(text)) || (rd.total >= 0 && rd.total != mem.total) ||
						mem.truncated != rd.truncated || mem.partial != rd.partial {
						t.Fatalf("%s: from memory %+v, from a reader %+v", name, mem, rd)
					}
				}
			}
		}
	}
}
