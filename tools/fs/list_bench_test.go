package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/cpumeter"
)

// makeManyFiles creates n small files, file0000.txt and on, in dir.
func makeManyFiles(b *testing.B, dir string, n int) {
	b.Helper()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%04d.txt", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListFloor is the floor issue 14 measures list_directory
// against: os.ReadDir of 1,000 files, sorted by name as it returns them,
// and the same text list_directory writes, with no sandbox, no protocol
// and no JSON.
func BenchmarkListFloor(b *testing.B) {
	dir := b.TempDir()
	makeManyFiles(b, dir, 1000)
	b.ReportAllocs()
	cpu := cpumeter.Start()
	for b.Loop() {
		des, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		var sb strings.Builder
		files, dirs := 0, 0
		for _, d := range des {
			sb.WriteString(d.Name())
			if d.IsDir() {
				sb.WriteByte('/')
				dirs++
			} else {
				files++
			}
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "%s: %s, %s.\n", ".", plural(dirs, "directory", "directories"), plural(files, "file", "files"))
		if sb.Len() == 0 {
			b.Fatal("no text")
		}
	}
	cpu.Report(b)
}

// BenchmarkServeListDirectory measures list_directory of 1,000 files as
// the binary serves it, one call at a time: the request line read, the
// call, and the response line written, everything but the pipes.
func BenchmarkServeListDirectory(b *testing.B) {
	dir := b.TempDir()
	makeManyFiles(b, dir, 1000)
	benchServe(b, dir, "list_directory", `{}`, 10000)
}

// BenchmarkServeListBigFolder measures list_directory of a folder of
// 200,000 files (see makeBigFolder) as the binary serves it, one call at
// a time, for each sort, at offset 0 and at 199,000.
func BenchmarkServeListBigFolder(b *testing.B) {
	dir := bigFolder(b)
	for _, sort := range []string{"name", "size", "modified"} {
		for _, offset := range []int{0, bigFolderEntries - 1000} {
			b.Run(fmt.Sprintf("%s/offset%d", sort, offset), func(b *testing.B) {
				benchServe(b, dir, "list_directory", fmt.Sprintf(`{"sort":%q,"offset":%d}`, sort, offset), 20000)
			})
		}
	}
}
