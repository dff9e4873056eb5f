//go:build unix

package main

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	_ = rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.O_NONBLOCK != 0
}

func TestAPipeIsReadThroughThePollerAndRestoredAfter(t *testing.T) {
	for _, startBlocking := range []bool{true, false} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		if startBlocking {
			_ = r.Fd() // makes r blocking, as os.Stdin usually is
		}
		got, restore := pollable(r)
		if got == any(r) || !nonblocking(t, r) {
			t.Fatal("a pipe should be read through a non-blocking duplicate")
		}
		go func() { _, _ = w.Write([]byte("x\n")) }()
		buf := make([]byte, 2)
		if n, err := got.Read(buf); err != nil || string(buf[:n]) != "x\n" {
			t.Fatalf("read %q %v", buf[:n], err)
		}
		restore()
		if nonblocking(t, r) == startBlocking {
			t.Errorf("starting blocking %v: the mode was not put back", startBlocking)
		}
		// The original still works after the duplicate is closed.
		go func() { _, _ = w.Write([]byte("y")) }()
		if n, err := r.Read(buf); err != nil || string(buf[:n]) != "y" {
			t.Fatalf("read from the original %q %v", buf[:n], err)
		}
		r.Close()
		w.Close()
	}
}

func TestAFileIsLeftAlone(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, restore := pollable(f)
	defer restore()
	if got != any(f) || nonblocking(t, f) {
		t.Error("a regular file must be read as it is")
	}
}
