package security

import (
	"cmp"
	"context"
	"errors"
	"path"
	"slices"
	"time"

	"github.com/stdiotools/toolserver/internal/filelock"
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
	t *filelock.Table
}

// NewLocks returns the locks of a process. With dir empty they hold
// within the process. Otherwise they also hold for every process whose
// locks use the same dir, on Linux, where each is an open-file-description
// lock on one byte of a lock file in dir, which the kernel drops when the
// process ends, however it ends: processes that change the same files
// must share dir (a folder on the shared volume, across machines). dir is
// made (0700) if it is missing; it must belong to the user and be closed
// to the group and others, and it should lie outside every root, so that
// nothing of it shows to the tools. Elsewhere than Linux, NewLocks of a
// dir returns an error that wraps errors.ErrUnsupported.
func NewLocks(dir string) (*Locks, error) {
	t, err := filelock.Open(dir)
	if err != nil {
		return nil, err
	}
	return &Locks{t: t}, nil
}

// TryLockWrite takes the write locks of the files rels name, as
// LockWrite does, if every one of them is free now, and returns the
// function that releases them; ok is false, and nothing is held, when
// another change of one of them is under way. A caller that holds a
// place other writers may need (a slot among the calls running) tries
// first, and gives the place back before it waits with LockWrite.
func (s *Sandbox) TryLockWrite(rels ...string) (release func(), ok bool, err error) {
	now, cancel := context.WithCancel(context.Background())
	cancel() // a free lock is taken whatever the context says; a held one is not waited for
	release, err = s.LockWrite(now, rels...)
	if errors.Is(err, context.Canceled) {
		return nil, false, nil
	}
	return release, err == nil, err
}

// LockWrite takes the write locks of the files rels name (Resolve
// results; several for a move) and returns the function that releases
// them. It waits while another change of one of them is under way, in
// this process or, where the locks are shared with other processes (see
// Locks), in theirs. The wait ends before ctx's deadline, with a little
// time left (a tenth of what remains, at most a second), so that the
// caller can still answer: with a *PathError of reason Locked, which
// names the file and says that another writer holds it. A wait cut
// short by cancellation returns ctx's error. A lock directory that cannot
// be used (see NewLocks) gives a *PathError of reason Other, which says
// so; nothing is held then.
//
// The caller must check again, once it holds the locks, whatever it
// decided before about the files, and must release them on every path.
func (s *Sandbox) LockWrite(ctx context.Context, rels ...string) (func(), error) {
	began := time.Now()
	for {
		keys, names := s.lockKeys(rels)
		release, err := s.locks.t.Lock(ctx, keys)
		if busy, ok := errors.AsType[*filelock.BusyError](err); ok {
			waited := time.Since(began).Round(time.Millisecond)
			return nil, &PathError{Op: "write", Path: names[busy.Index], Reason: Locked, Err: err, lang: s.lang, msg: msgLocked, a1: waited.String()}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &PathError{Op: "write", Path: names[0], Reason: Other, Err: err, lang: s.lang, msg: msgLockFailed}
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
func (s *Sandbox) lockKeys(rels []string) ([]filelock.Key, []string) {
	type keyed struct {
		key filelock.Key
		rel string
	}
	ks := make([]keyed, 0, len(rels))
	for _, rel := range rels {
		ks = append(ks, keyed{s.lockKey(rel), rel})
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.key.Dev, b.key.Dev), cmp.Compare(a.key.Ino, b.key.Ino), cmp.Compare(a.key.Name, b.key.Name))
	})
	ks = slices.CompactFunc(ks, func(a, b keyed) bool { return a.key == b.key })
	keys, names := make([]filelock.Key, len(ks)), make([]string, len(ks))
	for i, k := range ks {
		keys[i], names[i] = k.key, k.rel
	}
	return keys, names
}

// lockKey returns the key of the lock of rel: its folder's identity and
// its name, or where the folder has no identity (a file system in
// memory, or one that is gone), the path's key.
func (s *Sandbox) lockKey(rel string) filelock.Key {
	r, inner := s.split(rel)
	if r != nil && inner != "." {
		if fi, err := r.fs.Stat(path.Dir(inner)); err == nil {
			if dev, ino, ok := folderID(fi); ok {
				return filelock.Key{Dev: dev, Ino: ino, Name: path.Base(inner)}
			}
		}
	}
	return filelock.Key{Name: s.Key(rel)}
}
