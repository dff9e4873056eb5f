package fs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// Temporary files of atomic writes are named tempPrefix, random hex digits
// and tempSuffix, in the directory of the file they replace.
const (
	tempPrefix = ".toolserver-"
	tempSuffix = ".tmp"
)

// newFileMode is the mode of files the tools create.
const newFileMode fs.FileMode = 0o644

// tempName returns a new random name for a temporary file.
func tempName() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return tempPrefix + hex.EncodeToString(b[:]) + tempSuffix
}

// writeAtomic replaces the file rel, or creates it, with what r holds. It
// writes a temporary file in the same directory, syncs and closes it, sets
// its mode to perm and renames it over rel, so that a reader sees either
// the old file or the new one, never a mix, and a crash leaves at worst a
// stray temporary file. On failure the temporary file is removed and rel
// is as it was. It returns the number of bytes written.
func (t *toolset) writeAtomic(ctx context.Context, rel string, r io.Reader, perm fs.FileMode) (int64, error) {
	dir := path.Dir(rel)
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
	n, err := io.Copy(f, ctxReader{ctx, r})
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
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, t.explainWrite(rel, err)
	}
	return n, nil
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
