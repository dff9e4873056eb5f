//go:build linux

package filelock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockFile is the file whose bytes lock the keys for every process that
// uses it: each lock is an open-file-description lock (F_OFD_SETLKW) on
// one byte, which the kernel drops when the description closes, a crash
// included.
type lockFile struct {
	dir, path string
}

// fileName is the lock file's name in its directory.
const fileName = "locks"

// openFile prepares the lock file in dir and checks that its file system
// takes open-file-description locks.
func openFile(dir string) (*lockFile, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("lock directory %q: %w", dir, err)
	}
	f := &lockFile{dir: abs, path: filepath.Join(abs, fileName)}
	if err := f.prepare(); err != nil {
		return nil, err
	}
	fd, err := f.open()
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("lock file %s: %w", f.path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Geteuid() {
		return nil, fmt.Errorf("lock file %s is not a regular file of this user; remove it", f.path)
	}
	// The probe's byte locks no key, so that it is free unless another
	// process probes at this very moment.
	if err := setlk(fd, slots, unix.F_WRLCK); err != nil && !busy(err) {
		return nil, fmt.Errorf("the file system of %s does not take open-file-description locks (F_OFD_SETLK): %w", f.dir, err)
	}
	return f, nil
}

// prepare makes the directory (0700) if it is missing, and refuses one
// that another user could change: a directory that is not this user's,
// or that its group or others may write, or a symbolic link.
func (f *lockFile) prepare() error {
	if err := os.Mkdir(f.dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("lock directory %s: %w", f.dir, err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(f.dir, &st); err != nil {
		return fmt.Errorf("lock directory %s: %w", f.dir, err)
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return fmt.Errorf("lock directory %s is not a directory", f.dir)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("lock directory %s belongs to user %d, not to this user (%d); use a directory of your own", f.dir, st.Uid, os.Geteuid())
	case st.Mode&0o022 != 0:
		return fmt.Errorf("lock directory %s can be written by its group or others (mode %04o); make it private with chmod 700", f.dir, st.Mode&0o7777)
	}
	return nil
}

// open opens the lock file anew, creating it (0600) if it is missing, and
// the directory too if that went (a cleaner of temporary files may take
// both).
func (f *lockFile) open() (int, error) {
	for again := true; ; again = false {
		fd, err := unix.Open(f.path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err == nil {
			return fd, nil
		}
		if !again || !errors.Is(err, unix.ENOENT) {
			return -1, fmt.Errorf("lock file %s: %w", f.path, err)
		}
		if err := f.prepare(); err != nil {
			return -1, err
		}
	}
}

// held is the open description that holds a caller's locks in the file.
type held struct {
	fd int
}

// release closes the description, which drops its locks. A nil held
// holds nothing.
func (h *held) release() {
	if h != nil {
		unix.Close(h.fd)
	}
}

// lock takes the bytes of spans, in their order, on one new open
// description of the lock file, waiting while ctx lives for a byte
// another description holds. When ctx ends during the wait for spans[at],
// it returns at and ctx's error; the bytes taken before are let go at
// once, and abandon(spans[at]) is called when that wait ends (see wait).
// Any other failure returns at -1.
//
// Once every byte is held, the file is checked to be still the one named
// fileName: a waiter that got a lock on a file removed meanwhile (by a
// cleaner of temporary files) starts again on the new one.
func (f *lockFile) lock(ctx context.Context, spans []span, abandon func(span)) (*held, int, error) {
	if len(spans) == 0 {
		return nil, -1, nil
	}
	for {
		fd, err := f.open()
		if err != nil {
			return nil, -1, err
		}
		for i, s := range spans {
			err := setlk(fd, s.off, unix.F_WRLCK)
			if busy(err) {
				var gaveUp bool
				if gaveUp, err = f.wait(ctx, fd, spans[:i], s, abandon); gaveUp {
					return nil, i, err
				}
			}
			if err != nil {
				unix.Close(fd)
				return nil, -1, fmt.Errorf("lock file %s: %w", f.path, err)
			}
		}
		same, err := f.still(fd)
		if err != nil {
			unix.Close(fd)
			return nil, -1, err
		}
		if same {
			return &held{fd: fd}, -1, nil
		}
		unix.Close(fd)
	}
}

// still reports whether the file open as fd is still named f.path.
func (f *lockFile) still(fd int) (bool, error) {
	var open, named unix.Stat_t
	if err := unix.Fstat(fd, &open); err != nil {
		return false, fmt.Errorf("lock file %s: %w", f.path, err)
	}
	if err := unix.Lstat(f.path, &named); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return false, nil
		}
		return false, fmt.Errorf("lock file %s: %w", f.path, err)
	}
	return open.Dev == named.Dev && open.Ino == named.Ino, nil
}

// wait takes the byte of s on fd, which already holds the bytes of
// before, blocking in F_OFD_SETLKW on a goroutine of its own, since the
// kernel's wait cannot be cut short. When ctx ends first, wait gives up
// and returns true and ctx's error at once: it lets go of the bytes of before and leaves fd to
// the goroutine, which closes it when its wait ends, dropping the byte
// if it got it, and then calls abandon(s). Until then the caller's locks
// in this process for s's keys stay held, so that the next caller here
// waits in this process rather than in the kernel: a lock another
// process keeps for long costs one blocked thread, not one for each
// caller that gave up on it.
func (f *lockFile) wait(ctx context.Context, fd int, before []span, s span, abandon func(span)) (bool, error) {
	if ctx.Done() == nil {
		return false, setlkw(fd, s.off)
	}
	done := make(chan error)
	gone := make(chan struct{})
	go func() {
		err := setlkw(fd, s.off)
		select {
		case done <- err:
		case <-gone:
			unix.Close(fd)
			abandon(s)
		}
	}()
	select {
	case err := <-done:
		return false, err
	case <-ctx.Done():
	}
	for _, b := range before {
		_ = setlk(fd, b.off, unix.F_UNLCK) // cannot fail on a byte fd holds
	}
	close(gone)
	return true, ctx.Err()
}

// setlk sets the lock of the byte at off on fd without waiting: typ is
// unix.F_WRLCK to take it, unix.F_UNLCK to let it go.
func setlk(fd int, off int64, typ int16) error {
	lk := unix.Flock_t{Type: typ, Whence: io.SeekStart, Start: off, Len: 1}
	for {
		err := unix.FcntlFlock(uintptr(fd), unix.F_OFD_SETLK, &lk)
		if err != unix.EINTR {
			return err
		}
	}
}

// setlkw takes the lock of the byte at off on fd, waiting while another
// open description holds it.
func setlkw(fd int, off int64) error {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart, Start: off, Len: 1}
	for {
		err := unix.FcntlFlock(uintptr(fd), unix.F_OFD_SETLKW, &lk)
		if err != unix.EINTR {
			return err
		}
	}
}

// busy reports whether err says that another description holds the byte.
func busy(err error) bool {
	return errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES)
}
