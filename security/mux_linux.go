//go:build linux

package security

import (
	"context"
	"io/fs"
	"os"

	"github.com/spf13/afero"
)

// treeWalkerFs is a file system that walks and removes trees by
// descriptor: *RootFs here.
type treeWalkerFs interface {
	WalkTree(ctx context.Context, name string, fn func(TreeEntry) error) error
	RemoveTree(ctx context.Context, name string) error
}

// walkTree is WalkTree on fsys, by descriptor where fsys can, by path
// otherwise (a file system in memory, in tests).
func walkTree(ctx context.Context, fsys afero.Fs, name string, fn func(TreeEntry) error) error {
	if tf, ok := fsys.(treeWalkerFs); ok {
		return tf.WalkTree(ctx, name, fn)
	}
	start := rootName(name)
	err := afero.Walk(fsys, start, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == start {
			return nil
		}
		e := TreeEntry{Type: fi.Mode().Type(), path: []byte(p)}
		if fi.Mode().IsRegular() {
			e.Size = fi.Size()
		}
		return fn(e)
	})
	if err == fs.SkipAll {
		return nil
	}
	return err
}

// removeTree is RemoveTree on fsys, by descriptor where fsys can.
func removeTree(ctx context.Context, fsys afero.Fs, name string) error {
	if tf, ok := fsys.(treeWalkerFs); ok {
		return tf.RemoveTree(ctx, name)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return fsys.RemoveAll(name)
}

// WalkTree walks the tree at name (see RootFs.WalkTree).
func (g *gateFs) WalkTree(ctx context.Context, name string, fn func(TreeEntry) error) error {
	return walkTree(ctx, g.Fs, name, fn)
}

// RemoveTree removes the tree at name (see RootFs.RemoveTree), if it may.
func (g *gateFs) RemoveTree(ctx context.Context, name string) error {
	if err := g.check("remove", name, true); err != nil {
		return err
	}
	return removeTree(ctx, g.Fs, name)
}

// WalkTree walks the tree at name in its root (see RootFs.WalkTree); the
// entries' paths carry the root's name.
func (m *muxFs) WalkTree(ctx context.Context, name string, fn func(TreeEntry) error) error {
	r, f, inner, err := m.route("walk", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(walkTree(ctx, f, inner, func(e TreeEntry) error {
		e.root = r.prefix
		return fn(e)
	}))
}

// RemoveTree removes the tree at name in its root (see RootFs.RemoveTree).
func (m *muxFs) RemoveTree(ctx context.Context, name string) error {
	r, f, inner, err := m.route("remove", name)
	if err != nil {
		return err
	}
	return r.qualifyErr(removeTree(ctx, f, inner))
}
