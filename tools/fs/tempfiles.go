package fs

import (
	"context"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/stdiotools/toolserver/internal/atomicfile"
)

// Temporary files.
//
// An atomic write (writeAtomic) puts its new file in place under a
// temporary name, and a move between file systems copies a directory or
// makes a link under one: atomicfile.TempName, ".toolserver-", 16
// lower-case hex digits and ".tmp", beside the target. A kill leaves such an entry behind where
// the file could not be made without a name (not Linux, or a file system
// without O_TMPFILE), in the instant between link and rename where it
// could, and for a move's directory or link.
//
// They are ours, not the user's: every directory read of the tools
// (streamDir, and so list_directory, directory_tree, search_files, grep,
// get_file_info's count, the plans of copy_file and move_file, and
// delete_file) skips them and counts them nowhere. Only a name of exactly
// that form is skipped, never one that merely looks like it; get_file_info
// and read_file still reach one by its path. No new entry may take such
// a name (refuseTempName).
//
// A temporary entry is removed once stale: when its modification time is
// staleTempAge old. Another server, or another call, may be writing one
// right now, so age is what tells a leftover from work under way: a
// temporary file's time moves with every write into it, and one is
// renamed away as soon as it is complete; a move's temporary directory's
// time moves whenever an entry is made directly in it, and is set to the
// original's only once it has its final name (see copyTree). No call runs
// for an hour (the tool timeout is 30 seconds unless the server is told
// otherwise, and copies stop when it runs out), so an entry that has not
// changed for that long has no writer left. And should one still have a
// writer, removing it loses nothing: that write or move fails, the target
// or source as it was, and says so.
//
// Stale entries are removed where the tools meet them, never by scanning:
// a root may be huge. A directory read meets them (list_directory,
// directory_tree, and every walk), and a write sweeps the directory it
// writes in, at most once per directory per staleTempAge in a server (see
// sweepBeforeWrite), since a write only needs the one directory; the
// directories a copy makes are new, and are not swept.
// Removal is best effort: what cannot be removed (a read-only root, a
// permission) stays, skipped.
// staleTempAge is how long a temporary entry must have been left
// unchanged before it is removed as a leftover.
const staleTempAge = time.Hour

// maxSweptDirs bounds the directories a toolset remembers having swept.
const maxSweptDirs = 1024

// maxRemovedPerRead bounds the stale entries one read of a directory
// removes, and holds in memory until it can; the next read takes the
// rest.
const maxRemovedPerRead = 1000

// isTempName reports whether name is one of the server's temporary
// names (atomicfile.IsTempName).
func isTempName(name string) bool { return atomicfile.IsTempName(name) }

// refuseTempName refuses rel as the name of a new entry if its last
// element is a temporary name, which the tools would hide and remove.
func refuseTempName(rel string) error {
	if !isTempName(path.Base(rel)) {
		return nil
	}
	return fail(msgTempName, lit(quote(path.Base(rel))))
}

// isStale reports whether the temporary entry e has been left unchanged
// for staleTempAge.
func (t *toolset) isStale(e fs.DirEntry) bool {
	info, err := e.Info() // the entry itself, never what a link points to
	return err == nil && t.now().Sub(info.ModTime()) >= staleTempAge
}

// removeTemp removes the stale temporary entry e, at p, as well as it
// can, after the directory holding it was read: removing entries while
// a directory is being read is not safe on every file system.
func (t *toolset) removeTemp(ctx context.Context, p string, e fs.DirEntry) {
	if !e.IsDir() {
		_ = t.sb.Fs().Remove(p)
		return
	}
	if t.removeTree(ctx, p) == nil {
		return
	}
	// A move's copy gets its directories' modes once they are full, so a
	// kill may leave one that cannot be written, whose entries then
	// cannot be removed: make each writable, top down, and try again.
	fsys := t.sb.Fs()
	if fsys.Chmod(p, 0o700) != nil {
		return
	}
	_ = t.walk(ctx, p, func(q, _ string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = fsys.Chmod(q, 0o700)
		}
		return nil
	})
	_ = t.removeTree(ctx, p)
}

// removeTemps removes every temporary entry of the directory dir, stale
// or not: delete_file's, for a directory it is to delete that holds
// nothing else. Other entries stay.
func (t *toolset) removeTemps(ctx context.Context, dir string) {
	f, err := t.sb.Fs().Open(dir)
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1) // nothing but temporary entries, as the walk found
	f.Close()
	for _, name := range names {
		if isTempName(name) {
			_ = t.removeTree(ctx, joinRel(dir, name))
		}
	}
}

// sweptDirs remembers when the tools last swept each directory for stale
// temporary entries before a write.
type sweptDirs struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// due reports whether dir is due for a sweep at now, and if so records
// it as swept.
func (s *sweptDirs) due(dir string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if at, ok := s.last[dir]; ok && now.Sub(at) < staleTempAge {
		return false
	}
	if s.last == nil || len(s.last) >= maxSweptDirs {
		s.last = make(map[string]time.Time)
	}
	s.last[dir] = now
	return true
}

// sweepBeforeWrite removes the stale temporary entries of the directory
// dir before a write puts a file in it, unless this toolset did so less
// than staleTempAge ago: one read of the directory, at most
// Limits.MaxWalkEntries entries long, an hour.
func (t *toolset) sweepBeforeWrite(ctx context.Context, dir string) {
	if !t.sweep || !t.swept.due(dir, t.now()) {
		return
	}
	n := 0
	_ = t.streamDir(ctx, dir, func(fs.DirEntry) error {
		if n++; n >= t.lim.MaxWalkEntries {
			return fs.SkipAll
		}
		return nil
	})
}
