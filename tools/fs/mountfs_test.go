//go:build linux

package fs

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// mountFs is a real root (a RootFs over a temporary directory, so that
// unnamed files, fsync and removal by descriptor are real) in which some
// folders behave as other file systems mounted there, or as other roots
// of a sandbox: a rename from one to another fails with an
// *os.LinkError wrapping EXDEV, as the kernel's does across a mount point.
// Unless sameDevices is set, Stat and Lstat report each one's directories
// on a device of its own, as a real mount does; with it set, the rename
// alone tells them apart, as two roots on one disk.
//
// Hooks let a test fail removals or act when a source file is read.
type mountFs struct {
	*security.RootFs
	mounts      []string // root-relative, clean
	sameDevices bool
	// failRemove, if set, may refuse to remove a name.
	failRemove func(name string) error
	// onRead, if set, is called before each read of a regular file opened
	// for reading only.
	onRead func(name string)
}

// device returns the index of the file system holding the entry name:
// that of the deepest mount containing it (the mount point itself
// included), 0 for the root's own.
func (m *mountFs) device(name string) int {
	name = path.Clean(strings.TrimLeft(name, "/"))
	dev, depth := 0, -1
	for i, mnt := range m.mounts {
		if within(name, mnt) && len(mnt) > depth {
			dev, depth = i+1, len(mnt)
		}
	}
	return dev
}

func (m *mountFs) Rename(oldname, newname string) error {
	if m.device(oldname) != m.device(path.Dir(path.Clean(newname))) {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EXDEV}
	}
	return m.RootFs.Rename(oldname, newname)
}

func (m *mountFs) Remove(name string) error {
	if m.failRemove != nil {
		if err := m.failRemove(path.Clean(name)); err != nil {
			return err
		}
	}
	return m.RootFs.Remove(name)
}

func (m *mountFs) Stat(name string) (os.FileInfo, error) {
	fi, err := m.RootFs.Stat(name)
	return m.onDevice(name, fi), err
}

func (m *mountFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	fi, ok, err := m.RootFs.LstatIfPossible(name)
	return m.onDevice(name, fi), ok, err
}

// onDevice gives the directory fi, the entry name, the device of its
// mount. Files keep theirs, as on an overlay file system, so that the
// versions of a file compare equal whichever way it was described.
func (m *mountFs) onDevice(name string, fi os.FileInfo) os.FileInfo {
	if fi == nil || !fi.IsDir() || m.sameDevices {
		return fi
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi
	}
	fake := *st
	fake.Dev += uint64(m.device(name)) << 40
	return devInfo{fi, &fake}
}

type devInfo struct {
	os.FileInfo
	st *syscall.Stat_t
}

func (d devInfo) Sys() any { return d.st }

func (m *mountFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := m.RootFs.OpenFile(name, flag, perm)
	if err != nil || m.onRead == nil || flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return f, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return f, nil
	}
	return hookedFile{f, func() { m.onRead(path.Clean(name)) }}, nil
}

func (m *mountFs) Open(name string) (afero.File, error) { return m.OpenFile(name, os.O_RDONLY, 0) }

// hookedFile calls read before each read.
type hookedFile struct {
	afero.File
	read func()
}

func (h hookedFile) Read(p []byte) (int, error) {
	h.read()
	return h.File.Read(p)
}

func (h hookedFile) ReadAt(p []byte, off int64) (int, error) {
	h.read()
	return h.File.ReadAt(p, off)
}

// newMountEnv returns an env over a mountFs on a fresh temporary
// directory, with the folders mounts created and mounted, and the
// mountFs to set hooks on.
func newMountEnv(t testing.TB, lim security.Limits, mounts ...string) (*env, *mountFs) {
	t.Helper()
	dir := t.TempDir()
	for _, m := range mounts {
		if err := os.MkdirAll(dir+"/"+m, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	m := &mountFs{RootFs: root, mounts: mounts}
	return newEnv(t, "mount", m, dir, lim), m
}

// Compile-time check: the wrapper keeps what the tools look for below the
// sandbox's guard.
var (
	_ interface {
		unnamedCreator
		treeFs
		diskSpacer
	} = (*mountFs)(nil)
	_ fs.FileInfo = devInfo{}
)
