//go:build linux

package security

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// deepTree builds below the directory dir a chain of depth directories
// named "d", each holding a 3-byte file "f", and returns nothing: the
// paths are longer than PATH_MAX, so it goes level by level, each
// directory made and opened relative to the one before. At level link it
// puts a symbolic link "ln" to target.
func deepTree(t testing.TB, dir string, depth, link int, target string) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	for level := 1; level <= depth; level++ {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
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
	unix.Close(fd)
}

// openFds counts the process's open descriptors.
func openFds(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}

func TestTreeDeeperThanThePathLimitIsWalkedAndRemoved(t *testing.T) {
	const depth = 3000 // "d/" times 3000: 6000 bytes, past PATH_MAX
	tt := newTestTree(t)
	outside := filepath.Join(tt.base, "outside")
	deepTree(t, filepath.Join(tt.root, "notes"), depth, depth-1, outside)
	if err := os.Symlink("../../a.txt", filepath.Join(tt.root, "notes", "d", "up")); err != nil {
		t.Fatal(err)
	}

	var dirs, files, links, bytes, deepest int
	baseFds := openFds(t)
	fds := 0
	err := tt.fs.WalkTree(t.Context(), "notes", func(e TreeEntry) error {
		switch {
		case e.IsDir():
			dirs++
		case e.Type&fs.ModeSymlink != 0:
			links++
		default:
			files++
			bytes += int(e.Size)
		}
		if n := strings.Count(e.Path(), "/"); n > deepest {
			deepest = n
			if n == depth+1 {
				fds = openFds(t)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("WalkTree: %v", err)
	}
	// notes/todo.txt, and f in every level; ln and up.
	if dirs != depth || files != depth+1 || links != 2 || bytes != 3*depth+4 || deepest != depth+1 {
		t.Errorf("walked %d dirs, %d files, %d links, %d bytes, %d deep", dirs, files, links, bytes, deepest)
	}
	if fds > baseFds+3 {
		t.Errorf("%d descriptors open at depth %d, %d before the walk", fds, depth, baseFds)
	}

	before := openFds(t)
	if err := tt.fs.RemoveTree(t.Context(), "notes"); err != nil {
		t.Fatalf("RemoveTree: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(tt.root, "notes")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("notes is still there: %v", err)
	}
	if after := openFds(t); after != before {
		t.Errorf("%d descriptors open after, %d before", after, before)
	}
	// The links went, not what they point to.
	if b, err := os.ReadFile(filepath.Join(outside, "secret.txt")); err != nil || string(b) != "top secret" {
		t.Errorf("outside/secret.txt: %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(tt.root, "a.txt")); err != nil || string(b) != "hello" {
		t.Errorf("a.txt: %q, %v", b, err)
	}
}

func TestRemoveTreeRemovesALinkNotItsTargetAndNeverTheRoot(t *testing.T) {
	tt := newTestTree(t)
	if err := tt.fs.RemoveTree(t.Context(), "link-dir"); err != nil {
		t.Fatalf("RemoveTree(link-dir): %v", err)
	}
	if _, err := os.Lstat(filepath.Join(tt.root, "link-dir")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("link-dir is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tt.base, "outside", "dir", "inner.txt")); err != nil {
		t.Errorf("the link's target went: %v", err)
	}
	for _, name := range []string{".", "", "/"} {
		err := tt.fs.RemoveTree(t.Context(), name)
		if !errors.Is(err, syscall.EINVAL) {
			t.Errorf("RemoveTree(%q) = %v, want EINVAL", name, err)
		}
		if pe := tt.sb.Explain("delete", ".", err).(*PathError); pe.Reason != RootItself {
			t.Errorf("Explain(RemoveTree(%q)) = %v", name, pe)
		}
	}
	if _, err := os.Stat(filepath.Join(tt.root, "a.txt")); err != nil {
		t.Errorf("the root lost a.txt: %v", err)
	}
}

func TestWalkTreeStopsWhenCancelled(t *testing.T) {
	tt := newTestTree(t)
	deepTree(t, filepath.Join(tt.root, "notes"), 50, 0, "")
	ctx, cancel := context.WithCancel(t.Context())
	n := 0
	err := tt.fs.WalkTree(ctx, "notes", func(TreeEntry) error {
		if n++; n == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 5 {
		t.Errorf("WalkTree after a cancel at 5 entries: %v after %d entries", err, n)
	}
	if err := tt.fs.RemoveTree(ctx, "notes"); !errors.Is(err, context.Canceled) {
		t.Errorf("RemoveTree with a cancelled context: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tt.root, "notes", "d", "f")); err != nil {
		t.Errorf("RemoveTree with a cancelled context removed files: %v", err)
	}
}

func TestWalkTreeNeverGoesUpIntoAFolderItDidNotComeFrom(t *testing.T) {
	// Moved out from under the walk, notes/d/d now sits in the root: going
	// back up through ".." leads to the root, not to notes/d, and the walk
	// must fail there rather than walk on in the root.
	tt := newTestTree(t)
	deepTree(t, filepath.Join(tt.root, "notes"), 3, 0, "")
	var outside []string
	moved := false
	err := tt.fs.WalkTree(t.Context(), "notes", func(e TreeEntry) error {
		if !strings.HasPrefix(e.Path(), "notes/") {
			outside = append(outside, e.Path())
		}
		if e.Path() == "notes/d/d/d/f" && !moved {
			moved = true
			if err := os.Rename(filepath.Join(tt.root, "notes", "d", "d"), filepath.Join(tt.root, "moved")); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	if !errors.Is(err, errTreeMoved) {
		t.Errorf("WalkTree = %v, want errTreeMoved", err)
	}
	if len(outside) > 0 {
		t.Errorf("the walk went on outside notes: %q", outside)
	}
	if !moved {
		t.Error("the walk never reached notes/d/d/d/f")
	}
}
