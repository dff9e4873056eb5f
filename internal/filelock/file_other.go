//go:build !linux

package filelock

import (
	"context"
	"errors"
	"fmt"
)

// lockFile is never made here: this system has no lock that a process
// takes on a byte of a file apart from its other opens (Linux's
// open-file-description locks), so the locks hold within the process.
type lockFile struct{}

// openFile refuses a lock directory: locks here hold within the process.
func openFile(dir string) (*lockFile, error) {
	return nil, fmt.Errorf("lock directory %s: locks shared between processes need Linux's open-file-description locks: %w", dir, errors.ErrUnsupported)
}

// held holds nothing here.
type held struct{}

func (*held) release() {}

func (*lockFile) lock(context.Context, []span, func(span)) (*held, int, error) {
	return nil, -1, nil
}
