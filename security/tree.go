package security

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
)

// TreeEntry is an entry RootFs.WalkTree meets. WalkTree and RemoveTree
// exist on Linux only; elsewhere a caller walks by path.
type TreeEntry struct {
	// Type is the entry's file type bits; a symbolic link is never
	// followed, so it is fs.ModeSymlink.
	Type fs.FileMode
	// Size is the size of a regular file; 0 for anything else.
	Size int64

	path []byte // root-relative, valid only during the call
	root string // the root's part of a path in a sandbox with several ("notes:")
}

// Path returns the entry's root-relative path (with several roots, in
// the form Sandbox.Resolve returns). It may be longer than the path
// limit, which is why it is built only when asked for.
func (e TreeEntry) Path() string {
	if e.root != "" {
		return e.root + "/" + strings.TrimPrefix(string(e.path), "./")
	}
	return string(e.path)
}

// Name returns the entry's name, the last element of its path.
func (e TreeEntry) Name() string {
	if i := bytes.LastIndexByte(e.path, '/'); i >= 0 {
		return string(e.path[i+1:])
	}
	return string(e.path)
}

// IsDir reports whether the entry is a directory.
func (e TreeEntry) IsDir() bool { return e.Type.IsDir() }

// errTreeMoved is the error of a walk that found, going back up, that a
// directory it was in had been moved away.
var errTreeMoved = errors.New("a directory was moved while the tree was being walked")
