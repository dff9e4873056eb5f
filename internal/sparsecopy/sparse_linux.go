package sparsecopy

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// Whence values of Seek that find data and holes in a sparse file.
const (
	seekData = unix.SEEK_DATA
	seekHole = unix.SEEK_HOLE
)

// canSeekHoles reports whether seekData and seekHole exist here.
const canSeekHoles = true

// Allocated returns the bytes of disk the file fi describes occupies, at
// most its size: less for a sparse file.
func Allocated(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return min(fi.Size(), st.Blocks*512)
	}
	return fi.Size()
}
