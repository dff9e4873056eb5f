package security

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// muxFs is the file system of a sandbox with several roots: it takes
// paths in Resolve's form, "name:/inner" or "name:", and hands the inner
// path to the named root's file system. Errors come back with their
// paths in the same form; files keep their root-relative names, which are
// for logs only.
type muxFs struct {
	s *Sandbox
}

// Compile-time checks of the interfaces muxFs implements.
var (
	_ afero.Fs        = (*muxFs)(nil)
	_ afero.Symlinker = (*muxFs)(nil)
)

// errNoRoot is the cause of an operation on a path that names no root.
const errNoRoot constError = "the path names no root"

// route returns the gated file system of the root name lies in, and the
// path inside it.
func (m *muxFs) route(op, name string) (*sbRoot, afero.Fs, string, error) {
	r, inner := m.s.split(name)
	if r == nil {
		return nil, nil, "", &fs.PathError{Op: op, Path: name, Err: errNoRoot}
	}
	return r, r.gatedFs(), inner, nil
}

// gatedFs returns the root's file system as gated, made once.
func (r *sbRoot) gatedFs() afero.Fs {
	r.gateOnce.Do(func() { r.gfs = r.gated() })
	return r.gfs
}

// qualifyErr gives the paths of err, which r's file system returned, the
// root's name.
func (r *sbRoot) qualifyErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return &fs.PathError{Op: pe.Op, Path: r.qualify(rootName(pe.Path)), Err: pe.Err}
	}
	if le, ok := err.(*os.LinkError); ok {
		old := le.Old
		if le.Op != "symlink" { // a link's target is not a path in the root
			old = r.qualify(rootName(old))
		}
		return &os.LinkError{Op: le.Op, Old: old, New: r.qualify(rootName(le.New)), Err: le.Err}
	}
	return err
}

// Name returns "MultiRootFs".
func (m *muxFs) Name() string { return "MultiRootFs" }

// Create creates or truncates the named file.
func (m *muxFs) Create(name string) (afero.File, error) {
	return m.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// Mkdir creates the named directory.
func (m *muxFs) Mkdir(name string, perm os.FileMode) error {
	r, f, inner, err := m.route("mkdir", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.Mkdir(inner, perm))
}

// MkdirAll creates the named directory and any missing parents.
func (m *muxFs) MkdirAll(name string, perm os.FileMode) error {
	r, f, inner, err := m.route("mkdir", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.MkdirAll(inner, perm))
}

// Open opens the named file or directory for reading.
func (m *muxFs) Open(name string) (afero.File, error) {
	return m.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens the named file.
func (m *muxFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	r, f, inner, err := m.route("open", name)
	if err != nil {
		return nil, err
	}
	file, err := f.OpenFile(inner, flag, perm)
	return file, r.qualifyErr(err)
}

// Remove removes the named file or empty directory.
func (m *muxFs) Remove(name string) error {
	r, f, inner, err := m.route("remove", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.Remove(inner))
}

// RemoveAll removes the named path and everything it contains.
func (m *muxFs) RemoveAll(name string) error {
	r, f, inner, err := m.route("remove", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.RemoveAll(inner))
}

// Rename renames oldname to newname within one root. Across roots it
// fails with an *os.LinkError whose cause is syscall.EXDEV, as a rename
// across file systems does, so that a caller copies instead.
func (m *muxFs) Rename(oldname, newname string) error {
	r, f, oldInner, err := m.route("rename", oldname)
	if err != nil {
		return err
	}
	r2, _, newInner, err := m.route("rename", newname)
	if err != nil {
		return err
	}
	if r2 != r {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EXDEV}
	}
	return r.qualifyErr(f.Rename(oldInner, newInner))
}

// Stat describes the named file.
func (m *muxFs) Stat(name string) (os.FileInfo, error) {
	r, f, inner, err := m.route("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat(inner)
	return fi, r.qualifyErr(err)
}

// Chmod changes the mode of the named file.
func (m *muxFs) Chmod(name string, mode os.FileMode) error {
	r, f, inner, err := m.route("chmod", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.Chmod(inner, mode))
}

// Chown changes the owner and group of the named file.
func (m *muxFs) Chown(name string, uid, gid int) error {
	r, f, inner, err := m.route("chown", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.Chown(inner, uid, gid))
}

// Chtimes changes the access and modification times of the named file.
func (m *muxFs) Chtimes(name string, atime, mtime time.Time) error {
	r, f, inner, err := m.route("chtimes", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(f.Chtimes(inner, atime, mtime))
}

// LstatIfPossible describes the named file without following a final
// symbolic link, where the root's file system can.
func (m *muxFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	r, f, inner, err := m.route("lstat", name)
	if err != nil {
		return nil, false, err
	}
	fi, ok, err := lstatFs(f, inner)
	return fi, ok, r.qualifyErr(err)
}

// ReadlinkIfPossible returns the target of the named symbolic link.
func (m *muxFs) ReadlinkIfPossible(name string) (string, error) {
	r, f, inner, err := m.route("readlink", name)
	if err != nil {
		return "", err
	}
	lr, ok := f.(afero.LinkReader)
	if !ok {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
	}
	target, err := lr.ReadlinkIfPossible(inner)
	return target, r.qualifyErr(err)
}

// SymlinkIfPossible creates newname as a symbolic link to oldname, a
// target relative to newname's directory in newname's root.
func (m *muxFs) SymlinkIfPossible(oldname, newname string) error {
	r, f, inner, err := m.route("symlink", newname)
	if err != nil {
		return err
	}
	l, ok := f.(afero.Linker)
	if !ok {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: afero.ErrNoSymlink}
	}
	return r.qualifyErr(l.SymlinkIfPossible(oldname, inner))
}

// DiskSpace says how much room the file system holding dir has, where the
// root's file system can tell.
func (m *muxFs) DiskSpace(dir string) (avail, total uint64, err error) {
	_, f, inner, err := m.route("statfs", dir)
	if err != nil {
		return 0, 0, err
	}
	ds, ok := f.(interface {
		DiskSpace(string) (uint64, uint64, error)
	})
	if !ok {
		return 0, 0, errors.ErrUnsupported
	}
	return ds.DiskSpace(inner)
}

// CreateUnnamed creates a file without a name in dir, where the root's
// file system can (see RootFs.CreateUnnamed).
func (m *muxFs) CreateUnnamed(dir string, perm os.FileMode) (*UnnamedFile, error) {
	r, f, inner, err := m.route("open", dir)
	if err != nil {
		return nil, err
	}
	uc, ok := f.(interface {
		CreateUnnamed(string, os.FileMode) (*UnnamedFile, error)
	})
	if !ok {
		return nil, errors.ErrUnsupported
	}
	u, err := uc.CreateUnnamed(inner, perm)
	return u, r.qualifyErr(err)
}
