package security

import (
	"cmp"
	"context"
	"path"
	"slices"
	"sync"
	"time"
)

// Locks serializes the changes to one file: a tool that changes a file
// holds its lock from the read it decides on to the rename that puts the
// new file in place, so that two changes never interleave and none is
// lost. A file is known by the identity of the folder holding it and its
// name there, not by how a path spells it, and not by its own identity,
// which every atomic write replaces.
//
// One Locks serves a whole process: give the same one to every sandbox
// (SandboxOptions.Locks). The zero value is not usable; use NewLocks.
type Locks struct {
	mu   sync.Mutex
	keys map[lockKey]*keyLock
}

// lockKey is what a lock is taken on.
type lockKey struct {
	dev, ino uint64 // the folder's identity; zero where the file system gives none
	name     string // the file's name in the folder, or its whole key when the folder has no identity
}

// keyLock is the lock of one key: a token that a holder takes and gives
// back, and how many holders and waiters refer to it, so that it is
// forgotten when none does.
type keyLock struct {
	token chan struct{}
	refs  int
}

// NewLocks returns the locks of a process.
func NewLocks() *Locks {
	return &Locks{keys: make(map[lockKey]*keyLock)}
}

// acquire takes the lock of each key, in one order for every caller so
// that two callers naming the same keys never wait for each other in a
// circle. It returns the function that releases them all, or the key it
// was waiting for when ctx ended.
func (l *Locks) acquire(ctx context.Context, keys []lockKey) (func(), int, error) {
	held := make([]*keyLock, 0, len(keys))
	release := func() {
		for _, k := range held {
			k.token <- struct{}{}
		}
		l.forget(keys[:len(held)])
	}
	for i, k := range keys {
		kl := l.ref(k)
		select {
		case <-kl.token:
			held = append(held, kl)
		case <-ctx.Done():
			l.forget(keys[i : i+1])
			release()
			return nil, i, ctx.Err()
		}
	}
	return release, -1, nil
}

// ref returns the lock of k, counting one more reference to it.
func (l *Locks) ref(k lockKey) *keyLock {
	l.mu.Lock()
	defer l.mu.Unlock()
	kl := l.keys[k]
	if kl == nil {
		kl = &keyLock{token: make(chan struct{}, 1)}
		kl.token <- struct{}{}
		l.keys[k] = kl
	}
	kl.refs++
	return kl
}

// forget drops one reference to the lock of each key, and the lock when
// it was the last.
func (l *Locks) forget(keys []lockKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		if kl := l.keys[k]; kl != nil {
			if kl.refs--; kl.refs == 0 {
				delete(l.keys, k)
			}
		}
	}
}

// lockMargin is how much of a call's time a wait for a lock leaves, at
// most, so that the call can still say why it gave up before its
// deadline answers for it.
const lockMargin = time.Second

// LockWrite takes the write locks of the files rels name (Resolve
// results; several for a move) and returns the function that releases
// them. It waits while another change of one of them is under way, in
// this process or, where the locks are shared with other processes (see
// Locks), in theirs. The wait ends before ctx's deadline, with a little
// time left (a tenth of what remains, at most a second), so that the
// caller can still answer: with a *PathError of reason Locked, which
// names the file and says that another writer holds it. A wait cut
// short by cancellation returns ctx's error.
//
// The caller must check again, once it holds the locks, whatever it
// decided before about the files, and must release them on every path.
func (s *Sandbox) LockWrite(ctx context.Context, rels ...string) (func(), error) {
	began := time.Now()
	wait := ctx
	if deadline, ok := ctx.Deadline(); ok {
		margin := min(lockMargin, time.Until(deadline)/10)
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(ctx, deadline.Add(-margin))
		defer cancel()
	}
	for {
		keys, names := s.lockKeys(rels)
		release, at, err := s.locks.acquire(wait, keys)
		if err != nil {
			if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
				return nil, ctx.Err()
			}
			waited := time.Since(began).Round(time.Millisecond)
			return nil, &PathError{Op: "write", Path: names[at], Reason: Locked, Err: err, lang: s.lang, msg: msgLocked, a1: waited.String()}
		}
		// A folder renamed or replaced while the lock was awaited holds
		// the file under another identity now: take that one's lock.
		if again, _ := s.lockKeys(rels); slices.Equal(again, keys) {
			return release, nil
		}
		release()
	}
}

// lockKeys returns the keys of the locks of rels, sorted and without
// repeats, and for each the path it came from.
func (s *Sandbox) lockKeys(rels []string) ([]lockKey, []string) {
	type keyed struct {
		key lockKey
		rel string
	}
	ks := make([]keyed, 0, len(rels))
	for _, rel := range rels {
		ks = append(ks, keyed{s.lockKey(rel), rel})
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.key.dev, b.key.dev), cmp.Compare(a.key.ino, b.key.ino), cmp.Compare(a.key.name, b.key.name))
	})
	ks = slices.CompactFunc(ks, func(a, b keyed) bool { return a.key == b.key })
	keys, names := make([]lockKey, len(ks)), make([]string, len(ks))
	for i, k := range ks {
		keys[i], names[i] = k.key, k.rel
	}
	return keys, names
}

// lockKey returns the key of the lock of rel: its folder's identity and
// its name, or where the folder has no identity (a file system in
// memory, or one that is gone), the path's key.
func (s *Sandbox) lockKey(rel string) lockKey {
	r, inner := s.split(rel)
	if r != nil && inner != "." {
		if fi, err := r.fs.Stat(path.Dir(inner)); err == nil {
			if dev, ino, ok := folderID(fi); ok {
				return lockKey{dev: dev, ino: ino, name: path.Base(inner)}
			}
		}
	}
	return lockKey{name: s.Key(rel)}
}
