package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/spf13/afero"
)

// guardFs is the file system a Sandbox hands out: the one given to
// NewSandbox, with the rule for new names (see checkNewName) applied
// wherever a name comes into being: OpenFile and Create with os.O_CREATE,
// Mkdir, MkdirAll, Rename and SymlinkIfPossible. Every other method, and
// every operation on a name that exists already, passes straight through.
//
// It implements afero.Lstater, afero.LinkReader and afero.Linker whatever
// the file system below does; where that lacks one, the method behaves as
// afero's helpers do for a file system without it (Stat instead of Lstat,
// afero.ErrNoReadlink, afero.ErrNoSymlink).
type guardFs struct {
	afero.Fs
	s *Sandbox
}

// Compile-time checks of the interfaces guardFs implements.
var (
	_ afero.Fs        = (*guardFs)(nil)
	_ afero.Symlinker = (*guardFs)(nil)
)

// Unwrap returns the file system below, for what only removes or reads
// and so needs no rule for new names: delete_file's walk by descriptor
// (RootFs.WalkTree and RemoveTree), for one.
func (g *guardFs) Unwrap() afero.Fs { return g.Fs }

// newName returns the clean root-relative form of name, as RootFs would
// take it, and whether the rule applies to it: it is not the root and it
// does not exist yet. A name whose lookup fails for any reason counts as
// new; the operation that follows reports the real failure if there is
// one.
func (g *guardFs) newName(name string) (string, bool) {
	rel := path.Clean(strings.TrimLeft(name, "/"))
	if rel == "." || escapes(rel) {
		return rel, false
	}
	if _, _, err := g.LstatIfPossible(rel); err == nil {
		return rel, false
	}
	return rel, true
}

// check applies the rule to name if it is new; except is a rename's
// source.
func (g *guardFs) check(op, name, except string) error {
	rel, isNew := g.newName(name)
	if !isNew {
		return nil
	}
	if except != "" {
		except = path.Clean(strings.TrimLeft(except, "/"))
	}
	return g.checkNewName(op, rel, except)
}

// Create creates or truncates the named file; a new name is checked.
func (g *guardFs) Create(name string) (afero.File, error) {
	return g.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// OpenFile opens the named file; with os.O_CREATE, a new name is checked
// first.
func (g *guardFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&os.O_CREATE != 0 {
		if err := g.check("create", name, ""); err != nil {
			return nil, err
		}
	}
	return g.Fs.OpenFile(name, flag, perm)
}

// Mkdir creates the named directory after checking its name.
func (g *guardFs) Mkdir(name string, perm os.FileMode) error {
	if err := g.check("mkdir", name, ""); err != nil {
		return err
	}
	return g.Fs.Mkdir(name, perm)
}

// MkdirAll creates the named directory and any missing parents, after
// checking the name of every directory it is going to create.
func (g *guardFs) MkdirAll(name string, perm os.FileMode) error {
	rel := path.Clean(strings.TrimLeft(name, "/"))
	if rel != "." && !escapes(rel) {
		missing := false
		for end := 0; end < len(rel); {
			next := strings.IndexByte(rel[end+1:], '/')
			if next < 0 {
				end = len(rel)
			} else {
				end += 1 + next
			}
			prefix := rel[:end]
			if !missing {
				if _, _, err := g.LstatIfPossible(prefix); err == nil {
					continue
				}
				missing = true
			}
			if err := g.checkNewName("mkdir", prefix, ""); err != nil {
				return err
			}
		}
	}
	return g.Fs.MkdirAll(name, perm)
}

// Rename renames oldname to newname; a new newname is checked, and may
// differ from oldname only in case.
func (g *guardFs) Rename(oldname, newname string) error {
	if err := g.check("rename", newname, oldname); err != nil {
		return err
	}
	return g.Fs.Rename(oldname, newname)
}

// LstatIfPossible describes the named file without following a symbolic
// link, or with Stat when the file system below cannot.
func (g *guardFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := g.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := g.Fs.Stat(name)
	return fi, false, err
}

// ReadlinkIfPossible returns the target of the named symbolic link.
func (g *guardFs) ReadlinkIfPossible(name string) (string, error) {
	if l, ok := g.Fs.(afero.LinkReader); ok {
		return l.ReadlinkIfPossible(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
}

// SymlinkIfPossible creates newname as a symbolic link to oldname, after
// checking newname.
func (g *guardFs) SymlinkIfPossible(oldname, newname string) error {
	l, ok := g.Fs.(afero.Linker)
	if !ok {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: afero.ErrNoSymlink}
	}
	if err := g.check("symlink", newname, ""); err != nil {
		return err
	}
	return l.SymlinkIfPossible(oldname, newname)
}

// CheckNewName applies the rule for new names to p, a path as a model
// sends it, without creating anything: it returns nil if p exists already
// (existing names are never refused) or may be created, and otherwise the
// *PathError that creating it would meet. Tools can use it to refuse
// early, in a dry run or before copying a large file.
//
// The rule: a new name is refused when it contains a default-ignorable
// code point (Default_Ignorable_Code_Point, which includes the tag
// characters and the variation selectors), another format character (Cf),
// a noncharacter, a private-use character or a filler (Reason
// InvisibleName); when it is not in Unicode Normalization Form C (Reason
// NotNormalized); or when it would differ from the name of an entry in the
// same directory only in case or canonical equivalence (Reason
// Confusable). Only the last element of p is a new name when its
// directory exists; every missing directory on the way counts as new too.
func (s *Sandbox) CheckNewName(p string) error {
	rel, err := s.Resolve(p)
	if err != nil {
		return err
	}
	g, ok := s.fs.(*guardFs)
	if !ok {
		return nil
	}
	if err := g.check("create", rel, ""); err != nil {
		return err
	}
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if _, _, err := g.LstatIfPossible(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err := g.checkNewName("create", dir, ""); err != nil {
			return err
		}
	}
	return nil
}
