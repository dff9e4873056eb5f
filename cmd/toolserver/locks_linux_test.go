//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/internal/filelock"
)

func TestALockDirInsideARootIsRefused(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{
		"the root itself":          root,
		"a folder of the root":     filepath.Join(root, "locks"),
		"through a symbolic link":  filepath.Join(link, "locks"),
		"below a missing folder":   filepath.Join(link, "a", "b"),
		"spelt with .. in the way": filepath.Join(root, "..", filepath.Base(root), "locks"),
	} {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := runCLI("tools", "--root", root, "--lock-dir", dir)
			if code != exitUsage || !strings.Contains(stderr, "--lock-dir") || !strings.Contains(stderr, "is inside the root") {
				t.Fatalf("exit %d, stderr %q; want a refusal naming --lock-dir", code, stderr)
			}
			if entries, _ := os.ReadDir(root); len(entries) != 0 {
				t.Fatalf("the refused lock dir left %v in the root", entries)
			}
		})
	}
}

func TestALockDirOthersCouldWriteIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o770); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("tools", "--root", t.TempDir(), "--lock-dir", dir)
	if code != exitUsage || !strings.Contains(stderr, "--lock-dir") || !strings.Contains(stderr, "chmod 700") {
		t.Fatalf("exit %d, stderr %q; want a refusal saying how to fix it", code, stderr)
	}
}

func TestAMissingLockDirIsMadePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	if code, _, stderr := runCLI("tools", "--root", t.TempDir(), "--lock-dir", dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for path, want := range map[string]os.FileMode{dir: os.ModeDir | 0o700, filepath.Join(dir, "locks"): 0o600} {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", path, fi.Mode(), want)
		}
	}
}

func TestAnUnusableDefaultLockDirLeavesTheLocksToTheProcessWithAWarning(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	def := filepath.Join(tmp, "toolserver-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(def, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(def, 0o777); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("--root", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "within this process only") || !strings.Contains(stderr, "--lock-dir") || !strings.Contains(stderr, "chmod 700") {
		t.Fatalf("stderr %q; want a warning that says why and how to fix it", stderr)
	}
	// A usable default is used, and says nothing.
	if err := os.Chmod(def, 0o700); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("--root", t.TempDir()); code != exitOK || strings.Contains(stderr, "lock") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(def, "locks")); err != nil {
		t.Fatalf("the default lock dir was not used: %v", err)
	}
}

// initialized starts toolserver with args and performs the handshake.
func initialized(t *testing.T, args ...string) *proc {
	t.Helper()
	p := start(t, args...)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.recv()
	return p
}

func TestAWriteWaitsForTheLockAnotherProcessHolds(t *testing.T) {
	root, lockDir := t.TempDir(), filepath.Join(t.TempDir(), "locks")
	p := initialized(t, "--root", root, "--lock-dir", lockDir)
	// This process holds the lock of f.txt as another toolserver would:
	// the identity of its folder, the root, and its name.
	tb, err := filelock.Open(lockDir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(root)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	unlock, err := tb.Lock(context.Background(), []filelock.Key{{Dev: uint64(st.Dev), Ino: st.Ino, Name: "f.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"f.txt","content":"new"}}}`)
	select {
	case l := <-p.lines:
		t.Fatalf("write_file was answered while another process held the lock: %s", l)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := os.Stat(filepath.Join(root, "f.txt")); err == nil {
		t.Fatal("f.txt was written while another process held the lock")
	}
	unlock()
	if l := p.recv(); strings.Contains(l, `"isError":true`) || !strings.Contains(l, `"result"`) {
		t.Fatalf("write_file failed: %s", l)
	}
	if b, err := os.ReadFile(filepath.Join(root, "f.txt")); err != nil || string(b) != "new" {
		t.Fatalf("f.txt = %q, %v", b, err)
	}
	p.finish()
}

func TestTwoServersEditingOneFileLoseNoEdit(t *testing.T) {
	root, lockDir := t.TempDir(), filepath.Join(t.TempDir(), "locks")
	file := filepath.Join(root, "log.txt")
	if err := os.WriteFile(file, []byte("END\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const perServer = 30
	servers := []*proc{
		initialized(t, "--root", root, "--lock-dir", lockDir, "--max-repeats", "-1"),
		initialized(t, "--root", root, "--lock-dir", lockDir, "--max-repeats", "-1"),
	}
	// Every edit puts its line before END, in the text it read: an edit
	// that read the file while another was under way would drop that
	// one's line. The two servers get their edits at once.
	for i := range perServer {
		for s, p := range servers {
			args, _ := json.Marshal(map[string]any{"path": "log.txt", "edits": []map[string]string{{"old_text": "END", "new_text": fmt.Sprintf("line %d.%d\nEND", s, i)}}})
			p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"edit_file","arguments":%s}}`, i+1, args))
		}
	}
	for s, p := range servers {
		for range perServer {
			if l := p.recv(); strings.Contains(l, `"isError":true`) || !strings.Contains(l, `"result"`) {
				t.Errorf("server %d: an edit failed: %.300s", s, l)
			}
		}
		p.finish()
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for s := range 2 {
		for i := range perServer {
			if !strings.Contains(string(b), fmt.Sprintf("line %d.%d\n", s, i)) {
				t.Errorf("the acknowledged edit %d.%d is lost", s, i)
			}
		}
	}
}

// TestAServerKilledWhileItHoldsALockLeavesNothingBehind kills a toolserver
// with SIGKILL while it writes a file, and so holds its lock: the kernel
// drops the lock, another toolserver writes the file at once, and the
// killed one left neither a mix nor a temporary file.
func TestAServerKilledWhileItHoldsALockLeavesNothingBehind(t *testing.T) {
	root, lockDir := t.TempDir(), filepath.Join(t.TempDir(), "locks")
	file := filepath.Join(root, "f.txt")
	if err := os.WriteFile(file, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const big = 24 << 20
	a := initialized(t, "--root", root, "--lock-dir", lockDir, "--max-message-bytes", fmt.Sprint(big+1024), "--max-write-bytes", fmt.Sprint(big), "--tool-timeout", "2m")
	b := initialized(t, "--root", root, "--lock-dir", lockDir)
	tb, err := filelock.Open(lockDir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(root)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	key := []filelock.Key{{Dev: uint64(st.Dev), Ino: st.Ino, Name: "f.txt"}}
	// held reports whether another process holds the lock of f.txt now.
	held := func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		unlock, err := tb.Lock(ctx, key)
		if err != nil {
			return true
		}
		unlock()
		return false
	}
	// Written from a goroutine, which the kill may leave with a broken
	// pipe: its error is no failure.
	go func() {
		_, _ = io.WriteString(a.stdin, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"f.txt","content":"`+strings.Repeat("x", big)+`"}}}`+"\n")
	}()
	deadline := time.Now().Add(60 * time.Second)
	for !held() {
		if time.Now().After(deadline) {
			t.Fatal("the writing server never held the lock of f.txt")
		}
		time.Sleep(time.Millisecond)
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-a.waited
	b.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"edit_file","arguments":{"path":"f.txt","edits":[{"old_text":"before","new_text":"after"}]}}}`)
	if l := b.recv(); strings.Contains(l, `"isError":true`) || !strings.Contains(l, `"result"`) {
		t.Fatalf("the other server's edit after the kill: %.300s", l)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "after\n" {
		t.Fatalf("f.txt = %.40q, %v", got, err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("the killed write left entries behind: %v", entries)
	}
	b.finish()
}
