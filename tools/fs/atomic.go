package fs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// newFileMode is the mode of files the tools create.
const newFileMode fs.FileMode = 0o644

// unnamedCreator is a file system that can create a file without a name
// and link it into place when it is complete: *security.RootFs on Linux.
type unnamedCreator interface {
	CreateUnnamed(dir string, perm fs.FileMode) (*security.UnnamedFile, error)
}

// unnamedFile is a file without a name until Link puts it in its
// directory: *security.UnnamedFile.
type unnamedFile interface {
	afero.File
	Chmod(mode fs.FileMode) error
	Link(tmp, name string) error
	SyncDir() error
}

// unnamedOf returns the CreateUnnamed of fsys, the file system below a
// sandbox's guard, or nil if it has none.
func unnamedOf(fsys afero.Fs) func(dir string, perm fs.FileMode) (unnamedFile, error) {
	uc, ok := fsys.(unnamedCreator)
	if !ok {
		return nil
	}
	return func(dir string, perm fs.FileMode) (unnamedFile, error) {
		u, err := uc.CreateUnnamed(dir, perm)
		if err != nil {
			return nil, err // not a nil *UnnamedFile in an interface
		}
		return u, nil
	}
}

// fillFunc writes the content of a new file into f and returns how many
// bytes it wrote.
type fillFunc func(f afero.File) (int64, error)

// fromText is the fillFunc that writes text, stopping when ctx is done.
// It writes a mebibyte at a time straight from text: copied through a
// reader, it went 32 KiB at a time, each copied once more on the way.
func fromText(ctx context.Context, text string) fillFunc {
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

// dirSync says whether writeAtomic syncs the directory it put a file in.
type dirSync bool

const (
	// syncTheDir syncs the directory once the file is in place: what
	// write_file, edit_file and copy_file of one file report done is on
	// disk.
	syncTheDir dirSync = true
	// dirSyncedLater leaves it to the caller, which syncs the directory
	// once for many files (copyTree) or before it deletes anything
	// (finishMove).
	dirSyncedLater dirSync = false
)

// writeAtomic replaces the file rel, or creates it, with what fill writes,
// so that a reader sees either the old file or the new one, never a mix,
// and a killed server leaves nothing behind. On failure rel is as it was,
// but for a failure to sync its directory, which comes after the rename
// and says so. It returns the number of bytes written.
//
// Where the file system can (Linux, through /proc), the new file is
// created without a name (O_TMPFILE) in rel's directory, filled, synced,
// given its mode, then linked under a temporary name and renamed over
// rel: if the process dies before that, the kernel frees the file. Only a
// kill in the instant between the link and the rename leaves a temporary
// file. Elsewhere the file is written as a temporary file in the same
// directory and renamed over rel; a crash then leaves that temporary file.
// Either way the temporary name is tempPrefix, random hex digits and
// tempSuffix, which listings hide and walks remove once stale (see
// tempfiles.go).
//
// With syncTheDir, the directory is synced after the rename, as databases
// do: until then a power loss can undo the rename, and lose a write
// already reported done.
func (t *toolset) writeAtomic(ctx context.Context, rel string, perm fs.FileMode, sync dirSync, fill fillFunc) (int64, error) {
	dir := path.Dir(rel)
	if sync == syncTheDir {
		// Otherwise the caller made the directory (copyTree) or swept it
		// (moveAcross).
		t.sweepBeforeWrite(ctx, dir)
	}
	if t.createUnnamed != nil {
		// The unnamed file is linked into place below the sandbox's guard
		// of new names, so the rule for a new name is applied here.
		if err := t.sb.CheckNewName(pathArg(rel)); err != nil {
			return 0, err
		}
		if u, err := t.createUnnamed(dir, perm); err == nil {
			return t.writeUnnamed(ctx, rel, u, perm, sync, fill)
		}
		// Unsupported here, or failing: the named way below says why.
	}
	var f afero.File
	var tmp string
	var err error
	for range 8 {
		tmp = joinRel(dir, tempName())
		f, err = t.sb.OpenWrite(pathArg(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return 0, t.explainWrite(rel, err)
	}
	fsys := t.sb.Fs()
	n, err := fill(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Chmod(tmp, perm) // OpenWrite's perm went through the umask
	}
	if err == nil {
		err = fsys.Rename(tmp, rel)
	}
	if err != nil {
		_ = fsys.Remove(tmp)
		return 0, t.failWrite(ctx, rel, err)
	}
	if sync == syncTheDir && !t.noDirSync {
		if err := syncDir(fsys, dir); err != nil {
			return n, t.notSynced(rel, dir, err)
		}
	}
	return n, nil
}

// writeUnnamed is writeAtomic with the unnamed file u in rel's directory.
func (t *toolset) writeUnnamed(ctx context.Context, rel string, u unnamedFile, perm fs.FileMode, sync dirSync, fill fillFunc) (int64, error) {
	n, err := fill(u)
	if err == nil {
		err = u.Sync()
	}
	if err == nil {
		err = u.Chmod(perm) // CreateUnnamed's perm went through the umask
	}
	if err == nil {
		err = u.Link(tempName(), path.Base(rel))
	}
	var serr error
	if err == nil && sync == syncTheDir && !t.noDirSync {
		serr = u.SyncDir() // before Close, which closes the directory
	}
	if cerr := u.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return 0, t.failWrite(ctx, rel, err)
	case serr != nil:
		return n, t.notSynced(rel, path.Dir(rel), serr)
	}
	return n, nil
}

// notSynced is the error of a write of rel that is in place, but whose
// directory dir could not be synced for err: the write may not survive a
// power loss.
func (t *toolset) notSynced(rel, dir string, err error) error {
	return fail(msgNotSynced, lit(quote(rel)), cause{t.sb.Explain("sync", dir, err)})
}

// failWrite is the error of a write of rel that failed with err: the
// context's error if it is done, errChanged as it is, or err explained.
func (t *toolset) failWrite(ctx context.Context, rel string, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, errChanged):
		return errChanged
	}
	return t.explainWrite(rel, err)
}

// explainWrite explains a failure to write rel, naming rel rather than the
// temporary file when the cause is known.
func (t *toolset) explainWrite(rel string, err error) error {
	if pe, ok := errors.AsType[*security.PathError](err); ok {
		if pe.Err == nil {
			return pe
		}
		err = pe.Err
	}
	return t.sb.Explain("write", rel, err)
}

// ctxReader is a reader that stops with ctx's error once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// syncDir commits the entries of the directory rel to stable storage
// (fsync of the directory), so that a file linked or renamed into it
// survives a crash. A file system that cannot sync a directory (EINVAL)
// counts as synced.
func syncDir(fsys afero.Fs, rel string) error {
	d, err := fsys.Open(rel)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
