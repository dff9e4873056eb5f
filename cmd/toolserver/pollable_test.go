//go:build linux

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

func TestAPipeIsReadThroughAnOpenFileOfItsOwn(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	_ = r.Fd() // makes r blocking, as os.Stdin usually is
	got, release := pollable(r)
	nf, ok := got.(*os.File)
	if !ok || nf == r || !nonblocking(t, nf) {
		t.Fatal("a pipe should be read through a non-blocking file of its own")
	}
	if nonblocking(t, r) {
		t.Fatal("the original's mode changed")
	}
	go func() { _, _ = w.Write([]byte("x\n")) }()
	buf := make([]byte, 2)
	if n, err := got.Read(buf); err != nil || string(buf[:n]) != "x\n" {
		t.Fatalf("read %q %v", buf[:n], err)
	}
	release()
	go func() { _, _ = w.Write([]byte("y")) }()
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "y" {
		t.Fatalf("the original no longer reads: %q %v", buf[:n], err)
	}
}

func TestFilesAndSocketsAreLeftAlone(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	sock := os.NewFile(uintptr(fds[0]), "sock")
	defer sock.Close()
	defer unix.Close(fds[1])
	for _, in := range []*os.File{f, sock} {
		got, release := pollable(in)
		release()
		if got != any(in) {
			t.Errorf("%s must be read as it is", in.Name())
		}
	}
}
