package atomicfile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/spf13/afero"
)

// Unnamed is a file without a name until Link puts it in its directory:
// what security.RootFs.CreateUnnamed makes on Linux (O_TMPFILE).
type Unnamed interface {
	afero.File
	// Chmod sets the file's mode, which the umask does not change.
	Chmod(mode fs.FileMode) error
	// Link gives the file the name name in the directory it was made in,
	// through the temporary name tmp, replacing what is there.
	Link(tmp, name string) error
	// SyncDir syncs that directory; it must come before Close.
	SyncDir() error
}

// Fill writes the content of a new file into f and returns how many
// bytes it wrote.
type Fill func(f afero.File) (int64, error)

// FromText returns the Fill that writes text, stopping when ctx is done.
// It writes a mebibyte at a time straight from text: copied through a
// reader, it went 32 KiB at a time, each copied once more on the way.
func FromText(ctx context.Context, text string) Fill {
	const chunk = 1 << 20
	return func(f afero.File) (int64, error) {
		var written int64
		for rest := text; len(rest) > 0; {
			if err := ctx.Err(); err != nil {
				return written, err
			}
			n, err := f.WriteString(rest[:min(len(rest), chunk)])
			written += int64(n)
			if err != nil {
				return written, err
			}
			rest = rest[n:]
		}
		return written, nil
	}
}

// Writer writes files atomically into one file system. The zero value of
// each optional field is a plain default.
type Writer struct {
	// Fs is the file system written into: the temporary file is renamed,
	// given its mode or removed there, and directories synced.
	Fs afero.Fs
	// OpenTemp creates the temporary file name, which must not exist, for
	// writing with perm; nil opens it with Fs.OpenFile and O_EXCL. A
	// caller that checks what may be created passes its own.
	OpenTemp func(name string, perm fs.FileMode) (afero.File, error)
	// CreateUnnamed makes a file without a name in the directory dir; nil
	// where the file system cannot. When it fails, Write falls back to a
	// named temporary file.
	CreateUnnamed func(dir string, perm fs.FileMode) (Unnamed, error)
	// NoDirSync leaves out every sync of a directory, for a benchmark that
	// measures what they cost.
	NoDirSync bool
}

// CreateError is the error of a write that could not create its
// temporary file: nothing was written.
type CreateError struct{ Err error }

func (e *CreateError) Error() string { return "creating the temporary file: " + e.Err.Error() }
func (e *CreateError) Unwrap() error { return e.Err }

// DirSyncError is the error of a write whose file is in place, but whose
// directory could not be synced: the write may not survive a power loss.
type DirSyncError struct {
	Dir string // the directory, as Write was given it
	Err error
}

func (e *DirSyncError) Error() string { return "syncing the directory " + e.Dir + ": " + e.Err.Error() }
func (e *DirSyncError) Unwrap() error { return e.Err }

// Write replaces the file name, or creates it, with what fill writes, so
// that a reader sees either the old file or the new one, never a mix,
// and returns the number of bytes written. With syncDir, the directory is
// synced after the rename, as databases do: until then a power loss can
// undo the rename, and lose a write already reported done; without it,
// the caller syncs it (once for many files, say).
//
// Where CreateUnnamed can, the new file is created without a name in
// name's directory, filled, synced, given perm, then linked under a
// temporary name and renamed over name: if the process dies before that,
// the kernel frees the file. Only a kill in the instant between the link
// and the rename leaves a temporary file. Otherwise the file is written
// as a temporary file in the same directory (TempName) and renamed over
// name; a crash then leaves that temporary file.
//
// On failure name is as it was: Write returns a *CreateError when no
// temporary file could be made, and otherwise the error of fill, of the
// file's sync or close, of the chmod, the link or the rename, having
// removed the temporary file. The one exception is a *DirSyncError, after
// the rename: the file is in place, with the bytes written.
func (w *Writer) Write(ctx context.Context, name string, perm fs.FileMode, syncDir bool, fill Fill) (int64, error) {
	dir := path.Dir(name)
	if w.CreateUnnamed != nil {
		if u, err := w.CreateUnnamed(dir, perm); err == nil {
			return w.writeUnnamed(name, u, perm, syncDir, fill)
		}
		// Unsupported here, or failing: the named way below says why.
	}
	open := w.OpenTemp
	if open == nil {
		open = func(name string, perm fs.FileMode) (afero.File, error) {
			return w.Fs.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		}
	}
	var f afero.File
	var tmp string
	var err error
	for range 8 {
		tmp = path.Join(dir, TempName())
		f, err = open(tmp, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return 0, &CreateError{err}
	}
	n, err := fill(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.Fs.Chmod(tmp, perm) // the open's perm went through the umask
	}
	if err == nil {
		err = w.Fs.Rename(tmp, name)
	}
	if err != nil {
		_ = w.Fs.Remove(tmp)
		return 0, err
	}
	if syncDir && !w.NoDirSync {
		if err := SyncDir(w.Fs, dir); err != nil {
			return n, &DirSyncError{dir, err}
		}
	}
	return n, nil
}

// writeUnnamed is Write with the unnamed file u in name's directory.
func (w *Writer) writeUnnamed(name string, u Unnamed, perm fs.FileMode, syncDir bool, fill Fill) (int64, error) {
	n, err := fill(u)
	if err == nil {
		err = u.Sync()
	}
	if err == nil {
		err = u.Chmod(perm) // CreateUnnamed's perm went through the umask
	}
	if err == nil {
		err = u.Link(TempName(), path.Base(name))
	}
	var serr error
	if err == nil && syncDir && !w.NoDirSync {
		serr = u.SyncDir() // before Close, which closes the directory
	}
	if cerr := u.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return 0, err
	case serr != nil:
		return n, &DirSyncError{path.Dir(name), serr}
	}
	return n, nil
}

// SyncDir commits the entries of the directory dir of fsys to stable
// storage (fsync of the directory), so that a file linked or renamed into
// it survives a crash. A file system that cannot sync a directory
// (EINVAL) counts as synced.
func SyncDir(fsys afero.Fs, dir string) error {
	d, err := fsys.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
