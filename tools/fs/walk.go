package fs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
)

// dirBatch is how many entries one read of a directory returns; ctx is
// checked between batches.
const dirBatch = 512

// dirEntries returns the entries of the directory rel, sorted by name,
// without following symbolic links.
func (t *toolset) dirEntries(ctx context.Context, rel string) ([]fs.DirEntry, error) {
	f, fi, err := t.sb.OpenRead(rel, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !fi.IsDir() {
		return nil, notDirError(rel)
	}
	rd, hasReadDir := f.(fs.ReadDirFile)
	var all []fs.DirEntry
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var batch []fs.DirEntry
		if hasReadDir {
			batch, err = rd.ReadDir(dirBatch)
		} else {
			var infos []fs.FileInfo
			infos, err = f.Readdir(dirBatch)
			for _, fi := range infos {
				batch = append(batch, fs.FileInfoToDirEntry(fi))
			}
		}
		all = append(all, batch...)
		if errors.Is(err, io.EOF) || err == nil && len(batch) == 0 {
			break
		}
		if err != nil {
			return nil, t.sb.Explain("list", rel, err)
		}
	}
	slices.SortFunc(all, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return all, nil
}

// notDirError is the error for a file where a directory was wanted.
func notDirError(rel string) error {
	return errors.New(quote(rel) + " is a file, not a directory; read_file reads it, and get_file_info describes it")
}

// walkFunc is called by walk for each entry below the directory walked,
// with p its root-relative path and sub its path relative to the
// directory walked. If a directory below cannot be read, walkFunc is
// called for it a second time with the error; returning nil then goes on
// without it. Returning fs.SkipDir for a directory skips what it holds;
// fs.SkipAll ends the walk without an error.
type walkFunc func(p, sub string, d fs.DirEntry, err error) error

// walk visits everything below the directory rel, depth first, the
// entries of each directory in name order, without following symbolic
// links. It checks ctx before reading each directory, between batches of
// a directory's entries and before each entry, so that a cancel stops it
// within one entry.
func (t *toolset) walk(ctx context.Context, rel string, fn walkFunc) error {
	err := t.walkDir(ctx, rel, "", nil, fn)
	if err == fs.SkipAll || err == fs.SkipDir {
		return nil
	}
	return err
}

// walkDir walks the directory dir, which is sub below the walk's start
// and has the entry d (nil for the start itself).
func (t *toolset) walkDir(ctx context.Context, dir, sub string, d fs.DirEntry, fn walkFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ents, err := t.dirEntries(ctx, dir)
	if err != nil {
		if d == nil || ctx.Err() != nil {
			return err
		}
		if err := fn(dir, sub, d, err); err != fs.SkipDir {
			return err
		}
		return nil
	}
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, s := joinRel(dir, e.Name()), e.Name()
		if sub != "" {
			s = sub + "/" + s
		}
		if err := fn(p, s, e, nil); err != nil {
			if err == fs.SkipDir && e.IsDir() {
				continue
			}
			return err
		}
		if e.IsDir() {
			if err := t.walkDir(ctx, p, s, e, fn); err != nil {
				return err
			}
		}
	}
	return nil
}
