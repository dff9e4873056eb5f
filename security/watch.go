package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"github.com/stdiotools/toolserver/internal/watch"
)

// CanWatch reports whether Watch can work here at all: the operating
// system reports changes to files (Linux's inotify). A root on a file
// system whose changes are not reported is refused by Watch itself.
func CanWatch() bool { return watch.Supported }

// Watch calls changed whenever the file or folder rel (a Resolve result)
// may have changed, a folder's entries included, until stop is called.
// A sandbox has one watcher, which holds one of the system's notification
// instances while anything is watched (toolserver makes one sandbox a
// process, however many roots it has), and one watch a folder: a file is
// watched through its folder, opened inside the root as every name is, so
// that a symbolic link swapped in cannot point the watch outside it, and
// nothing outside the roots is ever reported. changed runs on the
// watcher's goroutine and must return quickly.
//
// A path that names nothing is an error that Explain has made a sentence
// of, as the reads' are; so is a root on a file system whose changes the
// system does not report (NFS, SMB, FUSE, …), or a system that reports
// none.
func (s *Sandbox) Watch(rel string, changed func()) (stop func(), err error) {
	var stops []func()
	stopAll := func() {
		for _, stop := range stops {
			stop()
		}
	}
	// A symbolic link to a file is watched as its entry (pointed
	// elsewhere) and as the file it names, followed inside its root.
	for hops := 0; ; hops++ {
		target, isLink, err := s.linkTarget(rel)
		if err != nil || !isLink {
			break
		}
		if hops == maxLinkHops || target == "" {
			stopAll()
			return nil, s.Explain("read", rel, fs.ErrNotExist)
		}
		stop, err := s.watchOne(rel, false, changed)
		if err != nil {
			stopAll()
			return nil, err
		}
		stops = append(stops, stop)
		rel = target
	}
	stop, err = s.watchOne(rel, true, changed)
	if err != nil {
		stopAll()
		return nil, err
	}
	stops = append(stops, stop)
	if len(stops) == 1 {
		return stop, nil
	}
	return stopAll, nil
}

// maxLinkHops bounds the symbolic links Watch follows from one path.
const maxLinkHops = 8

// linkTarget reports whether rel is a symbolic link to a file and, if it
// is, the path it names in Resolve's form, in the same root: "" for a
// target that is absolute or climbs out of its root, which the roots'
// file systems refuse to follow too.
func (s *Sandbox) linkTarget(rel string) (target string, isLink bool, err error) {
	ls, ok := s.fs.(afero.Lstater)
	if !ok {
		return "", false, nil
	}
	fi, lstat, err := ls.LstatIfPossible(rel)
	if err != nil || !lstat || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false, err
	}
	if st, err := s.fs.Stat(rel); err != nil || st.IsDir() {
		return "", false, err // a link to a folder is watched through the folder it opens
	}
	lr, ok := s.fs.(afero.LinkReader)
	if !ok {
		return "", false, nil
	}
	to, err := lr.ReadlinkIfPossible(rel)
	if err != nil {
		return "", false, err
	}
	root, inner := s.SplitRoot(rel)
	if path.IsAbs(to) {
		return "", true, nil
	}
	t := path.Clean(path.Join(path.Dir(inner), to))
	if t == ".." || strings.HasPrefix(t, "../") {
		return "", true, nil
	}
	return s.JoinRoot(root, t), true, nil
}

// watchOne watches rel through its folder: a folder itself, or the entry
// rel names in its folder, followed (a file) or not (a link's own
// entry).
func (s *Sandbox) watchOne(rel string, follow bool, changed func()) (stop func(), err error) {
	dir, name := rel, ""
	if follow {
		fi, err := s.fs.Stat(rel)
		if err != nil {
			return nil, s.Explain("read", rel, err)
		}
		if !fi.IsDir() {
			dir, name = s.parent(rel), path.Base(s.inner(rel))
		}
	} else {
		dir, name = s.parent(rel), path.Base(s.inner(rel))
	}
	op, ok := s.fs.(folderOpener)
	if !ok {
		return nil, s.watchRefused(rel, errors.ErrUnsupported)
	}
	f, err := op.openFolder(dir)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return nil, s.watchRefused(rel, err)
	case err != nil:
		return nil, s.Explain("read", dir, err)
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, s.Explain("read", dir, err)
	}
	// A parent of the folder moved out of the root takes the folder with
	// it, and says nothing of it: each change is told only while the
	// folder still opens at its path inside the root.
	still := func() bool {
		g, err := op.openFolder(dir)
		if err != nil {
			return false
		}
		defer g.Close()
		now, err := g.Stat()
		return err == nil && os.SameFile(opened, now)
	}
	stop, err = s.watcher.Watch(f, name, changed, still)
	if err != nil {
		return nil, s.watchRefused(rel, err)
	}
	return stop, nil
}

// parent returns the folder that holds rel, in the form Resolve gives.
func (s *Sandbox) parent(rel string) string {
	r, inner := s.split(rel)
	dir := path.Dir(inner)
	if r == nil || len(s.roots) == 1 {
		return dir
	}
	if dir == "." {
		return r.prefix
	}
	return r.prefix + "/" + dir
}

// inner returns rel's path inside its root.
func (s *Sandbox) inner(rel string) string {
	_, inner := s.split(rel)
	return inner
}

// watchRefused is the error of a path whose changes cannot be watched.
func (s *Sandbox) watchRefused(rel string, err error) error {
	var uw *watch.UnwatchableError
	switch {
	case errors.As(err, &uw):
		return &PathError{Op: "watch", Path: rel, Reason: Unwatchable, lang: s.lang, msg: msgUnwatchable, a1: uw.FS}
	case !watch.Supported:
		return &PathError{Op: "watch", Path: rel, Reason: Unwatchable, lang: s.lang, msg: msgNoWatching}
	case errors.Is(err, errors.ErrUnsupported):
		return &PathError{Op: "watch", Path: rel, Reason: Unwatchable, lang: s.lang, msg: msgUnwatchableFs}
	}
	return &PathError{Op: "watch", Path: rel, Reason: Unwatchable, lang: s.lang, msg: msgWatchFailed, a1: err.Error()}
}

// folderOpener is a file system that opens a folder for watching; the
// roots' file systems (RootFs) are, and their wrappers pass it on.
type folderOpener interface {
	openFolder(dir string) (*os.File, error)
}

// openFolder opens the folder dir inside the root, for watching.
func (r *RootFs) openFolder(dir string) (*os.File, error) {
	f, err := r.root.OpenFile(rootName(dir), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.IsDir() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: rootName(dir), Err: syscall.ENOTDIR}
	}
	return f, nil
}

// openFolder opens the folder dir where the file system below can:
// watching changes nothing, so a read-only root is watched as it is read.
func (g *gateFs) openFolder(dir string) (*os.File, error) {
	if op, ok := g.Fs.(folderOpener); ok {
		return op.openFolder(dir)
	}
	return nil, errors.ErrUnsupported
}

// openFolder opens the folder dir in its root, where the root's file
// system can.
func (m *muxFs) openFolder(dir string) (*os.File, error) {
	r, f, inner, err := m.route("open", dir)
	if err != nil {
		return nil, err
	}
	op, ok := f.(folderOpener)
	if !ok {
		return nil, errors.ErrUnsupported
	}
	d, err := op.openFolder(inner)
	return d, r.qualifyErr(err)
}

// openFolder opens the folder dir where the file system below can; it
// creates no name, so the rule for new names has nothing to check.
func (g *guardFs) openFolder(dir string) (*os.File, error) {
	if op, ok := g.Fs.(folderOpener); ok {
		return op.openFolder(dir)
	}
	return nil, errors.ErrUnsupported
}
