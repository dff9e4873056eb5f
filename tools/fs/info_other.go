//go:build !linux && !darwin

package fs

import (
	"io/fs"
	"time"
)

// fileTimes returns no access or creation time: they are not read on this
// system.
func fileTimes(fs.FileInfo) (accessed, created *time.Time) { return nil, nil }

// changeTime returns no change time: it is not read on this system.
func changeTime(fs.FileInfo) (int64, bool) { return 0, false }
