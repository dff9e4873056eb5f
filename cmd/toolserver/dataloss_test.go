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

// TestAKilledCopyLeavesNothingBehind starts a large copy_file, kills the
// server with SIGKILL while the copy's file is open, and checks that the
// root holds only the source: no partial copy, no temporary file.
func TestAKilledCopyLeavesNothingBehind(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc to see when the copy is under way")
	}
	root := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 4<<20) // 64 MiB of data, no holes
	if err := os.WriteFile(filepath.Join(root, "src.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	caught := 0
	for try := 0; try < 5 && caught < 2; try++ {
		p := start(t, "--root", root)
		p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		p.recv()
		p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"copy_file","arguments":{"source":"src.bin","destination":"copy.bin","overwrite":true}}}`)
		// Kill as soon as the server holds a file open for writing in the
		// root besides the source: the copy is under way.
		fdDir := fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid)
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if writingIn(fdDir, root) {
				caught++
				break
			}
			if fi, err := os.Stat(filepath.Join(root, "copy.bin")); err == nil && fi.Size() == int64(len(data)) {
				break // too late: the copy is done
			}
		}
		_ = p.cmd.Process.Kill()
		<-p.waited
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			switch e.Name() {
			case "src.bin":
			case "copy.bin":
				if fi, err := e.Info(); err != nil || fi.Size() != int64(len(data)) {
					t.Errorf("a partial copy.bin was left: %v", fi)
				}
				_ = os.Remove(filepath.Join(root, "copy.bin"))
			default:
				t.Errorf("the killed copy left %q in the root", e.Name())
			}
		}
	}
	t.Logf("killed %d copies while under way", caught)
	if caught == 0 {
		t.Skip("the copy finished before it could be killed")
	}
}

// writingIn reports whether the process whose /proc fd directory is fdDir
// has a file open in root other than src.bin.
func writingIn(fdDir, root string) bool {
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
		if err == nil && strings.HasPrefix(target, root+"/") && target != root+"/src.bin" {
			return true
		}
	}
	return false
}
