package filelock

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkLockUnlock is the cost a change of one file pays for its lock,
// uncontended: within the process only, and with the lock file in each
// file system at hand (an open, a lock, two stats and a close more).
func BenchmarkLockUnlock(b *testing.B) {
	run := func(b *testing.B, tb *Table) {
		keys := []Key{keyA}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			unlock, err := tb.Lock(ctx, keys)
			if err != nil {
				b.Fatal(err)
			}
			unlock()
		}
	}
	b.Run("process", func(b *testing.B) {
		tb, err := Open("")
		if err != nil {
			b.Fatal(err)
		}
		run(b, tb)
	})
	for _, base := range lockBases(b) {
		b.Run("file/"+base.fs, func(b *testing.B) {
			tb, err := Open(filepath.Join(tempDirIn(b, base.dir), "locks.d"))
			if err != nil {
				b.Fatal(err)
			}
			run(b, tb)
		})
	}
}
