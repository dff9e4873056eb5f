//go:build !linux

package sparsecopy

import "io/fs"

// Whence values of Seek that find data and holes; unused here.
const (
	seekData = 3
	seekHole = 4
)

// canSeekHoles reports whether seekData and seekHole exist here: copies
// write holes out as zeros.
const canSeekHoles = false

// Allocated returns the bytes of disk the file fi describes occupies:
// here its size.
func Allocated(fi fs.FileInfo) int64 { return fi.Size() }
