//go:build linux

package fs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"golang.org/x/sys/unix"
)

// deepChain builds below the host directory dir a chain of depth
// directories named "d", each holding a 3-byte file "f", going level by
// level relative to the one before, since the paths are longer than
// PATH_MAX. At level link it puts a symbolic link "ln" to target.
func deepChain(t testing.TB, dir string, depth, link int, target string) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { unix.Close(fd) }()
	for level := 1; level <= depth; level++ {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		unix.Close(fd)
		fd = next
		f, err := unix.Openat(fd, "f", unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		unix.Write(f, []byte("abc"))
		unix.Close(f)
		if level == link {
			if err := unix.Symlinkat(target, fd, "ln"); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestDeleteFileDeletesATreeDeeperThanThePathLimit(t *testing.T) {
	const depth = 3000 // "d/" 3000 times: 6000 bytes, past PATH_MAX
	e := newRealEnv(t, security.Limits{MaxListEntries: 5})
	e.write(t, "keep/k.txt", "kept")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "o.txt"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.mkdir(t, "deep")
	// Links deep down: to a folder outside the root, and to one inside
	// it that is not deleted.
	deepChain(t, filepath.Join(e.dir, "deep"), depth, depth-10, outside)
	if err := os.Symlink("../../keep", filepath.Join(e.dir, "deep", "d", "in")); err != nil {
		t.Fatal(err)
	}

	res := e.ok(t, "delete_file", `{"path":"deep","recursive":true,"dry_run":true}`)
	var got DeleteFileResult
	structured(t, res, &got)
	if got.Files != depth+2 || got.Dirs != depth+1 || got.Bytes != 3*depth || !got.DryRun {
		t.Errorf("dry run counted %d files, %d dirs, %d bytes; want %d, %d, %d", got.Files, got.Dirs, got.Bytes, depth+2, depth+1, 3*depth)
	}
	if want := []string{"deep/", "deep/d/", "deep/d/d/", "deep/d/d/d/", "deep/d/d/d/d/"}; strings.Join(got.Paths, " ") != strings.Join(want, " ") {
		t.Errorf("dry run paths = %q, want %q", got.Paths, want)
	}
	wantContains(t, text(res), "3002 files and 3000 subdirectories, 9000 bytes", "Showing 5 of the 6003 paths.")
	if !e.exists(t, "deep/d/f") {
		t.Fatal("the dry run deleted something")
	}

	res = e.ok(t, "delete_file", `{"path":"deep","recursive":true}`)
	wantContains(t, text(res), `Deleted the directory "deep" and everything in it: 3002 files and 3000 subdirectories, 9000 bytes (8.8 KiB).`)
	if _, err := os.Lstat(filepath.Join(e.dir, "deep")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("deep is still there: %v", err)
	}
	if e.read(t, "keep/k.txt") != "kept" {
		t.Error("a link inside the tree was followed into keep")
	}
	if b, err := os.ReadFile(filepath.Join(outside, "o.txt")); err != nil || string(b) != "outside" {
		t.Errorf("a link inside the tree was followed out of the root: %q, %v", b, err)
	}
	if _, err := os.Stat(e.dir); err != nil {
		t.Errorf("the root went: %v", err)
	}
	wantContains(t, e.fail(t, "delete_file", `{"path":".","recursive":true}`), "is the root directory, which delete_file never deletes")
}
