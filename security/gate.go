package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// gateFs guards one root's file system: in a read-only root it refuses
// every change; in a writable root it refuses changes at or below the
// read-only roots nested in it, and the removal or move of a directory
// holding one. Reads pass straight through. A refusal is an
// *fs.PathError (or *os.LinkError) whose cause is a *readOnlyError,
// which matches syscall.EROFS.
type gateFs struct {
	afero.Fs
	r *sbRoot
}

// Compile-time checks of the interfaces gateFs implements.
var (
	_ afero.Fs        = (*gateFs)(nil)
	_ afero.Symlinker = (*gateFs)(nil)
)

// readOnlyError is the cause of a change a gateFs refused.
type readOnlyError struct {
	root  *sbRoot // the read-only root
	via   *sbRoot // the writable root the change came through, if nested
	holds bool    // the change removes or moves a directory holding root
}

func (e *readOnlyError) Error() string {
	if e.holds {
		return "the directory holds the read-only root " + e.root.name
	}
	return "the read-only root " + e.root.name + " cannot be changed"
}

// Is makes a readOnlyError match syscall.EROFS.
func (e *readOnlyError) Is(target error) bool { return target == syscall.EROFS }

// refusal returns the cause that forbids changing name, a path inside
// the root (inside: the change happens in the directory name; whole: it
// removes or moves name with what it holds), or nil.
func (r *sbRoot) refusal(name string, whole bool) *readOnlyError {
	if r.readOnly {
		return &readOnlyError{root: r}
	}
	if len(r.nested) == 0 {
		return nil
	}
	inner := path.Clean(rootName(name))
	for _, n := range r.nested {
		if within(inner, []string{n.inner}) {
			return &readOnlyError{root: n.root, via: r}
		}
		if whole && within(n.inner, []string{inner}) {
			return &readOnlyError{root: n.root, via: r, holds: true}
		}
	}
	if r.protect != nil {
		if e := r.protect.refusal(inner, whole); e != nil {
			e.via = r
			return e
		}
	}
	return nil
}

// check returns the *fs.PathError for changing name, or nil.
func (g *gateFs) check(op, name string, whole bool) error {
	if e := g.r.refusal(name, whole); e != nil {
		return &fs.PathError{Op: op, Path: name, Err: e}
	}
	return nil
}

// writes reports whether an open with flag may change the file.
func writes(flag int) bool {
	return flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0
}

// Create creates or truncates the named file, if it may change.
func (g *gateFs) Create(name string) (afero.File, error) {
	return g.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// OpenFile opens the named file; an open that may write is checked.
func (g *gateFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if writes(flag) {
		if err := g.check("open", name, false); err != nil {
			return nil, err
		}
	}
	return g.Fs.OpenFile(name, flag, perm)
}

// Open opens the named file or directory for reading.
func (g *gateFs) Open(name string) (afero.File, error) { return g.Fs.Open(name) }

// Mkdir creates the named directory, if it may.
func (g *gateFs) Mkdir(name string, perm os.FileMode) error {
	if err := g.check("mkdir", name, false); err != nil {
		return err
	}
	return g.Fs.Mkdir(name, perm)
}

// MkdirAll creates the named directory and its parents, if it may. In a
// writable root that holds read-only ones, it creates them one at a time,
// each checked: os.Root.MkdirAll creates the missing target of a dangling
// symbolic link on the way, which may lie in a nested read-only root where
// the check of name alone cannot see it (it climbs from the nearest
// directory that exists).
func (g *gateFs) MkdirAll(name string, perm os.FileMode) error {
	if err := g.check("mkdir", name, false); err != nil {
		return err
	}
	if len(g.r.nested) == 0 {
		return g.Fs.MkdirAll(name, perm)
	}
	var missing []string
	for p := path.Clean(rootName(name)); p != "." && !escapes(p); p = path.Dir(p) {
		fi, err := g.Fs.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return &fs.PathError{Op: "mkdir", Path: p, Err: syscall.ENOTDIR}
			}
			break
		}
		missing = append(missing, p)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		p := missing[i]
		if err := g.check("mkdir", p, false); err != nil {
			return err
		}
		if err := g.Fs.Mkdir(p, perm); err != nil {
			if fi, serr := g.Fs.Stat(p); serr == nil && fi.IsDir() {
				continue // made meanwhile
			}
			return err
		}
	}
	return nil
}

// Remove removes the named file or empty directory, if it may.
func (g *gateFs) Remove(name string) error {
	if err := g.check("remove", name, true); err != nil {
		return err
	}
	return g.Fs.Remove(name)
}

// RemoveAll removes the named path and what it holds, if it may.
func (g *gateFs) RemoveAll(name string) error {
	if err := g.check("remove", name, true); err != nil {
		return err
	}
	return g.Fs.RemoveAll(name)
}

// Rename renames oldname to newname, if both may change.
func (g *gateFs) Rename(oldname, newname string) error {
	for _, n := range []string{oldname, newname} {
		if e := g.r.refusal(n, true); e != nil {
			return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: e}
		}
	}
	return g.Fs.Rename(oldname, newname)
}

// Chmod changes the mode of the named file, if it may.
func (g *gateFs) Chmod(name string, mode os.FileMode) error {
	if err := g.check("chmod", name, false); err != nil {
		return err
	}
	return g.Fs.Chmod(name, mode)
}

// Chown changes the owner of the named file, if it may.
func (g *gateFs) Chown(name string, uid, gid int) error {
	if err := g.check("chown", name, false); err != nil {
		return err
	}
	return g.Fs.Chown(name, uid, gid)
}

// Chtimes changes the times of the named file, if it may.
func (g *gateFs) Chtimes(name string, atime, mtime time.Time) error {
	if err := g.check("chtimes", name, false); err != nil {
		return err
	}
	return g.Fs.Chtimes(name, atime, mtime)
}

// LstatIfPossible describes the named file without following a final
// symbolic link, where the file system below can.
func (g *gateFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	return lstatFs(g.Fs, name)
}

// ReadlinkIfPossible returns the target of the named symbolic link.
func (g *gateFs) ReadlinkIfPossible(name string) (string, error) {
	if lr, ok := g.Fs.(afero.LinkReader); ok {
		return lr.ReadlinkIfPossible(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
}

// SymlinkIfPossible creates newname as a link to oldname, if it may.
func (g *gateFs) SymlinkIfPossible(oldname, newname string) error {
	if e := g.r.refusal(newname, false); e != nil {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: e}
	}
	l, ok := g.Fs.(afero.Linker)
	if !ok {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: afero.ErrNoSymlink}
	}
	return l.SymlinkIfPossible(oldname, newname)
}

// DiskSpace says how much room the file system holding dir has, where the
// file system below can tell.
func (g *gateFs) DiskSpace(dir string) (avail, total uint64, err error) {
	if ds, ok := g.Fs.(interface {
		DiskSpace(string) (uint64, uint64, error)
	}); ok {
		return ds.DiskSpace(dir)
	}
	return 0, 0, errors.ErrUnsupported
}

// CreateUnnamed creates a file without a name in dir, if it may, where
// the file system below can.
func (g *gateFs) CreateUnnamed(dir string, perm os.FileMode) (*UnnamedFile, error) {
	if err := g.check("open", dir, false); err != nil {
		return nil, err
	}
	if uc, ok := g.Fs.(interface {
		CreateUnnamed(string, os.FileMode) (*UnnamedFile, error)
	}); ok {
		return uc.CreateUnnamed(dir, perm)
	}
	return nil, errors.ErrUnsupported
}
