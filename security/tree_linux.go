//go:build linux

package security

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// WalkTree calls fn for everything below the directory name, depth first,
// each directory's entries in the order the directory gives them (not
// sorted), without following symbolic links. fn may return fs.SkipDir for
// a directory, to skip what it holds, or fs.SkipAll to end the walk
// without an error; any other error ends the walk and is returned.
//
// It walks by descriptor, never by full path, so the depth of the tree is
// not bounded by the path limit (PATH_MAX): each directory is opened
// relative to its parent's descriptor, with O_NOFOLLOW, and the walk goes
// back up through "..", checking that it comes back to the directory it
// left (by device and inode, as fts does), and fails otherwise. Whatever
// the depth, it holds at most three open descriptors (the parent of name,
// the directory it reads, and for a moment its child or parent), and
// memory in proportion to the depth: about 40 bytes a level and the path,
// with one 8 KiB buffer for reading directories. ctx is checked before
// each entry.
func (r *RootFs) WalkTree(ctx context.Context, name string, fn func(TreeEntry) error) error {
	parent, start, err := r.openTreeStart(name)
	if err != nil {
		return err
	}
	defer parent.Close()
	w := &treeWalker{ctx: ctx, fn: fn, path: []byte(rootName(name))}
	err = w.run(start)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// RemoveTree removes the directory name and everything below it, the way
// WalkTree walks: by descriptor, so that a tree deeper than the path limit
// is removed too, with at most three open descriptors. A symbolic link is
// removed itself, never followed, and so is name when it is not a
// directory. It stops at the first entry it cannot remove and returns the
// error, what it removed staying removed. The root itself is never
// removed. ctx is checked before each entry.
func (r *RootFs) RemoveTree(ctx context.Context, name string) error {
	name = rootName(name)
	parent, start, err := r.openTreeStart(name)
	if errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
		return r.root.Remove(name)
	}
	if err != nil {
		return err
	}
	defer parent.Close()
	w := &treeWalker{ctx: ctx, remove: true, path: []byte(name)}
	if err := w.run(start); err != nil {
		return err
	}
	if err := unix.Unlinkat(int(parent.Fd()), path.Base(name), unix.AT_REMOVEDIR); err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}

// openTreeStart opens the parent of name through the root, and name
// relative to it without following a link. The caller must close the
// parent; the walk closes the descriptor of name.
func (r *RootFs) openTreeStart(name string) (*os.File, int, error) {
	name = rootName(name)
	if name == "." || strings.HasSuffix(name, "/..") || name == ".." {
		// The root itself, which is never removed (Sandbox.Explain
		// says so for EINVAL on "."), or a name that is not clean.
		return nil, -1, &fs.PathError{Op: "walk", Path: name, Err: unix.EINVAL}
	}
	dir, base := path.Split(name)
	parent, err := r.root.OpenFile(rootName(dir), os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, -1, err
	}
	fd, err := unix.Openat(int(parent.Fd()), base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		parent.Close()
		return nil, -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return parent, fd, nil
}

// treeLevel is one directory on the way down from the start of a walk.
type treeLevel struct {
	dev, ino uint64
	off      int64 // where reading this directory goes on
	pathLen  int   // the length of the walker's path in this directory
	seen     bool  // remove: this pass met an entry
	progress bool  // remove: this pass removed an entry
}

// treeWalker walks (or removes) a tree by descriptor.
type treeWalker struct {
	ctx    context.Context
	fn     func(TreeEntry) error // walk only
	remove bool
	path   []byte // of the current directory, then of the entry
	buf    [8 << 10]byte
	stack  []treeLevel
}

// pathErr returns err for the entry name of the current directory.
func (w *treeWalker) pathErr(op, name string, err error) error {
	p := string(w.path)
	if name != "" {
		p += "/" + name
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// run walks the directory open as fd, and closes fd.
func (w *treeWalker) run(fd int) (err error) {
	cur := fd
	defer func() { unix.Close(cur) }()
	var st unix.Stat_t
	if err := unix.Fstat(cur, &st); err != nil {
		return w.pathErr("stat", "", err)
	}
	w.stack = append(w.stack[:0], treeLevel{dev: st.Dev, ino: st.Ino, pathLen: len(w.path)})
	for len(w.stack) > 0 {
		top := &w.stack[len(w.stack)-1]
		if _, err := unix.Seek(cur, top.off, 0); err != nil {
			return w.pathErr("seek", "", err)
		}
		n, err := unix.Getdents(cur, w.buf[:])
		if err != nil {
			return w.pathErr("readdirent", "", err)
		}
		if n == 0 {
			if w.remove && top.seen {
				// Removing entries may shift the positions of the
				// others on some file systems: read again from the
				// start until a pass meets nothing.
				if !top.progress {
					return w.pathErr("remove", "", unix.ENOTEMPTY)
				}
				top.off, top.seen, top.progress = 0, false, false
				continue
			}
			if cur, err = w.up(cur); err != nil {
				return err
			}
			continue
		}
		for pos := 0; pos < n; {
			rec := w.buf[pos:n]
			if len(rec) < 19 {
				break
			}
			reclen := int(binary.NativeEndian.Uint16(rec[16:18]))
			if reclen < 19 || reclen > len(rec) {
				break
			}
			pos += reclen
			top.off = int64(binary.NativeEndian.Uint64(rec[8:16]))
			name := rec[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if err := w.ctx.Err(); err != nil {
				return err
			}
			child, err := w.entry(cur, string(name), rec[18])
			if err != nil {
				return err
			}
			if child >= 0 {
				unix.Close(cur)
				cur = child
				break
			}
		}
	}
	return nil
}

// entry handles the entry name of the directory open as dir, of d_type
// typ. It returns the descriptor of the entry if it is a directory to
// walk into, having pushed it on the stack and added its name to the
// path, and -1 otherwise.
func (w *treeWalker) entry(dir int, name string, typ byte) (int, error) {
	top := &w.stack[len(w.stack)-1]
	mode := direntMode(typ)
	var st unix.Stat_t
	if typ == unix.DT_UNKNOWN || !w.remove && mode == 0 {
		if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if err == unix.ENOENT {
				return -1, nil // gone since the read
			}
			return -1, w.pathErr("lstat", name, err)
		}
		mode = statMode(st.Mode)
	}
	top.seen = true
	w.path = append(append(w.path, '/'), name...)
	fd, err := w.visit(dir, name, mode, st.Size)
	if fd < 0 {
		w.path = w.path[:top.pathLen]
	}
	return fd, err
}

// visit does entry's work once the entry's path is w.path.
func (w *treeWalker) visit(dir int, name string, mode fs.FileMode, size int64) (int, error) {
	top := &w.stack[len(w.stack)-1]
	if !mode.IsDir() {
		if !w.remove {
			e := TreeEntry{Type: mode, path: w.path}
			if mode.IsRegular() {
				e.Size = size
			}
			return -1, w.fn(e)
		}
		switch err := unix.Unlinkat(dir, name, 0); err {
		case nil, unix.ENOENT:
			top.progress = true
			return -1, nil
		case unix.EISDIR:
			// Swapped for a directory since the read: walk into it.
		default:
			return -1, &fs.PathError{Op: "remove", Path: string(w.path), Err: err}
		}
	} else if !w.remove {
		if err := w.fn(TreeEntry{Type: mode, path: w.path}); err != nil {
			if errors.Is(err, fs.SkipDir) {
				return -1, nil
			}
			return -1, err
		}
	}
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch {
	case err == unix.ENOENT:
		top.progress = true // gone since the read
		return -1, nil
	case err == unix.ENOTDIR || err == unix.ELOOP:
		// Swapped for a file or a link since the read: never followed.
		if w.remove {
			if err := unix.Unlinkat(dir, name, 0); err != nil && err != unix.ENOENT {
				return -1, &fs.PathError{Op: "remove", Path: string(w.path), Err: err}
			}
			top.progress = true
		}
		return -1, nil
	case err != nil:
		return -1, &fs.PathError{Op: "open", Path: string(w.path), Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &fs.PathError{Op: "stat", Path: string(w.path), Err: err}
	}
	w.stack = append(w.stack, treeLevel{dev: st.Dev, ino: st.Ino, pathLen: len(w.path)})
	return fd, nil
}

// up leaves the directory open as cur, the top of the stack, for its
// parent, which it checks is the directory the walk came down from, and
// in a removal removes the directory left. It returns the descriptor to
// go on with: the parent's, having closed cur, or cur itself when the
// walk is done or fails before it reaches the parent.
func (w *treeWalker) up(cur int) (int, error) {
	w.stack = w.stack[:len(w.stack)-1]
	if len(w.stack) == 0 {
		return cur, nil
	}
	top := &w.stack[len(w.stack)-1]
	name := string(w.path[top.pathLen+1:])
	parent, err := unix.Openat(cur, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return cur, &fs.PathError{Op: "open", Path: string(w.path) + "/..", Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(parent, &st); err != nil || st.Dev != top.dev || st.Ino != top.ino {
		unix.Close(parent)
		return cur, &fs.PathError{Op: "walk", Path: string(w.path), Err: errTreeMoved}
	}
	unix.Close(cur)
	w.path = w.path[:top.pathLen]
	if w.remove {
		switch err := unix.Unlinkat(parent, name, unix.AT_REMOVEDIR); err {
		case nil, unix.ENOENT:
			top.progress = true
		default:
			return parent, w.pathErr("remove", name, err)
		}
	}
	return parent, nil
}

// statMode turns a stat mode into file type bits.
func statMode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
