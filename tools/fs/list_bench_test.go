package fs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
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
	cpu := startCPU()
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
	cpu.report(b)
}

// BenchmarkServeListDirectory measures list_directory of 1,000 files as
// the binary serves it, one call at a time: the request line read, the
// call, and the response line written, everything but the pipes.
func BenchmarkServeListDirectory(b *testing.B) {
	dir := b.TempDir()
	makeManyFiles(b, dir, 1000)
	root, err := security.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	srv := server.New(server.Options{MaxRepeats: -1})
	if err := Register(srv, security.NewSandbox(root, security.SandboxOptions{HostRoot: dir})); err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	out := &lineSignal{lines: make(chan int, 1)}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), inR, out) }()
	send := func(line string) int {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		return <-out.lines
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	b.ReportAllocs()
	cpu := startCPU()
	id := 0
	for b.Loop() {
		id++
		if n := send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"list_directory","arguments":{}}}`); n < 10000 {
			b.Fatalf("not a listing: %s", out.short)
		}
	}
	cpu.report(b)
	inW.Close()
	if err := <-served; err != nil {
		b.Fatal(err)
	}
}

// lineSignal is the server's output: it reports the length of each line
// written, one line a Write, as the server writes them.
type lineSignal struct {
	lines chan int
	short string // the last line too short to be a listing, to show it
}

func (w *lineSignal) Write(p []byte) (int, error) {
	if n := bytes.Count(p, []byte{'\n'}); n != 1 {
		return 0, fmt.Errorf("a write of %d lines", n)
	}
	if len(p) < 10000 {
		w.short = string(p)
	}
	w.lines <- len(p)
	return len(p), nil
}
