package security

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// DiskSpace returns the bytes available to this process on the file
// system that holds the directory dir, and that file system's size
// (statfs's f_bavail and f_blocks, times f_bsize). dir is resolved
// inside the root like every other name.
func (r *RootFs) DiskSpace(dir string) (avail, total uint64, err error) {
	d, err := r.root.OpenFile(rootName(dir), os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
	if err != nil {
		return 0, 0, err
	}
	defer d.Close()
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(d.Fd()), &st); err != nil {
		return 0, 0, &fs.PathError{Op: "statfs", Path: rootName(dir), Err: err}
	}
	bsize := uint64(st.Bsize)
	return st.Bavail * bsize, st.Blocks * bsize, nil
}

// procFdOK reports whether /proc/self/fd is there, through which an
// unnamed file is linked into place.
var procFdOK = sync.OnceValue(func() bool {
	fi, err := os.Stat("/proc/self/fd")
	return err == nil && fi.IsDir()
})

// CreateUnnamed creates a regular file without a name in the directory
// dir (Linux's O_TMPFILE), open for reading and writing, with perm as
// modified by the umask. Until Link gives it a name it is invisible, and
// if the process dies first the kernel frees it: nothing is left behind.
//
// It returns an error wrapping errors.ErrUnsupported where the kernel,
// the file system or a missing /proc cannot do this, or in a binary built
// with the tag toolserver_notmpfile (for tests); the caller then falls
// back to a named temporary file.
func (r *RootFs) CreateUnnamed(dir string, perm os.FileMode) (*UnnamedFile, error) {
	if unnamedDisabled || !procFdOK() {
		return nil, errors.ErrUnsupported
	}
	dir = rootName(dir)
	d, err := r.root.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		d.Close()
		switch err {
		case unix.EOPNOTSUPP, unix.EISDIR, unix.EINVAL:
			return nil, errors.Join(errors.ErrUnsupported, err)
		}
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), dir)
	return &UnnamedFile{rootFile: &rootFile{f: f, name: dir, root: r.root}, dir: dir, dirf: d}, nil
}

// UnnamedFile is a file made by CreateUnnamed: an afero.File that has no
// name until Link.
type UnnamedFile struct {
	*rootFile
	dir  string   // where it was created, root-relative
	dirf *os.File // that directory, as opened then; closed by Close
}

// Close closes the file and the directory it was made in.
func (u *UnnamedFile) Close() error {
	if u.dirf != nil {
		u.dirf.Close()
		u.dirf = nil
	}
	return u.rootFile.Close()
}

// Chmod sets the file's mode (fchmod), which, unlike the one given to
// CreateUnnamed, the umask does not change.
func (u *UnnamedFile) Chmod(mode os.FileMode) error { return u.err(u.f.Chmod(mode)) }

// Link gives the file the name name in its directory, replacing what is
// there, in one step for readers: it links the file as tmp (which must
// not exist) and renames tmp over name. Both are plain names, without
// "/". The file goes into the directory CreateUnnamed opened, wherever it
// is now, never into what its path names now: what was checked when the
// file was made (a sandbox's read-only roots) is where it lands. A kill
// between the two steps leaves tmp behind; on other failures tmp is
// removed.
func (u *UnnamedFile) Link(tmp, name string) error {
	if tmp == "" || name == "" || strings.Contains(tmp, "/") || strings.Contains(name, "/") {
		return &fs.PathError{Op: "link", Path: name, Err: fs.ErrInvalid}
	}
	if u.dirf == nil {
		return &fs.PathError{Op: "link", Path: name, Err: fs.ErrClosed}
	}
	dfd := int(u.dirf.Fd())
	proc := "/proc/self/fd/" + strconv.Itoa(int(u.f.Fd()))
	if err := unix.Linkat(unix.AT_FDCWD, proc, dfd, tmp, unix.AT_SYMLINK_FOLLOW); err != nil {
		return &os.LinkError{Op: "link", Old: u.dir, New: joinName(u.dir, tmp), Err: err}
	}
	if err := unix.Renameat(dfd, tmp, dfd, name); err != nil {
		_ = unix.Unlinkat(dfd, tmp, 0)
		return &os.LinkError{Op: "rename", Old: joinName(u.dir, tmp), New: joinName(u.dir, name), Err: err}
	}
	return nil
}

// SyncDir commits the directory the file was linked into to stable
// storage (fsync of the directory CreateUnnamed opened), so that the name
// Link gave survives a crash. It must come before Close. A file system
// that cannot sync a directory (EINVAL) counts as synced.
func (u *UnnamedFile) SyncDir() error {
	if u.dirf == nil {
		return &fs.PathError{Op: "sync", Path: u.dir, Err: fs.ErrClosed}
	}
	if err := unix.Fsync(int(u.dirf.Fd())); err != nil && err != unix.EINVAL {
		return &fs.PathError{Op: "sync", Path: u.dir, Err: err}
	}
	return nil
}

// joinName joins a root-relative directory and a name in it.
func joinName(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
