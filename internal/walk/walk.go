package walk

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// The bounds of a walk. A walk holds, besides the one directory it reads
// at a time, only the subdirectories it has still to enter, and their
// paths: it enters at most MaxDepth levels, and keeps at most MaxPending
// directories waiting in all. Deeper directories, and directories found
// when that many wait already, are not entered: the walk function is
// told, with ErrTooDeep or ErrTooManyDirs.
const (
	MaxDepth   = 256
	MaxPending = 10_000
)

// The reasons a walk does not enter a directory, or stops.
var (
	ErrTooDeep     = errors.New("more than " + strconv.Itoa(MaxDepth) + " levels down")
	ErrTooManyDirs = errors.New("more than " + strconv.Itoa(MaxPending) + " directories were waiting to be searched")
	// ErrBudget tells the walk function, at the entry where the walk
	// stops, that it visited Walker.MaxEntries entries; the walk ends.
	ErrBudget = errors.New("the walk visited the most entries one walk visits")
)

// Func is called by Walk for each entry below the directory walked, with
// p its path (Walker.Join of its directory's and its name) and sub its
// path relative to the directory walked. If a directory below cannot be
// read, Func is called for it a second time with the error; returning nil
// then goes on without it. Returning fs.SkipDir for a directory skips what
// it holds; fs.SkipAll ends the walk without an error.
type Func func(p, sub string, d fs.DirEntry, err error) error

// ReadDirFunc calls fn for each entry of the directory dir, in any
// order, holding as few of them at a time as it can; an error of fn ends
// the read and is returned.
type ReadDirFunc func(ctx context.Context, dir string, fn func(fs.DirEntry) error) error

// Filter leaves entries out of a walk by rules each directory may add to
// (ignore files): S is what is in force in one directory.
type Filter[S any] interface {
	// Enter returns what is in force in the directory dir, given what is
	// in force in its parent, and a function the walk calls once it
	// leaves dir.
	Enter(ctx context.Context, parent S, dir string) (S, func())
	// Skip reports whether the walk leaves out the entry d at p, in a
	// directory where s is in force. A directory left out is not entered.
	Skip(s S, p string, d fs.DirEntry) bool
}

// Walker walks directory trees depth first, in memory bounded by
// MaxPending directories waiting and one directory read at a time.
type Walker[S any] struct {
	// ReadDir reads one directory.
	ReadDir ReadDirFunc
	// Join returns the path of the entry name in the directory dir; nil
	// joins with "/", "." being the top.
	Join func(dir, name string) string
	// MaxEntries is the most entries one walk visits, ignored ones
	// included; past it the walk function is told ErrBudget and the walk
	// ends. 0 is no bound.
	MaxEntries int
	// Filter, if set, leaves entries out.
	Filter Filter[S]
	// Prune, if set, is asked before each directory below start is
	// entered, with its path; true leaves it unread, as fs.SkipDir from
	// the walk function would have. A search that keeps the first results
	// in path order prunes what can only sort after them, once it knows.
	Prune func(dir string) bool
}

// Walk visits everything below the directory start, depth first. A
// directory's entries come in the order ReadDir gives them, not sorted,
// since its whole list is never held; its subdirectories are entered
// after it has been read, in name order. Walk checks ctx before each
// directory and each entry, so that a cancel stops it within one entry.
// top is what the filter has in force in start's parent.
func (w *Walker[S]) Walk(ctx context.Context, start string, top S, fn Func) error {
	r := &run[S]{w: w, ctx: ctx, fn: fn}
	err := r.dir(start, "", nil, 0, top)
	if err == fs.SkipAll || err == fs.SkipDir {
		return nil
	}
	return err
}

// run is one walk in progress.
type run[S any] struct {
	w       *Walker[S]
	ctx     context.Context
	fn      Func
	pending int // directories found and not yet entered
	visited int // entries seen, ignored ones included
}

// join is Walker.Join, or a plain join.
func (r *run[S]) join(dir, name string) string {
	if r.w.Join != nil {
		return r.w.Join(dir, name)
	}
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// dir walks the directory dir, which is sub below the walk's start, depth
// levels down, and has the entry d (nil for the start itself); parent is
// what the filter has in force in the directory that holds it.
func (r *run[S]) dir(dir, sub string, d fs.DirEntry, depth int, parent S) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	state := parent
	if r.w.Filter != nil {
		var leave func()
		state, leave = r.w.Filter.Enter(r.ctx, parent, dir)
		if leave != nil {
			defer leave()
		}
	}
	var subdirs []fs.DirEntry
	var stop error // what fn returned to end the walk
	err := r.w.ReadDir(r.ctx, dir, func(e fs.DirEntry) error {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		p, s := r.join(dir, e.Name()), joinSub(sub, e.Name())
		if r.visited++; r.w.MaxEntries > 0 && r.visited > r.w.MaxEntries {
			_ = r.fn(p, s, e, ErrBudget)
			stop = fs.SkipAll
			return stop
		}
		if r.w.Filter != nil && r.w.Filter.Skip(state, p, e) {
			return nil
		}
		if err := r.fn(p, s, e, nil); err != nil {
			if err == fs.SkipDir && e.IsDir() {
				return nil
			}
			stop = err
			return err
		}
		if !e.IsDir() {
			return nil
		}
		var why error
		switch {
		case depth+1 > MaxDepth:
			why = ErrTooDeep
		case r.pending >= MaxPending:
			why = ErrTooManyDirs
		default:
			subdirs = append(subdirs, e)
			r.pending++
			return nil
		}
		if err := r.fn(p, s, e, why); err != nil && err != fs.SkipDir {
			stop = err
			return err
		}
		return nil
	})
	if stop != nil || err != nil {
		r.pending -= len(subdirs) // found, but not entered
	}
	switch {
	case stop != nil:
		return stop
	case err != nil && (d == nil || r.ctx.Err() != nil):
		return err
	case err != nil:
		if err := r.fn(dir, sub, d, err); err != fs.SkipDir {
			return err
		}
		return nil
	}
	slices.SortFunc(subdirs, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for i, e := range subdirs {
		r.pending--
		subdirs[i] = nil
		p := r.join(dir, e.Name())
		if r.w.Prune != nil && r.w.Prune(p) {
			continue
		}
		if err := r.dir(p, joinSub(sub, e.Name()), e, depth+1, state); err != nil {
			r.pending -= len(subdirs) - i - 1
			return err
		}
	}
	return nil
}

// joinSub joins a name to a path relative to the walk's start.
func joinSub(sub, name string) string {
	if sub == "" {
		return name
	}
	return sub + "/" + name
}

// JoinSub joins a name to a path relative to a walk's start, as Walk
// gives sub.
func JoinSub(sub, name string) string { return joinSub(sub, name) }
