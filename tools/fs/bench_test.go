package fs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/cpumeter"
	"github.com/stdiotools/toolserver/security"
)

// benchCall calls a tool b.N times and fails on an error result.
func benchCall(b *testing.B, e *env, tool, args string) {
	b.Helper()
	ctx := context.Background()
	raw := json.RawMessage(args)
	b.ReportAllocs()
	cpu := cpumeter.Start()
	for b.Loop() {
		res, err := e.srv.CallTool(ctx, tool, raw)
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %s", tool, err, text(res))
		}
	}
	cpu.Report(b)
}

func BenchmarkReadFile(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			e := newRealEnv(b, security.Limits{})
			line := "The quick brown fox jumps over the lazy dog 0123456789.\n"
			e.write(b, "f.txt", strings.Repeat(line, size/len(line)+1)[:size])
			b.SetBytes(int64(size))
			benchCall(b, e, "read_file", `{"path":"f.txt"}`)
		})
	}
	b.Run("tail_of_1MiB", func(b *testing.B) {
		e := newRealEnv(b, security.Limits{})
		e.write(b, "f.txt", strings.Repeat(bigLines(100), 1<<20/800))
		benchCall(b, e, "read_file", `{"path":"f.txt","tail":10}`)
	})
}

func BenchmarkListDirectory1000Entries(b *testing.B) {
	e := newRealEnv(b, security.Limits{})
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(e.dir, fmt.Sprintf("file%04d.txt", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("by_name", func(b *testing.B) { benchCall(b, e, "list_directory", `{}`) })
	b.Run("sizes_by_size", func(b *testing.B) { benchCall(b, e, "list_directory", `{"sizes":true,"sort":"size"}`) })
}

// BenchmarkWalk20000Files runs the tools that walk a tree over 200
// directories of 100 small files, created once for all of them.
func BenchmarkWalk20000Files(b *testing.B) {
	e := newRealEnv(b, security.Limits{})
	for d := range 200 {
		dir := filepath.Join(e.dir, fmt.Sprintf("pkg%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			body := fmt.Sprintf("package pkg%03d\n\n// File %d.\nfunc F%d() int { return %d }\n", d, f, f, d*f)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", f)), []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("search_files", func(b *testing.B) { benchCall(b, e, "search_files", `{"pattern":"**/f05?.go"}`) })
	b.Run("grep_literal", func(b *testing.B) { benchCall(b, e, "grep", `{"query":"return 4242"}`) })
	b.Run("grep_regex", func(b *testing.B) { benchCall(b, e, "grep", `{"query":"return 42[0-9]+ }","regex":true}`) })
	b.Run("directory_tree", func(b *testing.B) { benchCall(b, e, "directory_tree", `{"depth":2}`) })
}

// BenchmarkGrepIgnored runs grep on a repository of 20,000 files, 18,000
// of them in node_modules/ and build/, which its .gitignore lists: once
// skipping them, as grep does by default, and once with include_ignored.
func BenchmarkGrepIgnored(b *testing.B) {
	e := newRealEnv(b, security.Limits{})
	files := map[string]string{".gitignore": "node_modules/\nbuild/\n", ".git/HEAD": "ref: refs/heads/main\n"}
	for _, top := range []struct {
		dir  string
		dirs int
	}{{"node_modules", 90}, {"build", 90}, {"src", 20}} {
		for d := range top.dirs {
			for f := range 100 {
				body := fmt.Sprintf("package p%03d\n\n// File %d.\nfunc F%d() int { return %d }\n", d, f, f, d*f)
				files[fmt.Sprintf("%s/p%03d/f%03d.go", top.dir, d, f)] = body
			}
		}
	}
	e.writeAll(b, files)
	b.Run("skipping_ignored", func(b *testing.B) { benchCall(b, e, "grep", `{"query":"return 4242"}`) })
	b.Run("include_ignored", func(b *testing.B) { benchCall(b, e, "grep", `{"query":"return 4242","include_ignored":true}`) })
}

// BenchmarkWriteFileDirSync measures write_file of 1 KiB and 1 MiB on a
// real directory with the sync of the directory after the rename and
// without it, side by side: what durability of the rename costs. Disks
// are noisy; run it several times and compare the columns:
//
//	for i in 1 2 3 4 5 6 7 8; do go test -run '^$' -bench WriteFileDirSync ./tools/fs/; done > sync.txt
//	benchstat -col /dir_sync sync.txt
func BenchmarkWriteFileDirSync(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		content, err := json.Marshal(strings.Repeat("0123456789abcdef", size/16))
		if err != nil {
			b.Fatal(err)
		}
		args := `{"path":"f.txt","content":` + string(content) + `}`
		for _, sync := range []bool{true, false} {
			b.Run(fmt.Sprintf("size=%dKiB/dir_sync=%v", size>>10, sync), func(b *testing.B) {
				dir := b.TempDir()
				root, err := security.OpenRoot(dir)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { root.Close() })
				e := newEnv(b, "real", root, dir, security.Limits{}, func(t *toolset) { t.noDirSync = !sync })
				b.SetBytes(int64(size))
				benchCall(b, e, "write_file", args)
			})
		}
	}
}

// BenchmarkWhatAChangeAdds measures what every change now adds to a
// write, apart from the write itself (whose fsyncs cost milliseconds and
// vary too much to show it): taking and releasing the file's write lock,
// and the version of the file written, for a file of 1 KiB (hashed) and
// one of 1 MiB (its metadata alone).
func BenchmarkWhatAChangeAdds(b *testing.B) {
	e := newRealEnv(b, security.Limits{})
	e.write(b, "d/small.txt", strings.Repeat("x", 1<<10))
	e.write(b, "d/large.txt", strings.Repeat("x", 1<<20))
	ts := newToolset(e.sb)
	ctx := context.Background()
	b.Run("lock", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			unlock, err := e.sb.LockWrite(ctx, "d/small.txt")
			if err != nil {
				b.Fatal(err)
			}
			unlock()
		}
	})
	for _, name := range []string{"small.txt", "large.txt"} {
		b.Run("version_after/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ts.versionAfter("d/"+name) == "" {
					b.Fatal("no version")
				}
			}
		})
	}
}

// BenchmarkGrepManyMatches runs grep on a tree of 20,000 files in 200
// folders, where every line of every file matches: the first page of
// 1,000 lines is found in the first files, and the rest of the tree is
// walked (not read) to be sure no file sorting before them holds a
// match. files=1 greps one folder of 100 files, where the walk is short.
func BenchmarkGrepManyMatches(b *testing.B) {
	e := newRealEnv(b, security.Limits{})
	body := strings.Repeat("needle in a line\n", 10)
	files := make(map[string]string, 20_000)
	for d := range 200 {
		for f := range 100 {
			files[fmt.Sprintf("d%03d/f%03d.txt", d, f)] = body
		}
	}
	e.writeAll(b, files)
	b.Run("tree", func(b *testing.B) { benchCall(b, e, "grep", `{"query":"needle"}`) })
	b.Run("folder", func(b *testing.B) { benchCall(b, e, "grep", `{"path":"d000","query":"needle"}`) })
}

// BenchmarkCompleteBigFolder completes a path in a folder of 200,000
// files (the default bound of entries a search streams), as a client's
// completion/complete of the path argument does: the first 100 names
// after "f1", streamed and kept by a bounded top-k.
func BenchmarkCompleteBigFolder(b *testing.B) {
	e := newRealEnv(b, security.Limits{})
	dir := filepath.Join(e.dir, "wide")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 200_000 {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%06d", i)))
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		got, err := e.srv.Complete(ctx, "toolserver:///{+path}", "path", "wide/f1", nil)
		if err != nil || len(got.Values) != 100 || !got.HasMore {
			b.Fatalf("%d values, %v", len(got.Values), err)
		}
	}
}
