package security

import (
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// RootFs is an afero.Fs over os.Root: the kernel (openat) keeps every
// operation inside the root.
//
// Names are forward-slash paths relative to the root. Leading slashes are
// stripped, so "/a" is "a", and "" and "." both mean the root. Every name
// is resolved by os.Root, which refuses ".." above the root, symbolic links
// that leave it and absolute symbolic links (even those pointing inside),
// with an error whose text contains "path escapes from parent". It does not
// stop named pipes, devices or mount points inside the root: see
// Sandbox.OpenRead.
//
// Files it returns report their root-relative name from Name, never the
// host path, and so do the errors their methods return.
//
// RootFs implements afero.Fs and afero.Symlinker.
type RootFs struct {
	root *os.Root
}

// Compile-time checks of the interfaces RootFs implements.
var (
	_ afero.Fs        = (*RootFs)(nil)
	_ afero.Symlinker = (*RootFs)(nil)
)

// OpenRoot opens dir, which must be an existing directory, as a RootFs.
// The caller must Close it.
func OpenRoot(dir string) (*RootFs, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &RootFs{root: r}, nil
}

// Close closes the root. Files opened from it stay usable.
func (r *RootFs) Close() error { return r.root.Close() }

// Name returns the name of the file system type, "RootFs".
func (r *RootFs) Name() string { return "RootFs" }

// rootName turns a name given to a RootFs method into the name os.Root
// takes: leading slashes stripped, "" for the root becoming ".".
func rootName(name string) string {
	name = strings.TrimLeft(name, "/")
	if name == "" {
		return "."
	}
	return name
}

// Create creates or truncates the named file, like os.Create.
func (r *RootFs) Create(name string) (afero.File, error) {
	return r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// Mkdir creates the named directory. Its parent must exist.
func (r *RootFs) Mkdir(name string, perm os.FileMode) error {
	return r.root.Mkdir(rootName(name), perm)
}

// MkdirAll creates the named directory and any missing parents. It does
// nothing if the directory exists.
func (r *RootFs) MkdirAll(name string, perm os.FileMode) error {
	return r.root.MkdirAll(rootName(name), perm)
}

// Open opens the named file or directory for reading.
func (r *RootFs) Open(name string) (afero.File, error) {
	return r.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens the named file with flag (os.O_RDONLY and so on) and, when
// it creates the file, perm.
//
// OpenFile always adds syscall.O_NONBLOCK, so that opening a named pipe
// never waits for the other end; regular files and directories behave as
// usual. Reading from a pipe opened this way still waits for data, so
// check the opened file's mode before reading, as Sandbox.OpenRead does.
func (r *RootFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	name = rootName(name)
	f, err := r.root.OpenFile(name, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, err
	}
	return &rootFile{f: f, name: name, root: r.root}, nil
}

// Remove removes the named file or empty directory. A symbolic link is
// removed itself, not its target. The root itself cannot be removed.
func (r *RootFs) Remove(name string) error {
	return r.root.Remove(rootName(name))
}

// RemoveAll removes the named path and everything it contains. It returns
// nil if the path does not exist. A symbolic link is removed itself, not
// its target. The root itself cannot be removed.
func (r *RootFs) RemoveAll(name string) error {
	return r.root.RemoveAll(rootName(name))
}

// Rename renames (moves) oldname to newname, both inside the root.
func (r *RootFs) Rename(oldname, newname string) error {
	return r.root.Rename(rootName(oldname), rootName(newname))
}

// Stat describes the named file, following symbolic links inside the root.
func (r *RootFs) Stat(name string) (os.FileInfo, error) {
	return r.root.Stat(rootName(name))
}

// Chmod changes the mode of the named file.
func (r *RootFs) Chmod(name string, mode os.FileMode) error {
	return r.root.Chmod(rootName(name), mode)
}

// Chown changes the numeric owner and group of the named file.
func (r *RootFs) Chown(name string, uid, gid int) error {
	return r.root.Chown(rootName(name), uid, gid)
}

// Chtimes changes the access and modification times of the named file.
func (r *RootFs) Chtimes(name string, atime, mtime time.Time) error {
	return r.root.Chtimes(rootName(name), atime, mtime)
}

// LstatIfPossible describes the named file without following it if it is a
// symbolic link. The boolean is always true: Lstat was used.
func (r *RootFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	fi, err := r.root.Lstat(rootName(name))
	return fi, true, err
}

// ReadlinkIfPossible returns the target of the named symbolic link, as
// stored: it may be absolute, or lead outside the root.
func (r *RootFs) ReadlinkIfPossible(name string) (string, error) {
	return r.root.Readlink(rootName(name))
}

// SymlinkIfPossible creates newname as a symbolic link to oldname.
//
// Unlike os.Root.Symlink it refuses a target that the root would never
// follow: an absolute oldname, or a relative one that leads lexically
// above the root from newname's directory. The error is an *os.LinkError;
// Sandbox.Explain turns it into a PathError with Reason LinkOutside.
func (r *RootFs) SymlinkIfPossible(oldname, newname string) error {
	newname = rootName(newname)
	if oldname == "" || path.IsAbs(oldname) || escapes(path.Join(path.Dir(newname), oldname)) {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: errLinkTarget}
	}
	return r.root.Symlink(oldname, newname)
}

// escapes reports whether the clean relative path p leads above the root.
func escapes(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../")
}
