package fs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/stdiotools/toolserver/internal/gitignore"
	"github.com/stdiotools/toolserver/internal/walk"
	"github.com/stdiotools/toolserver/security"
)

// dirBatch is how many entries one read of a directory returns; ctx is
// checked between batches.
const dirBatch = 512

// streamDir calls fn for each entry of the directory rel, in the order
// the file system gives them, without following symbolic links. It holds
// one batch of entries at a time, never the whole directory, so that a
// folder of a million entries costs what a folder of a few hundred does.
// It skips the server's temporary entries and, once the directory is
// read, removes the stale ones (see tempfiles.go): every listing, walk and
// count goes through here.
func (t *toolset) streamDir(ctx context.Context, rel string, fn func(fs.DirEntry) error) error {
	var stale []fs.DirEntry
	err := t.readDir(ctx, rel, func(e fs.DirEntry) error {
		if !isTempName(e.Name()) {
			return fn(e)
		}
		if t.sweep && len(stale) < maxRemovedPerRead && t.isStale(e) {
			stale = append(stale, e)
		}
		return nil
	})
	for _, e := range stale {
		t.removeTemp(ctx, joinRel(rel, e.Name()), e)
	}
	return err
}

// readDir is streamDir without the skipping: fn meets every entry.
func (t *toolset) readDir(ctx context.Context, rel string, fn func(fs.DirEntry) error) error {
	f, fi, err := t.sb.OpenRead(pathArg(rel), true)
	if err != nil {
		return err
	}
	defer f.Close()
	if !fi.IsDir() {
		return notDirError(rel)
	}
	rd, hasReadDir := f.(fs.ReadDirFile)
	for {
		if err := ctx.Err(); err != nil {
			return err
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
		for _, e := range batch {
			if err := fn(e); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) || err == nil && len(batch) == 0 {
			return nil
		}
		if err != nil {
			return t.sb.Explain("list", rel, err)
		}
	}
}

// countEntries returns how many entries the directory rel has.
func (t *toolset) countEntries(ctx context.Context, rel string) (int, error) {
	n := 0
	err := t.streamDir(ctx, rel, func(fs.DirEntry) error { n++; return nil })
	return n, err
}

// notDirError is the error for a file where a directory was wanted.
func notDirError(rel string) error {
	return fail(msgNotDir, lit(quote(rel)))
}

// walkFunc is called by walk for each entry below the directory walked
// (see walk.Func): p is its root-relative path, sub its path relative to
// the directory walked.
type walkFunc = walk.Func

// walk visits everything below the directory rel, depth first, without
// following symbolic links (walk.Walker over streamDir): a directory's
// entries in the order the file system gives them, its subdirectories
// entered after it has been read, in name order, at most
// Limits.MaxWalkEntries entries, walk.MaxDepth levels down and
// walk.MaxPending directories waiting. A tool whose output needs an order
// sorts what it keeps.
func (t *toolset) walk(ctx context.Context, rel string, fn walkFunc) error {
	return t.walkIgnoring(ctx, rel, nil, fn)
}

// walkIgnoring is walk without what ig skips: fn is not called for an
// ignored entry, and an ignored directory is not entered. Each directory's
// ignore files are read as the walk enters it, and let go when it leaves.
// A nil ig skips nothing.
func (t *toolset) walkIgnoring(ctx context.Context, rel string, ig *ignorer, fn walkFunc) error {
	return t.walkPruning(ctx, rel, ig, nil, fn)
}

// walkPruning is walkIgnoring that does not enter a directory for which
// prune (if not nil) reports true when the walk comes to it.
func (t *toolset) walkPruning(ctx context.Context, rel string, ig *ignorer, prune func(dir string) bool, fn walkFunc) error {
	w := walk.Walker[*gitignore.Rules]{ReadDir: t.streamDir, Join: joinRel, MaxEntries: t.lim.MaxWalkEntries, Prune: prune}
	if ig != nil {
		w.Filter = ig
	}
	return w.Walk(ctx, rel, ig.above(ctx, rel), fn)
}

// joinSub joins a name to a path relative to the walk's start.
func joinSub(sub, name string) string { return walk.JoinSub(sub, name) }

// maxSkippedNamed is how many skipped entries a result names; the rest
// are only counted.
const maxSkippedNamed = 10

// SkippedEntry is an entry a search skipped because it could not be read
// or its path could not be used, and why.
type SkippedEntry struct {
	Path   string `json:"path" description:"The entry, relative to the root."`
	Reason string `json:"reason" description:"Why, such as path_too_long, too_deep, too_many_directories, name_too_long, permission_denied, or for an ignore file too_large, too_many_patterns or read_limit."`
}

// skipList counts the entries a search skipped and keeps the first
// maxSkippedNamed of them.
type skipList struct {
	n     int
	first []SkippedEntry
}

// add records that the entry p was skipped for err.
func (s *skipList) add(p string, err error) { s.addReason(p, skipReason(err)) }

// addReason records that the entry p was skipped for reason.
func (s *skipList) addReason(p, reason string) {
	s.n++
	if len(s.first) < maxSkippedNamed {
		s.first = append(s.first, SkippedEntry{Path: p, Reason: reason})
	}
}

// skipReason names why err made an entry be skipped.
func skipReason(err error) string {
	switch err {
	case walk.ErrTooDeep:
		return "too_deep"
	case walk.ErrTooManyDirs:
		return "too_many_directories"
	}
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
func (s *skipList) sentence() message {
	names := s.list(reasonPhrase)
	switch s.n {
	case 0:
		return message{}
	case 1:
		return say(msgSkippedUnreadableOne, names)
	}
	return say(msgSkippedUnreadableMany, num(s.n), names)
}

// list names the first entries, each with its reason as phrase puts it,
// and counts the rest: `"a" (path too long), "b" (permission denied) and
// 1 more`.
func (s *skipList) list(phrase func(reason string) arg) arg {
	named := make(phrases, len(s.first))
	for i, e := range s.first {
		named[i] = say(msgParen, lit(quote(e.Path)), phrase(e.Reason))
	}
	switch more := s.n - len(s.first); {
	case more > 0:
		return say(msgAndMore, named, num(more))
	case len(named) > 1:
		return say(msgAnd, named[:len(named)-1], named[len(named)-1])
	case len(named) == 1:
		return named[0]
	}
	return lit("")
}

// reasonPhrase names, in words, why an entry was skipped: reason is the
// name of a security.Reason ("permission_denied") or of a reason of the
// walk ("too_deep"); an unknown one is shown as its words.
func reasonPhrase(reason string) arg {
	id := msgNone
	switch reason {
	case "other":
		id = msgReasonOther
	case "empty_path":
		id = msgReasonEmptyPath
	case "control_character":
		id = msgReasonControlCharacter
	case "backslash":
		id = msgReasonBackslash
	case "windows_path":
		id = msgReasonWindowsPath
	case "tilde":
		id = msgReasonTilde
	case "escapes_root":
		id = msgReasonEscapesRoot
	case "path_too_long":
		id = msgReasonPathTooLong
	case "name_too_long":
		id = msgReasonNameTooLong
	case "not_allowed":
		id = msgReasonNotAllowed
	case "link_outside_root":
		id = msgReasonLinkOutsideRoot
	case "special_file":
		id = msgReasonSpecialFile
	case "not_exist":
		id = msgReasonNotExist
	case "exists":
		id = msgReasonExists
	case "not_directory":
		id = msgReasonNotDirectory
	case "not_empty":
		id = msgReasonNotEmpty
	case "is_directory":
		id = msgReasonIsDirectory
	case "permission_denied":
		id = msgReasonPermissionDenied
	case "too_many_links":
		id = msgReasonTooManyLinks
	case "read_only":
		id = msgReasonReadOnly
	case "no_space":
		id = msgReasonNoSpace
	case "root_itself":
		id = msgReasonRootItself
	case "invisible_character_in_name":
		id = msgReasonInvisibleCharacterInName
	case "name_not_nfc":
		id = msgReasonNameNotNfc
	case "confusable_name":
		id = msgReasonConfusableName
	case "ambiguous_path":
		id = msgReasonAmbiguousPath
	case "read_only_root":
		id = msgReasonReadOnlyRoot
	case "file_too_large":
		id = msgReasonFileTooLarge
	case "too_many_open_files":
		id = msgReasonTooManyOpenFiles
	case "locked":
		id = msgReasonLocked
	case "unwatchable":
		id = msgReasonUnwatchable
	case "too_deep":
		id = msgReasonTooDeep
	case "too_many_directories":
		id = msgReasonTooManyDirectories
	}
	if id == msgNone {
		return lit(strings.ReplaceAll(reason, "_", " "))
	}
	return say(id)
}
