//go:build !linux

package security

import (
	"errors"
	"os"
)

// DiskSpace is not available here: it returns errors.ErrUnsupported, and
// writes go ahead without the free-space check.
func (r *RootFs) DiskSpace(dir string) (avail, total uint64, err error) {
	return 0, 0, errors.ErrUnsupported
}

// CreateUnnamed is not available here: it returns errors.ErrUnsupported,
// and writes use a named temporary file.
func (r *RootFs) CreateUnnamed(dir string, perm os.FileMode) (*UnnamedFile, error) {
	return nil, errors.ErrUnsupported
}

// UnnamedFile is a file made by CreateUnnamed, which never makes one
// here.
type UnnamedFile struct {
	*rootFile
}

// Chmod sets the file's mode.
func (u *UnnamedFile) Chmod(mode os.FileMode) error { return u.err(u.f.Chmod(mode)) }

// Link gives the file a name; never reached here.
func (u *UnnamedFile) Link(tmp, name string) error { return errors.ErrUnsupported }

// SyncDir syncs the file's directory; never reached here.
func (u *UnnamedFile) SyncDir() error { return errors.ErrUnsupported }
