//go:build unix

package security

import "io/fs"

// folderID returns the device and inode fi describes.
func folderID(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	id, ok := idOf(fi)
	return id.dev, id.ino, ok
}
