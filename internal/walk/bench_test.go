package walk

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// osReadDir reads the directory dir below base 512 entries at a time, as
// tools/fs's streamDir does.
func osReadDir(base string) ReadDirFunc {
	return func(ctx context.Context, dir string, fn func(fs.DirEntry) error) error {
		f, err := os.Open(filepath.Join(base, dir))
		if err != nil {
			return err
		}
		defer f.Close()
		for {
			es, err := f.ReadDir(512)
			for _, e := range es {
				if err := fn(e); err != nil {
					return err
				}
			}
			if err == io.EOF || err == nil && len(es) == 0 {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
}

// BenchmarkWalkALargeFolder walks a folder of 50,000 empty files with
// Walker and with fs.WalkDir, which reads a directory whole and sorts it
// before it calls its function. peak-heap-B is the most the heap held
// above what it held before the walk, sampled every 2,500 entries.
func peakHeap(n int, base uint64, peak *uint64) {
	if n%2500 != 0 {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > base && ms.HeapAlloc-base > *peak {
		*peak = ms.HeapAlloc - base
	}
}

// heapNow collects garbage and returns the heap's size.
func heapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func BenchmarkWalkALargeFolder(b *testing.B) {
	base := b.TempDir()
	dir := filepath.Join(base, "big")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 50_000 {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("file-%05d.txt", i)))
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	b.Run("Walker", func(b *testing.B) {
		w := Walker[struct{}]{ReadDir: osReadDir(base)}
		b.ReportAllocs()
		var peak uint64
		for b.Loop() {
			n, base := 0, heapNow()
			_ = w.Walk(b.Context(), "big", struct{}{}, func(string, string, fs.DirEntry, error) error { n++; peakHeap(n, base, &peak); return nil })
		}
		b.ReportMetric(float64(peak), "peak-heap-B")
	})
	b.Run("fs.WalkDir", func(b *testing.B) {
		fsys := os.DirFS(base)
		b.ReportAllocs()
		var peak uint64
		for b.Loop() {
			n, base := 0, heapNow()
			_ = fs.WalkDir(fsys, "big", func(string, fs.DirEntry, error) error { n++; peakHeap(n, base, &peak); return nil })
		}
		b.ReportMetric(float64(peak), "peak-heap-B")
	})
}
