package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAKilledWriteLeavesTheOldOrTheNewContent kills the server with
// SIGKILL at different moments of a large write_file: the file must hold
// exactly the old or exactly the new content, never a mix.
func TestAKilledWriteLeavesTheOldOrTheNewContent(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "big.txt")
	oldContent := strings.Repeat("old line\n", 1<<17) // 1.1 MiB
	newContent := strings.Repeat("NEW LINE\n", 1<<19) // 4.5 MiB
	request := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"big.txt","content":%q}}}`, newContent)
	sawNew := false
	// Kill ever later, until the new content has landed: the runs before
	// that one cover every stage of the write (reading the request, the
	// temporary file, the rename).
	for delay := time.Duration(0); !sawNew && delay < 10*time.Second; delay = delay*3/2 + 2*time.Millisecond {
		if err := os.WriteFile(target, []byte(oldContent), 0o644); err != nil {
			t.Fatal(err)
		}
		p := start(t, "--root", root)
		p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		p.recv()
		go func() { _, _ = p.stdin.Write([]byte(request + "\n")) }()
		time.Sleep(delay)
		_ = p.cmd.Process.Kill()
		<-p.waited
		got, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case bytes.Equal(got, []byte(oldContent)):
		case bytes.Equal(got, []byte(newContent)):
			sawNew = true
		default:
			t.Fatalf("killed after %v: the file holds %d bytes that are neither the old nor the new content", delay, len(got))
		}
	}
	if !sawNew {
		t.Fatal("the write never completed, even after 10s")
	}
}

// TestConcurrentWritersLeaveOneCompleteVersion sends many write_file calls
// for one file at once: afterwards it holds exactly one of them, whole.
func TestConcurrentWritersLeaveOneCompleteVersion(t *testing.T) {
	root := t.TempDir()
	p := start(t, "--root", root)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.recv()
	contents := map[string]bool{}
	for i := range 16 {
		c := strings.Repeat(fmt.Sprintf("writer %02d\n", i), 20000)
		contents[c] = true
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"shared.txt","content":%q}}}`, i+1, c))
	}
	for range 16 {
		if l := p.recv(); !strings.Contains(l, `"result"`) || strings.Contains(l, `"isError":true`) {
			t.Fatalf("a write failed: %.300s", l)
		}
	}
	p.finish()
	got, err := os.ReadFile(filepath.Join(root, "shared.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !contents[string(got)] {
		t.Fatalf("shared.txt holds %d bytes that are none of the versions written", len(got))
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("temporary files were left behind: %v", entries)
	}
}
