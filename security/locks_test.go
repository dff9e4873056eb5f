package security

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLockWriteExcludesAWriterOfTheSameFileUntilReleased(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/f.txt", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	rfs, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rfs.Close()
	sb := NewSandbox(rfs, SandboxOptions{HostRoot: dir})
	unlock, err := sb.LockWrite(context.Background(), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The same file spelt another way waits too.
		u, err := sb.LockWrite(context.Background(), "./sub/../f.txt")
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		order = append(order, "second")
		mu.Unlock()
		u()
	}()
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	order = append(order, "first")
	mu.Unlock()
	unlock()
	<-done
	if strings.Join(order, ",") != "first,second" {
		t.Fatalf("order %v", order)
	}
	// Another file is not held up.
	u, err := sb.LockWrite(context.Background(), "g.txt")
	if err != nil {
		t.Fatal(err)
	}
	u()
}

func TestLockWriteGivesUpBeforeTheDeadlineWithASentenceNamingTheFile(t *testing.T) {
	sb := NewSandbox(mustRoot(t), SandboxOptions{})
	unlock, err := sb.LockWrite(context.Background(), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = sb.LockWrite(ctx, "g.txt", "f.txt")
	var pe *PathError
	if !errors.As(err, &pe) || pe.Reason != Locked {
		t.Fatalf("err = %v, want a PathError of reason Locked", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `"f.txt"`) || !strings.Contains(msg, "another writer") {
		t.Fatalf("message %q", msg)
	}
	// g.txt was let go again.
	u, err := sb.LockWrite(context.Background(), "g.txt")
	if err != nil {
		t.Fatal(err)
	}
	u()
}

func TestLockWriteReturnsTheCancellationOfTheCall(t *testing.T) {
	sb := NewSandbox(mustRoot(t), SandboxOptions{})
	unlock, _ := sb.LockWrite(context.Background(), "f.txt")
	defer unlock()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := sb.LockWrite(ctx, "f.txt"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func mustRoot(t *testing.T) *RootFs {
	t.Helper()
	rfs, err := OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rfs.Close() })
	return rfs
}

func TestTryLockWriteTakesFreeLocksAndWaitsForNone(t *testing.T) {
	sb := NewSandbox(mustRoot(t), SandboxOptions{})
	release, ok, err := sb.TryLockWrite("a.txt", "b.txt")
	if err != nil || !ok {
		t.Fatalf("free locks: ok %v, err %v", ok, err)
	}
	// Held: refused at once, and a.txt, free, is not kept either.
	if _, ok, err := sb.TryLockWrite("c.txt", "b.txt"); ok || err != nil {
		t.Fatalf("a held lock: ok %v, err %v", ok, err)
	}
	release()
	for _, name := range []string{"b.txt", "c.txt"} {
		r, ok, err := sb.TryLockWrite(name)
		if !ok || err != nil {
			t.Fatalf("%s after the release: ok %v, err %v", name, ok, err)
		}
		r()
	}
}
