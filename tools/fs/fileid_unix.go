//go:build unix

package fs

import (
	"io/fs"
	"syscall"
)

// fileID returns the device and inode of the file fi describes, where the
// file system gives them.
func fileID(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}
