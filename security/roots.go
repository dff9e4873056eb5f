package security

import (
	"fmt"
	"github.com/stdiotools/toolserver/internal/watch"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/afero"
)

// Root is one folder of a Sandbox made by NewRoots.
type Root struct {
	// Name is how paths name the root when the sandbox has several:
	// "notes" in "notes:/todo.md". It must follow CheckRootName; a
	// sandbox with one root may leave it empty.
	Name string
	// Fs is the root's file system: a *RootFs in production.
	Fs afero.Fs
	// HostPath is the absolute host path of the folder. It is used to
	// accept absolute paths that lie inside the root, to match client
	// roots (RestrictHost), to find roots nested in others and to key
	// paths (Key); it is never shown to the model. When it is empty,
	// absolute paths never name this root. A relative HostPath is made
	// absolute against the working directory.
	HostPath string
	// ReadOnly refuses every change inside the root.
	ReadOnly bool
}

// RootInfo describes one root of a sandbox, as Roots returns it.
type RootInfo struct {
	Name     string // the root's name; may be empty with one root
	ReadOnly bool   // nothing in the root may be changed
	// Path is how a path names the root itself: "notes:" when the
	// sandbox has several roots, "." when it has one.
	Path string
	// Allowed are the subtrees of the root the model may use, in the form
	// Resolve returns: just Path when the whole root may be used, none
	// when the client's roots leave nothing of it.
	Allowed []string
}

// sbRoot is one root of a Sandbox.
type sbRoot struct {
	name     string
	prefix   string // "name:" when the sandbox has several roots, else ""
	fs       afero.Fs
	hostRoot string // clean, slash-separated, absolute; "" if none
	hostKey  string // hostRoot with symbolic links resolved, for Key
	readOnly bool
	// nested are the read-only roots that lie inside this writable one,
	// by their root-relative paths here: changing anything at or below
	// them through this root is refused too.
	nested []nestedRoot
	// protect is what guards the nested roots by identity (gate_unix.go);
	// nil where it cannot.
	protect *protection
	// allowed holds the subtrees set by Restrict, sorted, none under
	// another; nil means the whole root.
	allowed atomic.Pointer[[]string]

	gateOnce sync.Once
	gfs      afero.Fs // gated(), made once
}

// nestedRoot is a read-only root that lies inside a writable one.
type nestedRoot struct {
	inner string  // its path relative to the outer root
	root  *sbRoot // the read-only root
}

// qualify returns the path, in the form Resolve returns, of inner, a
// clean path relative to r ("." for r itself).
func (r *sbRoot) qualify(inner string) string {
	switch {
	case r.prefix == "":
		return inner
	case inner == ".":
		return r.prefix
	}
	return r.prefix + "/" + inner
}

// MaxRootNameBytes is the longest root name CheckRootName accepts.
const MaxRootNameBytes = 64

// CheckRootName reports whether name may name a root: 2 to
// MaxRootNameBytes ASCII letters, digits, '-', '_' and '.', starting with
// a letter or a digit. Two characters at least, so that a path such as
// "c:/x" is never taken for a root rather than a Windows drive; no ':' or
// '/', so that "name:/path" splits one way only.
func CheckRootName(name string) error {
	if len(name) < 2 || len(name) > MaxRootNameBytes {
		return fmt.Errorf("root name %q must have 2 to %d characters", name, MaxRootNameBytes)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '-' || c == '_' || c == '.'):
		default:
			return fmt.Errorf("root name %q may hold only ASCII letters, digits, '-', '_' and '.', and must start with a letter or digit", name)
		}
	}
	return nil
}

// NewRoots returns a sandbox over several roots. Paths then name their
// root: "notes:/todo.md" (or "notes:todo.md") is todo.md in the root
// named notes, "notes:" is the root itself, and a plain relative path
// such as "src/main.go" lies in the first root. Resolve returns every
// path in the first form, which is also how the tools show paths, and Fs
// routes such paths to their root. Renaming from one root into another
// fails with an error matching syscall.EXDEV, as across file systems.
//
// With one root, NewRoots is NewSandbox: paths carry no root name, and a
// read-only root refuses every change.
//
// Names must follow CheckRootName and differ from each other ignoring
// case. A root may lie inside another, or two roots may share a folder;
// each keeps its own rights. When a read-only root lies inside a writable
// one, changing anything at or below it through the writable one is
// refused too: by its path, and (on Unix, for a *RootFs) by the identity
// of the directories on the way, so that a symbolic link does not get
// round it. Elsewhere, such a nesting is refused.
func NewRoots(roots []Root, opts SandboxOptions) (*Sandbox, error) {
	if len(roots) == 0 {
		return nil, fmt.Errorf("a sandbox needs at least one root")
	}
	s := &Sandbox{limits: opts.Limits.WithDefaults(), lang: opts.Lang, locks: opts.Locks, watcher: new(watch.Watcher)}
	if s.locks == nil {
		locks, err := NewLocks("")
		if err != nil {
			return nil, err
		}
		s.locks = locks
	}
	seen := map[string]string{}
	for _, r := range roots {
		if r.Fs == nil {
			return nil, fmt.Errorf("root %q has no file system", r.Name)
		}
		sr := &sbRoot{name: r.Name, fs: r.Fs, readOnly: r.ReadOnly}
		if len(roots) > 1 {
			if err := CheckRootName(r.Name); err != nil {
				return nil, err
			}
			low := strings.ToLower(r.Name)
			if other, dup := seen[low]; dup {
				return nil, fmt.Errorf("two roots are named %q and %q; give each its own name", other, r.Name)
			}
			seen[low] = r.Name
			sr.prefix = r.Name + ":"
		}
		if h := r.HostPath; h != "" {
			if abs, err := filepath.Abs(h); err == nil {
				sr.hostRoot = filepath.ToSlash(abs)
				sr.hostKey = sr.hostRoot
				if real, err := filepath.EvalSymlinks(abs); err == nil {
					sr.hostKey = filepath.ToSlash(real)
				}
			}
		}
		s.roots = append(s.roots, sr)
	}
	s.findNested()
	if err := s.checkNested(); err != nil {
		return nil, err
	}
	var base afero.Fs
	if len(s.roots) == 1 {
		base = s.roots[0].gatedFs()
	} else {
		base = &muxFs{s: s}
	}
	s.fs = &guardFs{Fs: base, s: s}
	return s, nil
}

// findNested records, for each writable root, the read-only roots that
// lie inside it (by their host paths, links resolved).
func (s *Sandbox) findNested() {
	for _, outer := range s.roots {
		if outer.readOnly || outer.hostKey == "" {
			continue
		}
		for _, in := range s.roots {
			if in == outer || !in.readOnly || in.hostKey == "" {
				continue
			}
			// Two roots on one folder each keep their own rights.
			if rel, ok := relBelow(outer.hostKey, in.hostKey); ok && rel != "." {
				outer.nested = append(outer.nested, nestedRoot{inner: rel, root: in})
			}
		}
		outer.protect = newProtection(outer)
	}
}

// relBelow returns the clean slash path c relative to dir, and whether it
// is dir or lies below it.
func relBelow(dir, c string) (string, bool) {
	switch {
	case c == dir:
		return ".", true
	case dir == "/":
		return c[1:], true
	case len(c) > len(dir) && c[len(dir)] == '/' && c[:len(dir)] == dir:
		return c[len(dir)+1:], true
	}
	return "", false
}

// below returns the clean absolute slash path c relative to the root,
// and whether it lies inside it: below the root's HostPath as given, or
// below the folder it leads to when that is a symbolic link.
func (r *sbRoot) below(c string) (string, bool) {
	if r.hostRoot == "" {
		return "", false
	}
	if rel, ok := relBelow(r.hostRoot, c); ok {
		return rel, true
	}
	if r.hostKey != r.hostRoot {
		return relBelow(r.hostKey, c)
	}
	return "", false
}

// gated returns the root's file system as the sandbox uses it: refusing
// every change if the root is read-only, and changes to the read-only
// roots nested in it otherwise; as it is when neither applies.
func (r *sbRoot) gated() afero.Fs {
	if !r.readOnly && len(r.nested) == 0 {
		return r.fs
	}
	return &gateFs{Fs: r.fs, r: r}
}

// split returns the root a path in Resolve's form lies in and the path
// relative to it; nil if it names no root.
func (s *Sandbox) split(rel string) (*sbRoot, string) {
	if len(s.roots) == 1 {
		return s.roots[0], rel
	}
	i := strings.IndexByte(rel, ':')
	if i < 0 {
		return nil, ""
	}
	r := s.rootNamed(rel[:i])
	if r == nil {
		return nil, ""
	}
	inner := strings.TrimLeft(rel[i+1:], "/")
	if inner == "" {
		return r, "."
	}
	return r, path.Clean(inner)
}

// rootNamed returns the root called name, or nil.
func (s *Sandbox) rootNamed(name string) *sbRoot {
	for _, r := range s.roots {
		if r.name == name {
			return r
		}
	}
	return nil
}

// Multi reports whether the sandbox has several roots, and so whether
// paths carry root names.
func (s *Sandbox) Multi() bool { return len(s.roots) > 1 }

// IsRoot reports whether rel, a Resolve result, is a root itself.
func (s *Sandbox) IsRoot(rel string) bool {
	r, inner := s.split(rel)
	return r != nil && inner == "."
}

// SplitRoot returns the part of rel, a Resolve result, that names its
// root ("notes:", or "" with one root) and the path relative to that root
// ("." for the root itself). JoinRoot puts them back together.
func (s *Sandbox) SplitRoot(rel string) (root, inner string) {
	r, inner := s.split(rel)
	if r == nil {
		return "", rel
	}
	return r.prefix, inner
}

// JoinRoot returns the path, in Resolve's form, of inner (a clean path
// relative to a root, "." for the root itself) in the root that root
// names, as SplitRoot returned it.
func (s *Sandbox) JoinRoot(root, inner string) string {
	if root == "" {
		return inner
	}
	if inner == "." {
		return root
	}
	return root + "/" + inner
}

// Roots describes the roots, in the order they were given.
func (s *Sandbox) Roots() []RootInfo {
	out := make([]RootInfo, len(s.roots))
	for i, r := range s.roots {
		info := RootInfo{Name: r.name, ReadOnly: r.readOnly, Path: r.qualify(".")}
		if a := r.allowed.Load(); a != nil {
			for _, t := range *a {
				info.Allowed = append(info.Allowed, r.qualify(t))
			}
		} else {
			info.Allowed = []string{info.Path}
		}
		out[i] = info
	}
	return out
}

// Key returns the key of p, a path as a model sends it, for telling
// whether two calls touch the same file: the host path it names (links
// in the roots' own paths resolved), so that one file has one key however
// it is written, through whichever root. It is never shown to the model.
// A path Resolve refuses keys to its lexically clean form, as does every
// path of a root without a HostPath, under "/" and the root's name.
func (s *Sandbox) Key(p string) string {
	r, inner, err := s.resolve(p, false)
	if err != nil {
		return path.Clean("/" + strings.TrimPrefix(p, "./"))
	}
	base := r.hostKey
	if base == "" {
		base = "/" + r.name
	}
	if inner == "." {
		return base
	}
	if base == "/" {
		return "/" + inner
	}
	return base + "/" + inner
}
