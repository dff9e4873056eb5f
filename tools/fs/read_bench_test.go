package fs

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// BenchmarkServeReadFile1KiB measures read_file of a 1 KiB file as the
// binary serves it, one call at a time: the request line read, the call,
// and the response line written, everything but the pipes. It is the
// server's own share of toolbench's 1 KiB round trip.
func BenchmarkServeReadFile1KiB(b *testing.B) {
	dir := b.TempDir()
	line := "The quick brown fox jumps over the lazy dog 0123456789.\n"
	if err := os.WriteFile(filepath.Join(dir, "1k.txt"), []byte(strings.Repeat(line, 1024/len(line)+1)[:1024]), 0o644); err != nil {
		b.Fatal(err)
	}
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
		if n := send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"1k.txt"}}}`); n < 1024 {
			b.Fatalf("not the file: %s", out.short)
		}
	}
	cpu.report(b)
	inW.Close()
	if err := <-served; err != nil {
		b.Fatal(err)
	}
}
