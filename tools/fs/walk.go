package fs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/security"
)

// dirBatch is how many entries one read of a directory returns; ctx is
// checked between batches.
const dirBatch = 512

// dirEntries returns the entries of the directory rel, sorted by name,
// without following symbolic links.
func (t *toolset) dirEntries(ctx context.Context, rel string) ([]fs.DirEntry, error) {
	f, fi, err := t.sb.OpenRead(pathArg(rel), true)
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

// maxSkippedNamed is how many skipped entries a result names; the rest
// are only counted.
const maxSkippedNamed = 10

// SkippedEntry is an entry a search skipped because it could not be read
// or its path could not be used, and why.
type SkippedEntry struct {
	Path   string `json:"path" description:"The entry, relative to the root."`
	Reason string `json:"reason" description:"Why, such as path_too_long (deeper than the path limit), control_character (a name the path tools refuse) or permission_denied."`
}

// skipList counts the entries a search skipped and keeps the first
// maxSkippedNamed of them.
type skipList struct {
	n     int
	first []SkippedEntry
}

// add records that the entry p was skipped for err.
func (s *skipList) add(p string, err error) {
	s.n++
	if len(s.first) < maxSkippedNamed {
		s.first = append(s.first, SkippedEntry{Path: p, Reason: skipReason(err)})
	}
}

// skipReason names why err made an entry be skipped.
func skipReason(err error) string {
	if pe, ok := errors.AsType[*security.PathError](err); ok {
		return pe.Reason.String()
	}
	if errors.Is(err, fs.ErrPermission) {
		return security.Permission.String()
	}
	return security.Other.String()
}

// sentence says what was skipped, naming the first entries: `Skipped 3
// entries that could not be read: "a" (path too long), "b" (permission
// denied) and 1 more.`; "" when none was.
func (s *skipList) sentence() string {
	if s.n == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("Skipped " + plural(s.n, "entry that could not be read", "entries that could not be read") + ": ")
	for i, e := range s.first {
		if i > 0 {
			if i == len(s.first)-1 && s.n == len(s.first) {
				sb.WriteString(" and ")
			} else {
				sb.WriteString(", ")
			}
		}
		sb.WriteString(quote(e.Path) + " (" + strings.ReplaceAll(e.Reason, "_", " ") + ")")
	}
	if more := s.n - len(s.first); more > 0 {
		sb.WriteString(" and " + strconv.Itoa(more) + " more")
	}
	sb.WriteString(".")
	return sb.String()
}
