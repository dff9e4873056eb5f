package fs

import (
	"path"
)

// The free-space rule: a write of n bytes goes ahead only if the file
// system holding the target directory has n bytes available plus a
// reserve of 1% of its size, at most maxReserve (64 MiB), so that one
// call never fills a disk to the last block. The bytes counted are those
// the new file will occupy: the content of write_file and edit_file, the
// data (not the holes) of a copied file. A file being replaced is not
// counted as freed, since it stays until the new one is complete.
const (
	reservePercent = 1
	maxReserve     = 64 << 20
)

// diskSpacer is a file system that can say how much room a directory's
// file system has: *security.RootFs.
type diskSpacer interface {
	DiskSpace(dir string) (avail, total uint64, err error)
}

// reserve returns the bytes a write leaves free on a file system of total
// bytes.
func reserve(total uint64) uint64 {
	return min(total*reservePercent/100, maxReserve)
}

// checkCap refuses to write n bytes as what: "the new content of
// "a.txt"", ""big.bin"". done says what did not happen, "nothing was
// written".
func (t *toolset) checkCap(what arg, n int64, done arg) error {
	if limit := t.lim.MaxWriteBytes; n > limit {
		return fail(msgOverCap, what, size(n), size(limit), done)
	}
	return nil
}

// checkSpace refuses to write n bytes into rel's directory when that
// would leave its file system less than the reserve. A file system that
// cannot tell is not checked. done says what did not happen.
func (t *toolset) checkSpace(rel string, n int64, done arg) error {
	if t.diskSpace == nil {
		return nil
	}
	dir := path.Dir(rel)
	avail, total, err := t.diskSpace(dir)
	if err != nil {
		return nil // the write itself reports a real problem
	}
	keep := reserve(total)
	if n < 0 || uint64(n)+keep <= avail {
		return nil
	}
	return fail(msgNoSpace, size(n), lit(quote(rel)), size(int64(keep)), size(int64(avail)), done)
}

// checkWrite checks a write of size bytes (the logical size, holes
// included) that will occupy alloc bytes of disk, into rel: against the
// cap, then against the free space. what names the content in the
// sentence, done says what did not happen.
func (t *toolset) checkWrite(rel string, what arg, n, alloc int64, done arg) error {
	if err := t.checkCap(what, n, done); err != nil {
		return err
	}
	return t.checkSpace(rel, alloc, done)
}
