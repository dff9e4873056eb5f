//go:build unix

package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// protection guards, by the identity of directories rather than by
// path, the read-only roots nested in a writable root, so that a symbolic
// link inside the writable root that leads into one of them does not get
// round the check of paths: a change is refused when any directory from
// the one it happens in up to the writable root is a nested read-only
// root, and a removal or move when the directory removed or moved holds
// one.
type protection struct {
	root    *os.Root // the writable root's
	rootID  fileID
	guarded map[fileID]*sbRoot // the nested read-only roots
	holders map[fileID]*sbRoot // directories between the root and one
	nested  []nestedRoot       // the same, by path
}

// checkNested accepts read-only roots nested in writable ones: here the
// identity check guards them.
func (s *Sandbox) checkNested() error { return nil }

// fileID names a file by device and inode.
type fileID struct{ dev, ino uint64 }

// maxProtectDepth bounds the directories protection climbs, and the
// symbolic links it follows, so that no tree makes it loop.
const (
	maxProtectDepth = 4096
	maxProtectLinks = 40
)

// newProtection returns the protection of the nested roots of r, or nil
// when r has none or its file system is not a *RootFs.
func newProtection(r *sbRoot) *protection {
	rfs, ok := r.fs.(*RootFs)
	if !ok || len(r.nested) == 0 {
		return nil
	}
	id, err := statID(r.hostKey)
	if err != nil {
		return nil
	}
	p := &protection{root: rfs.root, rootID: id, guarded: map[fileID]*sbRoot{}, holders: map[fileID]*sbRoot{}, nested: r.nested}
	for _, n := range r.nested {
		host := filepath.FromSlash(n.root.hostKey)
		if id, err := statID(host); err == nil {
			p.guarded[id] = n.root
		}
		for dir := filepath.Dir(host); len(dir) > len(r.hostKey); dir = filepath.Dir(dir) {
			if id, err := statID(dir); err == nil {
				p.holders[id] = n.root
			}
		}
	}
	return p
}

// statID returns the identity of the host path name.
func statID(name string) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Stat(name, &st); err != nil {
		return fileID{}, err
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, nil
}

// idOf returns the identity a FileInfo describes.
func idOf(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// refusal returns the cause that forbids changing inner, a clean path in
// the root, or nil. A path whose directories cannot be opened is let
// through: the change itself then fails.
func (p *protection) refusal(inner string, whole bool) *readOnlyError {
	for range maxProtectLinks {
		if whole && inner != "." {
			if fi, err := p.root.Lstat(inner); err == nil && fi.IsDir() {
				if id, ok := idOf(fi); ok {
					if r := p.guarded[id]; r != nil {
						return &readOnlyError{root: r}
					}
					if r := p.holders[id]; r != nil {
						return &readOnlyError{root: r, holds: true}
					}
				}
			}
		}
		if e := p.climb(path.Dir(inner)); e != nil {
			return e
		}
		// A change through a symbolic link, the last element or one on
		// the way (even one whose target does not exist yet, which
		// MkdirAll or a create would make), happens where the link
		// leads: follow the first link, and check there too. A removal
		// or a rename takes a last element that is a link itself, so
		// only the links on its way count.
		var next string
		var ok bool
		if whole {
			if dir := path.Dir(inner); dir != "." {
				if next, ok = p.throughLink(dir); ok {
					next = path.Join(next, path.Base(inner))
				}
			}
		} else {
			next, ok = p.throughLink(inner)
		}
		if !ok {
			return nil
		}
		inner = next
		for _, n := range p.nested { // by path, where the climb may not get
			if within(inner, []string{n.inner}) {
				return &readOnlyError{root: n.root}
			}
		}
		if fi, err := p.root.Stat(inner); err == nil && fi.IsDir() {
			if id, ok := idOf(fi); ok && p.guarded[id] != nil {
				return &readOnlyError{root: p.guarded[id]}
			}
		}
	}
	return nil
}

// throughLink returns inner with its first element that is a symbolic
// link replaced by the link's target, lexically, and whether there was
// such a link that the root would follow (relative, not leading out).
func (p *protection) throughLink(inner string) (string, bool) {
	if inner == "." {
		return "", false
	}
	for end := 0; end < len(inner); {
		next := strings.IndexByte(inner[end+1:], '/')
		if next < 0 {
			end = len(inner)
		} else {
			end += 1 + next
		}
		prefix := inner[:end]
		fi, err := p.root.Lstat(prefix)
		if err != nil {
			return "", false // missing: nothing below it exists to follow
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		target, err := p.root.Readlink(prefix)
		if err != nil || target == "" || path.IsAbs(target) {
			return "", false
		}
		t := path.Join(path.Dir(prefix), target, inner[end:])
		if escapes(t) {
			return "", false
		}
		return t, true
	}
	return "", false
}

// climb opens dir through the root, following links as the change would
// (or its nearest ancestor that exists, where a change such as MkdirAll
// would start), and goes up through ".." to the root, refusing if it
// meets a nested read-only root.
func (p *protection) climb(dir string) *readOnlyError {
	f, err := p.root.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
	for err != nil && dir != "." && errors.Is(err, fs.ErrNotExist) {
		dir = path.Dir(dir)
		f, err = p.root.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil
	}
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return nil
	}
	defer func() { unix.Close(fd) }()
	for range maxProtectDepth {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil {
			return nil
		}
		id := fileID{uint64(st.Dev), uint64(st.Ino)}
		if id == p.rootID {
			return nil
		}
		if r := p.guarded[id]; r != nil {
			return &readOnlyError{root: r}
		}
		up, err := unix.Openat(fd, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil
		}
		unix.Close(fd)
		fd = up
		var ust unix.Stat_t
		if unix.Fstat(fd, &ust) == nil && ust.Dev == st.Dev && ust.Ino == st.Ino {
			return nil // the top of the file system
		}
	}
	return nil
}
