package security

import (
	"errors"
	"io/fs"
	"os"
)

// rootFile is a file opened through a RootFs. It hides the *os.File, whose
// Name and errors carry the host path, and reports the root-relative name
// instead.
type rootFile struct {
	f    *os.File
	name string   // root-relative, as given to RootFs
	root *os.Root // the root it was opened in, for entries' Info
	dir  *dirReader
}

// err rewrites an *fs.PathError from the underlying file to name the file
// by its root-relative name. Other errors, io.EOF among them, are returned
// unchanged.
func (f *rootFile) err(err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return &fs.PathError{Op: pe.Op, Path: f.name, Err: pe.Err}
	}
	return err
}

// Name returns the root-relative name the file was opened by.
func (f *rootFile) Name() string { return f.name }

// Close closes the file.
func (f *rootFile) Close() error {
	f.dir.release()
	f.dir = nil
	return f.err(f.f.Close())
}

// Read reads up to len(p) bytes.
func (f *rootFile) Read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	return n, f.err(err)
}

// ReadAt reads len(p) bytes at offset off.
func (f *rootFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.f.ReadAt(p, off)
	return n, f.err(err)
}

// Seek sets the offset for the next Read or Write.
func (f *rootFile) Seek(offset int64, whence int) (int64, error) {
	n, err := f.f.Seek(offset, whence)
	return n, f.err(err)
}

// Write writes p.
func (f *rootFile) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	return n, f.err(err)
}

// WriteAt writes p at offset off.
func (f *rootFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.f.WriteAt(p, off)
	return n, f.err(err)
}

// WriteString writes s.
func (f *rootFile) WriteString(s string) (int, error) {
	n, err := f.f.WriteString(s)
	return n, f.err(err)
}

// Readdir describes up to count entries of the directory, without
// following links (through the directory's descriptor, never a host path).
func (f *rootFile) Readdir(count int) ([]os.FileInfo, error) {
	fis, err := f.f.Readdir(count)
	return fis, f.err(err)
}

// Readdirnames returns up to n names of entries of the directory.
func (f *rootFile) Readdirnames(n int) ([]string, error) {
	names, err := f.f.Readdirnames(n)
	return names, f.err(err)
}

// Stat describes the open file.
func (f *rootFile) Stat() (os.FileInfo, error) {
	fi, err := f.f.Stat()
	return fi, f.err(err)
}

// Sync commits the file to stable storage.
func (f *rootFile) Sync() error { return f.err(f.f.Sync()) }

// Truncate changes the size of the file.
func (f *rootFile) Truncate(size int64) error { return f.err(f.f.Truncate(size)) }
