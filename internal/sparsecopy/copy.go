package sparsecopy

import (
	"context"
	"errors"
	"io"
	"syscall"

	"github.com/spf13/afero"
)

// copyChunk is the most Copy reads at once.
const copyChunk = 1 << 20

// Copy copies the first size bytes of src into the empty file dst,
// keeping holes: where the system can find them (SEEK_DATA and SEEK_HOLE
// on Linux) only the data regions are read and written, at their
// offsets, and dst is then extended to size, so that a sparse source
// makes an equally sparse copy and a 2 GiB file with one block of data
// costs one block. Elsewhere, or on a file system that cannot tell, it
// copies every byte. It checks ctx between chunks, and returns the
// logical size written. A source shorter than size gives ErrShrank when
// the copy reads every byte; where it finds holes, what lies past the
// source's last data reads as a hole, and the caller compares sizes.
func Copy(ctx context.Context, dst, src afero.File, size int64) (int64, error) {
	if canSeekHoles {
		if err := copyRegions(ctx, dst, src, size); !errors.Is(err, errNoHoles) {
			return size, err
		}
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.CopyBuffer(dst, ctxReader{ctx, io.LimitReader(src, size)}, make([]byte, 256<<10))
	if err == nil && n != size {
		err = ErrShrank
	}
	return n, err
}

// errNoHoles says the file system cannot find a file's data regions.
var errNoHoles = errors.New("SEEK_DATA is not supported")

// ErrShrank is the failure of a copy whose source shrank under it.
var ErrShrank = errors.New("the source shrank during the copy")

// copyRegions is Copy with SEEK_DATA and SEEK_HOLE. It returns
// errNoHoles, having written nothing, when the first seeks fail for
// another reason than "no more data", or answer nonsense.
func copyRegions(ctx context.Context, dst, src afero.File, size int64) error {
	buf := make([]byte, min(copyChunk, max(size, 1)))
	for off := int64(0); off < size; {
		data, err := src.Seek(off, seekData)
		if errors.Is(err, syscall.ENXIO) {
			break // only a hole from off to the end
		}
		if err != nil {
			if off == 0 {
				return errNoHoles
			}
			return err
		}
		if data >= size {
			break
		}
		hole, err := src.Seek(data, seekHole)
		if err == nil && (data < off || hole <= data) {
			// A file system that ignores the whence it does not know.
			err = errNoHoles
		}
		if err != nil {
			if off == 0 {
				return errNoHoles
			}
			return err
		}
		hole = min(hole, size)
		for data < hole {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, err := src.ReadAt(buf[:min(int64(len(buf)), hole-data)], data)
			if n > 0 {
				if _, werr := dst.WriteAt(buf[:n], data); werr != nil {
					return werr
				}
				data += int64(n)
			}
			if errors.Is(err, io.EOF) {
				return ErrShrank
			}
			if err != nil {
				return err
			}
		}
		off = hole
	}
	return dst.Truncate(size)
}

// ctxReader is a reader that stops with ctx's error once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
