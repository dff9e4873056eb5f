package fs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// sparseFile creates name in dir with size bytes, all holes but for a
// block of data at the start, in the middle and at the end.
func sparseFile(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skipf("cannot make a %d-byte sparse file here: %v", size, err)
	}
	block := []byte(strings.Repeat("data", 1024))
	for _, off := range []int64{0, size / 2, size - int64(len(block))} {
		if _, err := f.WriteAt(block, off); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// blocks returns the 512-byte blocks the file p occupies.
func blocks(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Blocks
}

func TestCopyFileKeepsTheHolesOfSparseFiles(t *testing.T) {
	const size = 2 << 30
	e := newRealEnv(t, security.Limits{MaxWriteBytes: 4 << 30})
	src := sparseFile(t, e.dir, "sparse.bin", size)
	srcBlocks := blocks(t, src)
	if srcBlocks*512 >= size/2 {
		t.Skip("this file system does not keep holes")
	}
	e.mkdir(t, "dir")
	e.write(t, "dir/small.txt", "small")
	if err := os.Rename(src, filepath.Join(e.dir, "dir/sparse.bin")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	wantContains(t, text(e.ok(t, "copy_file", `{"source":"dir/sparse.bin","destination":"copy.bin"}`)), `Copied the file "dir/sparse.bin" (2147483648 bytes (2.0 GiB))`)
	e.ok(t, "copy_file", `{"source":"dir","destination":"dir2"}`)
	t.Logf("two copies of a 2 GiB sparse file with %d KiB of data: %v", srcBlocks/2, time.Since(start))
	for _, name := range []string{"copy.bin", "dir2/sparse.bin"} {
		p := filepath.Join(e.dir, name)
		if got := blocks(t, p); got > 2*srcBlocks+64 {
			t.Errorf("%s occupies %d KiB; the sparse source only %d KiB", name, got/2, srcBlocks/2)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Size() != size {
			t.Fatalf("%s: %v, size %d", name, err, fi.Size())
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		for _, off := range []int64{0, size / 2, size - 4096, 4096, size/2 + 8192} {
			if _, err := f.ReadAt(buf, off); err != nil {
				t.Fatal(err)
			}
			want := strings.Repeat("data", 1024)
			if off == 4096 || off == size/2+8192 {
				want = strings.Repeat("\x00", 4096)
			}
			if string(buf) != want {
				t.Errorf("%s at %d holds %.20q, want %.20q", name, off, buf, want)
			}
		}
		f.Close()
	}
}

// TestCopyFileOfASparseFileEndingInAHoleKeepsItsSize: the copy of a file
// whose last bytes are a hole is as long as the file. A copy of the data
// regions alone, at their offsets, ends where the last data ends; only
// extending the copy to the source's size (the Truncate at the end of
// sparsecopy.Copy) writes the hole at the end.
func TestCopyFileOfASparseFileEndingInAHoleKeepsItsSize(t *testing.T) {
	const size = 8 << 20
	block := strings.Repeat("data", 1024)
	e := newRealEnv(t, security.Limits{})
	e.mkdir(t, "dir")
	src := filepath.Join(e.dir, "dir/tail.bin")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	_, werr := f.WriteAt([]byte(block), 0)
	terr := f.Truncate(size) // the rest, 8 MiB less 4 KiB, is a hole
	if cerr := f.Close(); werr != nil || terr != nil || cerr != nil {
		t.Fatal(werr, terr, cerr)
	}
	if blocks(t, src)*512 >= size/2 {
		t.Skip("this file system does not keep holes")
	}
	e.ok(t, "copy_file", `{"source":"dir/tail.bin","destination":"copy.bin"}`)
	e.ok(t, "copy_file", `{"source":"dir","destination":"dir2"}`)
	for _, name := range []string{"copy.bin", "dir2/tail.bin"} {
		p := filepath.Join(e.dir, name)
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() != size {
			t.Errorf("%s is %d bytes; the source, which ends in a hole, is %d", name, fi.Size(), size)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < len(block) || string(b[:len(block)]) != block || strings.Trim(string(b[len(block):]), "\x00") != "" {
			t.Errorf("%s does not hold the block, then zeros", name)
		}
	}
}

func TestCopyFileRefusesASparseFileLargerThanTheCapAtOnce(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.mkdir(t, "dir")
	sparseFile(t, e.dir, "dir/huge.bin", 1<<40)
	start := time.Now()
	wantContains(t, e.fail(t, "copy_file", `{"source":"dir/huge.bin","destination":"copy.bin"}`),
		`"dir/huge.bin" is 1099511627776 bytes (1.0 TiB), more than the 268435456 bytes (256.0 MiB) one call may write (the server's --max-write-bytes limit); nothing was copied`)
	wantContains(t, e.fail(t, "copy_file", `{"source":"dir","destination":"dir2"}`),
		`"dir" holds more than 268435456 bytes (256.0 MiB), the most one call may write (the server's --max-write-bytes limit)`)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the refusals took %v", d)
	}
	var names []string
	_ = filepath.WalkDir(e.dir, func(p string, d os.DirEntry, err error) error {
		names = append(names, strings.TrimPrefix(p, e.dir))
		return err
	})
	if got := strings.Join(names, ","); got != ",/dir,/dir/huge.bin" {
		t.Errorf("after the refusals the root holds %s", got)
	}
}

func TestWritesOverTheCapAreRefused(t *testing.T) {
	bothFS(t, security.Limits{MaxWriteBytes: 10}, func(t *testing.T, e *env) {
		e.write(t, "a.txt", "0123456789")
		before := e.snapshot(t)
		wantContains(t, e.fail(t, "write_file", `{"path":"b.txt","content":"0123456789x"}`),
			`the content for "b.txt" is 11 bytes, more than the 10 bytes one call may write (the server's --max-write-bytes limit); nothing was written`)
		wantContains(t, e.fail(t, "write_file", `{"path":"b.txt","content":"0123456789x","dry_run":true}`), `more than the 10 bytes one call may write`)
		wantContains(t, e.fail(t, "edit_file", `{"path":"a.txt","edits":[{"old_text":"9","new_text":"9x"}]}`),
			`the edited text of "a.txt" is 11 bytes, more than the 10 bytes one call may write (the server's --max-write-bytes limit); nothing was written`)
		e.write(t, "c.txt", "01234567890")
		wantContains(t, e.fail(t, "copy_file", `{"source":"c.txt","destination":"d.txt"}`),
			`"c.txt" is 11 bytes, more than the 10 bytes one call may write (the server's --max-write-bytes limit); nothing was copied`)
		if err := e.fs.Remove("c.txt"); err != nil {
			t.Fatal(err)
		}
		if after := e.snapshot(t); after != before {
			t.Errorf("a refused write changed the tree:\n%s", after)
		}
		e.ok(t, "write_file", `{"path":"b.txt","content":"0123456789"}`)
		e.ok(t, "edit_file", `{"path":"a.txt","edits":[{"old_text":"9","new_text":""}]}`)
	})
}

// spaceFs is a file system whose disk has avail of total bytes free.
type spaceFs struct {
	afero.Fs
	avail, total uint64
	asked        []string
}

func (s *spaceFs) DiskSpace(dir string) (avail, total uint64, err error) {
	s.asked = append(s.asked, dir)
	return s.avail, s.total, nil
}

func TestWritesThatWouldFillTheDiskAreRefused(t *testing.T) {
	// A 100 GiB disk keeps 64 MiB; 10 bytes more are free.
	sfs := &spaceFs{Fs: afero.NewMemMapFs(), avail: 64<<20 + 10, total: 100 << 30}
	e := newEnv(t, "space", sfs, "", security.Limits{})
	e.mkdir(t, "dir")
	e.write(t, "dir/a.txt", "0123456789x")
	e.write(t, "b.txt", "01234")
	before := e.snapshot(t)
	const refusal = `writing 11 bytes to "dir/c.txt" would leave its disk with less than the 67108864 bytes (64.0 MiB) every write keeps free (1% of the disk, at most 64 MiB): it has 67108874 bytes (64.0 MiB) available; nothing was written. Free some space first`
	wantContains(t, e.fail(t, "write_file", `{"path":"dir/c.txt","content":"0123456789x"}`), refusal)
	wantContains(t, e.fail(t, "copy_file", `{"source":"dir/a.txt","destination":"dir/c.txt"}`), strings.Replace(refusal, "written", "copied", 1))
	wantContains(t, e.fail(t, "copy_file", `{"source":"dir","destination":"dir2"}`), `writing 11 bytes to "dir2" would leave its disk`)
	wantContains(t, e.fail(t, "edit_file", `{"path":"b.txt","edits":[{"old_text":"4","new_text":"456789x"}]}`), `writing 11 bytes to "b.txt" would leave its disk`)
	if after := e.snapshot(t); after != before {
		t.Errorf("a refused write changed the tree:\n%s", after)
	}
	if got := strings.Join(sfs.asked, ","); got != "dir,dir,.,." {
		t.Errorf("statfs asked about %s, want the directories written to", got)
	}
	e.ok(t, "write_file", `{"path":"dir/c.txt","content":"0123456789"}`)
	e.ok(t, "copy_file", `{"source":"b.txt","destination":"dir/d.txt"}`)

	// A small disk keeps 1% of itself.
	sfs.avail, sfs.total = 10737418+100, 1<<30
	wantContains(t, e.fail(t, "write_file", `{"path":"e.txt","content":"`+strings.Repeat("x", 101)+`"}`), `less than the 10737418 bytes (10.2 MiB) every write keeps free`)
	e.ok(t, "write_file", `{"path":"e.txt","content":"`+strings.Repeat("x", 100)+`"}`)
}

func TestTheRealRootReportsItsDiskSpace(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	rfs := e.fs.(*security.RootFs)
	avail, total, err := rfs.DiskSpace(".")
	if err != nil {
		t.Skipf("no statfs here: %v", err)
	}
	if total == 0 || avail > total {
		t.Errorf("DiskSpace = %d of %d", avail, total)
	}
}
