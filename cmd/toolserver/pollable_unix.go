//go:build unix

package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// pollable returns a reader of f that goes through Go's network poller
// when f is a pipe or a socket, and the function that undoes that.
//
// os.Stdin is a blocking descriptor: a read that waits holds an OS thread
// and, until the runtime notices (20 µs or more), its P, so that the reply
// to the message just read may wait behind it. Through the poller the
// read parks only its goroutine. The reader is a duplicate of f's
// descriptor, registered with the poller on its own, and the
// non-blocking flag, which belongs to the open file and so is shared with
// f, is put back as it was by the returned function. Terminals and files
// are left alone: a terminal's open file is shared with the shell.
func pollable(r io.Reader) (io.Reader, func()) {
	f, ok := r.(*os.File)
	if !ok {
		return r, func() {}
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return r, func() {}
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return r, func() {}
	}
	dup := -1
	if cerr := rc.Control(func(fd uintptr) { dup, err = unix.Dup(int(fd)) }); cerr != nil || err != nil {
		return r, func() {}
	}
	unix.CloseOnExec(dup)
	flags, err := unix.FcntlInt(uintptr(dup), unix.F_GETFL, 0)
	if err != nil || unix.SetNonblock(dup, true) != nil {
		unix.Close(dup)
		return r, func() {}
	}
	nf := os.NewFile(uintptr(dup), f.Name())
	return nf, func() {
		if flags&unix.O_NONBLOCK == 0 {
			_ = unix.SetNonblock(dup, false)
		}
		nf.Close()
	}
}
