//go:build linux

package security

import (
	"bytes"
	"encoding/binary"
	"io"
	"io/fs"
	"path"
	"sync"
	"syscall"
)

// ReadDir describes up to n entries of the directory (all of them when
// n <= 0); it makes rootFile an fs.ReadDirFile.
//
// os.File.ReadDir stats every entry of a directory opened through an
// os.Root, one fstatat per entry: three quarters of the time of listing a
// thousand files. The kernel's directory records already carry each
// entry's type, so this reads them directly and leaves the stat to
// DirEntry.Info, which goes through the root like every other lookup.
func (f *rootFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if f.dir == nil {
		f.dir = &dirReader{buf: direntBufs.Get().(*[dirBufSize]byte)}
	}
	d := f.dir
	var out []fs.DirEntry
	if n > 0 {
		out = make([]fs.DirEntry, 0, min(n, 1024))
	}
	var ents []rootDirent // allocated direntChunk at a time
	for n <= 0 || len(out) < n {
		if d.pos >= d.end {
			if d.eof {
				break
			}
			if err := d.fill(f); err != nil {
				return out, f.err(err)
			}
			continue
		}
		rec := d.buf[d.pos:d.end]
		if len(rec) < 19 {
			d.pos = d.end
			continue
		}
		reclen := int(binary.NativeEndian.Uint16(rec[16:18]))
		if reclen < 19 || reclen > len(rec) {
			d.pos = d.end
			continue
		}
		d.pos += reclen
		name := rec[19:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		if len(ents) == cap(ents) {
			ents = make([]rootDirent, 0, direntChunk)
		}
		ents = append(ents, rootDirent{root: f, name: string(name), typ: direntMode(rec[18])})
		e := &ents[len(ents)-1]
		if rec[18] == 0 { // DT_UNKNOWN: this file system does not say
			fi, err := e.Info()
			if err != nil {
				continue // gone between the read and the stat
			}
			e.typ = fi.Mode().Type()
		}
		out = append(out, e)
	}
	if n > 0 && len(out) == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// direntChunk is how many entries ReadDir allocates at once: one
// allocation instead of 32, while an entry kept alone (a walk keeps the
// subdirectories it has still to enter) holds on to a kilobyte at most.
const direntChunk = 32

// dirReader is the state of reading a directory's records in batches.
type dirReader struct {
	buf      *[dirBufSize]byte // from direntBufs, until the file is closed
	pos, end int
	eof      bool
}

// dirBufSize is the size of the buffer a directory's records are read
// into: about 500 records of short names a read.
const dirBufSize = 16 << 10

// direntBufs holds the buffers of directories closed, for the next ones
// read: a walk reads hundreds.
var direntBufs = sync.Pool{New: func() any { return new([dirBufSize]byte) }}

// release gives the buffer back, once the file is closed.
func (d *dirReader) release() {
	if d != nil && d.buf != nil {
		direntBufs.Put(d.buf)
		d.buf = nil
	}
}

// fill reads the next batch of records.
func (d *dirReader) fill(f *rootFile) error {
	rc, err := f.f.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			n, rerr = syscall.ReadDirent(int(fd), d.buf[:])
			if rerr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if rerr != nil {
		return &fs.PathError{Op: "readdirent", Path: f.name, Err: rerr}
	}
	d.pos, d.end, d.eof = 0, n, n == 0
	return nil
}

// direntMode turns a directory record's d_type into a file type.
func direntMode(t byte) fs.FileMode {
	switch t {
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	default:
		return 0 // regular, or unknown until stat'ed
	}
}

// rootDirent is a directory entry read by rootFile.ReadDir.
type rootDirent struct {
	root *rootFile
	name string
	typ  fs.FileMode
}

// Name returns the entry's name.
func (e *rootDirent) Name() string { return e.name }

// IsDir reports whether the entry is a directory.
func (e *rootDirent) IsDir() bool { return e.typ.IsDir() }

// Type returns the entry's file type bits.
func (e *rootDirent) Type() fs.FileMode { return e.typ }

// Info describes the entry without following a link. It looks the entry
// up through the root by its root-relative path, so it works after the
// directory is closed and can never leave the root.
func (e *rootDirent) Info() (fs.FileInfo, error) {
	return e.root.root.Lstat(path.Join(e.root.name, e.name))
}

// String returns the entry as fs.FormatDirEntry does.
func (e *rootDirent) String() string { return fs.FormatDirEntry(e) }
