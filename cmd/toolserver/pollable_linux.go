package main

import (
	"io"
	"os"
	"strconv"
	"syscall"
)

// pollable returns a reader of r that goes through Go's network poller
// when r is a pipe, and the function that releases it.
//
// os.Stdin is a blocking descriptor: a read that waits holds an OS thread
// and, until the runtime notices (20 µs or more), its P, so that the reply
// to the message just read may wait behind it. Through the poller the
// read parks only its goroutine.
//
// The pipe is opened anew through /proc/self/fd, which gives an open file
// of its own, and only that one is made non-blocking. Setting the flag on
// stdin itself would change the open file it shares with stdout when both
// are one socket, and with the parent, and would have to be put back even
// after a crash. Sockets, terminals and files are read as they are.
func pollable(r io.Reader) (io.Reader, func()) {
	f, ok := r.(*os.File)
	if !ok {
		return r, func() {}
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return r, func() {}
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return r, func() {}
	}
	var path string
	_ = rc.Control(func(fd uintptr) { path = "/proc/self/fd/" + strconv.Itoa(int(fd)) })
	nf, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return r, func() {}
	}
	return nf, func() { nf.Close() }
}
