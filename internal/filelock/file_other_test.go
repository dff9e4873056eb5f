//go:build !linux

package filelock

import (
	"errors"
	"testing"
)

// lockBases returns no folder: locks here hold within the process.
func lockBases(testing.TB) []base { return nil }

func TestOpenOfADirectoryIsUnsupportedHere(t *testing.T) {
	if _, err := Open(t.TempDir()); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("err = %v, want errors.ErrUnsupported", err)
	}
}
