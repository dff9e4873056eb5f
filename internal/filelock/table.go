package filelock

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Key names a file by the identity of the folder holding it and its name
// there. A key with Ino 0 has no identity the system shares (a file
// system in memory, or a system without inodes): its lock holds within
// the process only.
type Key struct {
	Dev, Ino uint64 // the folder's device and inode
	Name     string // the file's name in the folder
}

// Margin is the most time a wait for a lock leaves before its context's
// deadline (a tenth of what remains, when that is less), so that the
// caller can still say why it gave up before its deadline answers for it.
const Margin = time.Second

// giveUpAt is when a wait for a lock gives up, given the deadline of its
// caller and the time now: Margin before the deadline, or a tenth of the
// time left before it when that is less.
func giveUpAt(deadline, now time.Time) time.Time {
	return deadline.Add(-min(Margin, deadline.Sub(now)/10))
}

// BusyError is the error of a wait that ran until Margin before its
// context's deadline: another holder kept a lock all that time.
type BusyError struct {
	Index int // the key waited for, as an index into the keys given to Lock
}

// Error says which key was held. A BusyError is not a
// context.DeadlineExceeded: the wait gave up before the deadline, so that
// the caller can still say that another holder kept the lock, where a
// deadline would be taken for the caller's own time running out.
func (e *BusyError) Error() string {
	return fmt.Sprintf("filelock: key %d is held by another holder", e.Index)
}

// Table is the locks of a process. The zero value is not usable; use
// Open. A Table is safe for concurrent use.
type Table struct {
	mu   sync.Mutex
	held map[Key]*queue // the keys held in this process, with their waiters
	file *lockFile      // the locks shared with other processes; nil: none

	// offset places a key's lock in the lock file; tests replace it to
	// make two keys collide.
	offset func(Key) int64
}

// queue is the waiters for one held key, first come first served: the
// holder hands the key to the head when it lets go.
type queue struct {
	waiters []chan struct{}
}

// Open returns a table whose locks hold within this process and, when dir
// is not empty, for every process that opens a table on the same dir (see
// the package doc for what dir must be). Where the system offers no lock
// that does so, Open of a dir returns an error that wraps
// errors.ErrUnsupported.
func Open(dir string) (*Table, error) {
	t := &Table{held: make(map[Key]*queue), offset: offsetOf}
	if dir != "" {
		f, err := openFile(dir)
		if err != nil {
			return nil, err
		}
		t.file = f
	}
	return t, nil
}

// Lock takes the locks of keys and returns the function that lets them go
// (once; later calls do nothing). Repeated keys are taken once. A lock
// that is free is taken whatever ctx says; Lock waits for one that is
// held only while ctx lives, and no longer than Margin before its
// deadline: it then returns a *BusyError naming the key it waited for. A
// wait cut short by cancellation returns ctx's error. Nothing is held
// when Lock returns an error.
//
// Why no callers ever wait for each other in a circle: every caller takes
// first the locks of this process, in the order of their keys, and then
// the locks in the lock file, in the order of their offsets, and waits
// only for a lock that comes after every lock it holds in that one order.
// A circle of waits would need some caller to wait for a lock that comes
// before one it holds. This holds across processes too, since the order
// of offsets is the same in each and a process's own locks are all taken
// before any in the file. An abandoned wait in the file (see wait) holds
// only the locks of this process for its offset, which come first, and
// so keeps the order.
func (t *Table) Lock(ctx context.Context, keys []Key) (func(), error) {
	wait := ctx
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(ctx, giveUpAt(deadline, time.Now()))
		defer cancel()
	}
	order := sortedKeys(keys)
	for n, i := range order {
		if err := t.take(wait, keys[i]); err != nil {
			t.giveAll(keys, order[:n])
			return nil, waitError(ctx, i)
		}
	}
	if t.file == nil {
		return t.releaser(nil, keys, order), nil
	}
	spans := t.spans(keys, order)
	h, at, err := t.file.lock(wait, spans, func(s span) { t.giveAll(keys, s.keys) })
	if err != nil {
		// The keys of the span abandoned are given back when its wait
		// ends (lockFile.wait); the others now.
		var rest []int
		for _, i := range order {
			if at < 0 || !slices.Contains(spans[at].keys, i) {
				rest = append(rest, i)
			}
		}
		t.giveAll(keys, rest)
		if at < 0 {
			return nil, err // the lock file failed
		}
		return nil, waitError(ctx, spans[at].keys[0])
	}
	return t.releaser(h, keys, order), nil
}

// waitError is the error of a wait for keys[i] that ended with ctx's or
// the margin's: cancellation returns ctx's error, and a deadline a
// *BusyError.
func waitError(ctx context.Context, i int) error {
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &BusyError{Index: i}
}

// releaser returns the function that lets go of the locks Lock took: the
// lock file's first, so that a waiter this process hands a key to does
// not find its offset still held.
func (t *Table) releaser(h *held, keys []Key, order []int) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			h.release()
			t.giveAll(keys, order)
		})
	}
}

// sortedKeys returns the indexes of keys in the order of the keys, each
// key once.
func sortedKeys(keys []Key) []int {
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	byKey := func(a, b int) int {
		ka, kb := keys[a], keys[b]
		return cmp.Or(cmp.Compare(ka.Dev, kb.Dev), cmp.Compare(ka.Ino, kb.Ino), cmp.Compare(ka.Name, kb.Name))
	}
	slices.SortFunc(order, byKey)
	return slices.CompactFunc(order, func(a, b int) bool { return keys[a] == keys[b] })
}

// take takes the lock of k in this process, waiting in line while
// another caller holds it.
func (t *Table) take(ctx context.Context, k Key) error {
	t.mu.Lock()
	q, ok := t.held[k]
	if !ok {
		t.held[k] = &queue{}
		t.mu.Unlock()
		return nil
	}
	turn := make(chan struct{})
	q.waiters = append(q.waiters, turn)
	t.mu.Unlock()
	select {
	case <-turn:
		return nil
	case <-ctx.Done():
	}
	t.mu.Lock()
	if i := slices.Index(q.waiters, turn); i >= 0 {
		q.waiters = slices.Delete(q.waiters, i, i+1)
		t.mu.Unlock()
		return ctx.Err()
	}
	t.mu.Unlock()
	// The holder handed the key over as ctx ended: pass it on.
	t.give(k)
	return ctx.Err()
}

// give lets go of the lock of k in this process: the first waiter takes
// it, or, with none, the key is forgotten.
func (t *Table) give(k Key) {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := t.held[k]
	if len(q.waiters) == 0 {
		delete(t.held, k)
		return
	}
	close(q.waiters[0])
	q.waiters = slices.Delete(q.waiters, 0, 1)
}

// giveAll gives the keys at the indexes idx.
func (t *Table) giveAll(keys []Key, idx []int) {
	for _, i := range idx {
		t.give(keys[i])
	}
}

// span is one byte of the lock file and the keys (indexes) locked there.
type span struct {
	off  int64
	keys []int
}

// spans returns the bytes of the lock file that lock the keys at the
// indexes order, in increasing order, each once: two keys at one offset
// (a collision of offsetOf) share its byte. Keys without an identity have
// none.
func (t *Table) spans(keys []Key, order []int) []span {
	var spans []span
	for _, i := range order {
		if keys[i].Ino == 0 {
			continue
		}
		off := t.offset(keys[i])
		at, found := slices.BinarySearchFunc(spans, off, func(s span, off int64) int { return cmp.Compare(s.off, off) })
		if found {
			spans[at].keys = append(spans[at].keys, i)
			continue
		}
		spans = slices.Insert(spans, at, span{off: off, keys: []int{i}})
	}
	return spans
}
