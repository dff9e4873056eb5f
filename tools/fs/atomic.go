package fs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/internal/atomicfile"
	"github.com/stdiotools/toolserver/security"
)

// newFileMode is the mode of files the tools create.
const newFileMode fs.FileMode = 0o644

// unnamedCreator is a file system that can create a file without a name
// and link it into place when it is complete: *security.RootFs on Linux.
type unnamedCreator interface {
	CreateUnnamed(dir string, perm fs.FileMode) (*security.UnnamedFile, error)
}

// unnamedOf returns the CreateUnnamed of fsys, the file system below a
// sandbox's guard, or nil if it has none.
func unnamedOf(fsys afero.Fs) func(dir string, perm fs.FileMode) (atomicfile.Unnamed, error) {
	uc, ok := fsys.(unnamedCreator)
	if !ok {
		return nil
	}
	return func(dir string, perm fs.FileMode) (atomicfile.Unnamed, error) {
		u, err := uc.CreateUnnamed(dir, perm)
		if err != nil {
			return nil, err // not a nil *UnnamedFile in an interface
		}
		return u, nil
	}
}

// fromText is the fill that writes text, stopping when ctx is done.
func fromText(ctx context.Context, text string) atomicfile.Fill {
	return atomicfile.FromText(ctx, text)
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
// as atomicfile.Writer.Write does: a reader sees the old file or the new
// one, a killed server leaves nothing behind (or, where the file cannot
// be made without a name, a temporary file that listings hide and walks
// remove once stale; see tempfiles.go), and with syncTheDir what it
// reports done survives a power loss. On failure rel is as it was, but
// for a failure to sync its directory, which comes after the rename and
// says so. It returns the number of bytes written.
//
// The temporary file is opened through the sandbox (OpenWrite), which
// refuses what may not be created; an unnamed file is linked into place
// below the sandbox's guard of new names, so the rule for a new name is
// applied here first.
func (t *toolset) writeAtomic(ctx context.Context, rel string, perm fs.FileMode, sync dirSync, fill atomicfile.Fill) (int64, error) {
	if sync == syncTheDir {
		// Otherwise the caller made the directory (copyTree) or swept it
		// (moveAcross).
		t.sweepBeforeWrite(ctx, path.Dir(rel))
	}
	if t.createUnnamed != nil {
		if err := t.sb.CheckNewName(pathArg(rel)); err != nil {
			return 0, err
		}
	}
	w := atomicfile.Writer{
		Fs: t.sb.Fs(),
		OpenTemp: func(name string, perm fs.FileMode) (afero.File, error) {
			return t.sb.OpenWrite(pathArg(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		},
		CreateUnnamed: t.createUnnamed,
		NoDirSync:     t.noDirSync,
	}
	n, err := w.Write(ctx, rel, perm, sync == syncTheDir, fill)
	if ce, ok := errors.AsType[*atomicfile.CreateError](err); ok {
		return 0, t.explainWrite(rel, ce.Err)
	}
	if se, ok := errors.AsType[*atomicfile.DirSyncError](err); ok {
		return n, t.notSynced(rel, se.Dir, se.Err)
	}
	if err != nil {
		return 0, t.failWrite(ctx, rel, err)
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

// syncDir commits the entries of the directory rel to stable storage
// (atomicfile.SyncDir).
func syncDir(fsys afero.Fs, rel string) error { return atomicfile.SyncDir(fsys, rel) }

// tempName returns a new random name for a temporary entry
// (atomicfile.TempName).
func tempName() string { return atomicfile.TempName() }
