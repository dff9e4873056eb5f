package watch

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// Watcher watches folders, and files through their folders. Its zero
// value is ready to use; it is safe for concurrent use.
type Watcher struct {
	mu      sync.Mutex
	sys     *system              // nil while nothing is watched
	folders map[folderID]*folder // by identity
	byPath  map[string]*folder   // by the path the system knows each by
}

// folderID is a folder's identity: its device and inode.
type folderID struct{ dev, ino uint64 }

// folder is a folder being watched and its watchers.
type folder struct {
	id   folderID
	f    *os.File                     // held open while watched: its descriptor names the folder
	path string                       // /proc/self/fd/N, the path the system reports it by
	subs map[string]map[*sub]struct{} // by the name of the entry; "" the folder itself
	n    int                          // watchers of it, gone or not
	gone bool                         // deleted or moved away: no longer watched
	// still reports whether the folder is still where it was opened
	// from; nil when that cannot change.
	still func() bool
}

// sub is one watcher of one entry.
type sub struct{ fn func() }

// UnwatchableError says that a folder lies on a file system whose changes
// the system does not report.
type UnwatchableError struct {
	FS string // the kind of file system, such as "NFS"
}

// Error says what cannot be watched and why.
func (e *UnwatchableError) Error() string {
	return fmt.Sprintf("changes on this file system (%s) are not reported by the operating system", e.FS)
}

// Watch calls fn whenever the entry name of the folder dir may have
// changed, or, with name "", whenever any entry of dir may have (the
// folder's listing), until stop is called. It takes dir over: dir is
// closed by stop, or at once when Watch fails or the folder is watched
// already. fn runs on the Watcher's own goroutine and must return
// quickly (mark something and wake whoever acts on it).
//
// still, if not nil, reports whether dir is still where it was opened
// from (inside a root, say): a folder moved elsewhere by a move of one
// of its parents reports no event of its own, so each change is told
// only after still says so, and once it does not, every watcher of the
// folder is told once and the folder forgotten, as one moved away.
func (w *Watcher) Watch(dir *os.File, name string, fn func(), still func() bool) (stop func(), err error) {
	id, err := identify(dir)
	if err != nil {
		dir.Close()
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	fo := w.folders[id]
	if fo == nil {
		if w.sys == nil {
			sys, err := startSystem(w.dispatch, w.everything)
			if err != nil {
				dir.Close()
				return nil, err
			}
			w.sys = sys
			w.folders = make(map[folderID]*folder)
			w.byPath = make(map[string]*folder)
		}
		p, err := w.sys.add(dir)
		if err != nil {
			dir.Close()
			w.closeIfIdle()
			return nil, err
		}
		fo = &folder{id: id, f: dir, path: p, subs: make(map[string]map[*sub]struct{}), still: still}
		w.folders[id], w.byPath[p] = fo, fo
	} else {
		dir.Close()
	}
	s := &sub{fn: fn}
	if fo.subs[name] == nil {
		fo.subs[name] = make(map[*sub]struct{})
	}
	fo.subs[name][s] = struct{}{}
	fo.n++
	var once sync.Once
	return func() { once.Do(func() { w.unwatch(fo, name, s) }) }, nil
}

// unwatch ends one watcher's watch, and the folder's once it has none.
func (w *Watcher) unwatch(fo *folder, name string, s *sub) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(fo.subs[name], s)
	if len(fo.subs[name]) == 0 {
		delete(fo.subs, name)
	}
	if fo.n--; fo.n > 0 {
		return
	}
	if !fo.gone {
		w.forget(fo)
	}
	fo.f.Close()
	w.closeIfIdle()
}

// forget stops watching fo. w.mu is held.
func (w *Watcher) forget(fo *folder) {
	fo.gone = true
	delete(w.folders, fo.id)
	delete(w.byPath, fo.path)
	w.sys.remove(fo.path)
}

// closeIfIdle gives the notification instance back once nothing is
// watched. w.mu is held.
func (w *Watcher) closeIfIdle() {
	if w.sys != nil && len(w.folders) == 0 {
		w.sys.close()
		w.sys = nil
	}
}

// Watching reports how many folders are watched, for tests and metrics.
func (w *Watcher) Watching() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.folders)
}

// dispatch tells the watchers of what the system reported a change to:
// the entry p of a watched folder, or the folder itself: deleted or moved
// away (gone), after which it is no longer watched, or its attributes
// changed, which its listing's watchers are told. A folder that is no
// longer where it was opened from is told and forgotten as one gone.
func (w *Watcher) dispatch(p string, gone bool) {
	var fns []func()
	w.mu.Lock()
	fo := w.byPath[p]
	switch {
	case fo != nil && gone:
		fns = fo.all(fns)
		w.forget(fo)
		fo = nil
	case fo != nil:
		fns = fo.of("", fns)
	default:
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			if fo = w.byPath[p[:i]]; fo != nil {
				fns = fo.of(p[i+1:], fns)
				fns = fo.of("", fns)
			}
		}
	}
	w.mu.Unlock()
	if fo != nil && fo.still != nil && !fo.still() {
		w.mu.Lock()
		fns = fo.all(fns[:0])
		if !fo.gone {
			w.forget(fo)
		}
		w.mu.Unlock()
	}
	for _, fn := range fns {
		fn()
	}
}

// everything tells every watcher: the system lost events, so anything
// may have changed.
func (w *Watcher) everything() {
	var fns []func()
	w.mu.Lock()
	for _, fo := range w.folders {
		fns = fo.all(fns)
	}
	w.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// of appends the functions of the watchers of name to fns.
func (fo *folder) of(name string, fns []func()) []func() {
	for s := range fo.subs[name] {
		fns = append(fns, s.fn)
	}
	return fns
}

// all appends the functions of every watcher of fo to fns.
func (fo *folder) all(fns []func()) []func() {
	for _, subs := range fo.subs {
		for s := range subs {
			fns = append(fns, s.fn)
		}
	}
	return fns
}
