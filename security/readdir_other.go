//go:build !linux

package security

import "io/fs"

// dirReader is unused outside Linux.
type dirReader struct{}

// release does nothing.
func (*dirReader) release() {}

// ReadDir describes up to n entries of the directory; it makes rootFile
// an fs.ReadDirFile.
func (f *rootFile) ReadDir(n int) ([]fs.DirEntry, error) {
	des, err := f.f.ReadDir(n)
	return des, f.err(err)
}
