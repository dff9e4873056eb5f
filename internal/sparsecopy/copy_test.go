package sparsecopy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// sparse creates a file of size bytes in dir holding block at each of
// offsets and holes elsewhere, and returns it open.
func sparse(t *testing.T, dir string, size int64, block string, offsets ...int64) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	for _, off := range offsets {
		if _, err := f.WriteAt([]byte(block), off); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestCopyKeepsTheHolesAndTheWholeSize(t *testing.T) {
	const size = 8 << 20
	block := strings.Repeat("data", 1024)
	for _, tt := range []struct {
		name    string
		offsets []int64
	}{
		{"data at both ends", []int64{0, size - 4096}},
		{"a hole at the end", []int64{0}},
		{"a hole at the start", []int64{size - 4096}},
		{"only a hole", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			src := sparse(t, dir, size, block, tt.offsets...)
			dst, err := os.Create(filepath.Join(dir, "dst"))
			if err != nil {
				t.Fatal(err)
			}
			defer dst.Close()
			if n, err := Copy(t.Context(), dst, src, size); err != nil || n != size {
				t.Fatalf("Copy = %d, %v", n, err)
			}
			fi, err := dst.Stat()
			if err != nil || fi.Size() != size {
				t.Fatalf("the copy is %d bytes, %v; want %d", fi.Size(), err, size)
			}
			want, _ := os.ReadFile(filepath.Join(dir, "src"))
			if got, _ := os.ReadFile(filepath.Join(dir, "dst")); string(got) != string(want) {
				t.Error("the copy differs from the source")
			}
			srcFi, _ := src.Stat()
			if canSeekHoles && Allocated(srcFi) < size/2 && Allocated(fi) > Allocated(srcFi)+64<<10 {
				t.Errorf("the copy takes %d bytes of disk, the source %d", Allocated(fi), Allocated(srcFi))
			}
		})
	}
}

// TestCopyOfASourceThatShrankFails: a source that ends before size fails
// with ErrShrank where the copy reads every byte (here a file system in
// memory, which cannot find holes). Where it finds holes, the end of the
// source past its last data reads as a hole, as the copy does not know it
// from one: its caller compares the source's size before and after.
func TestCopyOfASourceThatShrankFails(t *testing.T) {
	fsys := afero.NewMemMapFs()
	if err := afero.WriteFile(fsys, "src", make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := fsys.Open("src")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := fsys.Create("dst")
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if _, err := Copy(t.Context(), dst, src, 2<<20); !errors.Is(err, ErrShrank) {
		t.Errorf("Copy of 2 MiB from a 1 MiB file = %v, want ErrShrank", err)
	}
}

func TestAllocatedIsAtMostTheSize(t *testing.T) {
	dir := t.TempDir()
	src := sparse(t, dir, 1<<30, "x", 0)
	fi, err := src.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if a := Allocated(fi); a > fi.Size() || canSeekHoles && fi.Sys().(*syscall.Stat_t).Blocks*512 < 1<<29 && a >= 1<<29 {
		t.Errorf("Allocated = %d of a 1 GiB file with one byte of data", a)
	}
}
