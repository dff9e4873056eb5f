//go:build linux

package security

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeLockEnv hands TestHelperHoldsAWriteLock, run in a child process,
// the lock directory, the root and the path to hold, one a line.
const writeLockEnv = "SECURITY_TEST_HOLD_WRITE"

// TestHelperHoldsAWriteLock is not a test: run as a child process by the
// tests below, it takes the write lock writeLockEnv names, says "held" on
// stdout, and lets it go when its stdin ends.
func TestHelperHoldsAWriteLock(t *testing.T) {
	spec := os.Getenv(writeLockEnv)
	if spec == "" {
		t.Skip("a child process of the tests of write locks held by other processes")
	}
	parts := strings.Split(spec, "\n")
	sb := lockedSandbox(t, parts[0], parts[1])
	unlock, err := sb.LockWrite(context.Background(), parts[2])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("held")
	_, _ = io.Copy(io.Discard, os.Stdin)
	unlock()
}

// lockedSandbox returns a sandbox over root whose locks use lockDir.
func lockedSandbox(t *testing.T, lockDir, root string) *Sandbox {
	t.Helper()
	locks, err := NewLocks(lockDir)
	if err != nil {
		t.Fatal(err)
	}
	rfs, err := OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rfs.Close() })
	return NewSandbox(rfs, SandboxOptions{HostRoot: root, Locks: locks})
}

// holdWriteLock starts a child process that takes the write lock of rel
// and returns once it holds it, with the function that makes it let go
// and waits for it to exit.
func holdWriteLock(t *testing.T, lockDir, root, rel string) func() {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldsAWriteLock$")
	cmd.Env = append(os.Environ(), writeLockEnv+"="+lockDir+"\n"+root+"\n"+rel)
	cmd.Stderr = os.Stderr
	// A child stuck in LockWrite never reads its stdin's end: it must die
	// with the test, even one killed at a timeout (as mutation testing does).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	held := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == "held" {
				held <- true
			}
		}
	}()
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the child process did not take the lock")
	}
	return func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("the child process failed: %v", err)
		}
	}
}

func TestLockWriteWaitsForAnotherProcessUntilTheMarginWithReasonLocked(t *testing.T) {
	root, lockDir := t.TempDir(), filepath.Join(t.TempDir(), "locks")
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, lockDir, root, "sub/f.txt")
	sb := lockedSandbox(t, lockDir, root)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := sb.LockWrite(ctx, "a.txt", "./sub/../sub/f.txt")
	pe, ok := errors.AsType[*PathError](err)
	if !ok || pe.Reason != Locked {
		t.Fatalf("err = %v, want a PathError of reason Locked", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `sub/f.txt"`) || !strings.Contains(msg, "another writer") {
		t.Fatalf("message %q", msg)
	}
	release()
	unlock, err := sb.LockWrite(context.Background(), "sub/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

func TestLockWriteSaysSoWhenTheLockDirectoryCannotBeUsed(t *testing.T) {
	root, lockDir := t.TempDir(), filepath.Join(t.TempDir(), "locks")
	sb := lockedSandbox(t, lockDir, root)
	// The directory is replaced by a file: the lock file cannot be opened.
	if err := os.RemoveAll(lockDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lockDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := sb.LockWrite(context.Background(), "f.txt")
	pe, ok := errors.AsType[*PathError](err)
	if !ok || pe.Reason != Other || pe.Path != "f.txt" {
		t.Fatalf("err = %#v, want a PathError of reason Other naming f.txt", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "lock folder is broken") || !strings.Contains(msg, "nothing was changed") {
		t.Fatalf("message %q", msg)
	}
	// Nothing stays held: with the directory back, the lock is free.
	if err := os.Remove(lockDir); err != nil {
		t.Fatal(err)
	}
	unlock, err := sb.LockWrite(context.Background(), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

func TestNewLocksRefusesADirectoryOthersCouldWrite(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	if _, err := NewLocks(dir); err == nil || !strings.Contains(err.Error(), "chmod 700") {
		t.Fatalf("err = %v", err)
	}
}
