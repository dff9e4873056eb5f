package security

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// rootSandbox returns a sandbox over the real folder dir, and over the
// real folder other as a second, read-only root named "other" when other
// is not "" (watching changes nothing: a read-only root is watched).
func rootSandbox(t *testing.T, dir, other string) *Sandbox {
	t.Helper()
	open := func(d string) afero.Fs {
		rfs, err := OpenRoot(d)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rfs.Close() })
		return rfs
	}
	roots := []Root{{Name: "main", Fs: open(dir), HostPath: dir}}
	if other != "" {
		roots = append(roots, Root{Name: "other", Fs: open(other), HostPath: other, ReadOnly: true})
	}
	sb, err := NewRoots(roots, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// changes returns a function that signals on the returned channel.
func changes() (func(), chan struct{}) {
	ch := make(chan struct{}, 100)
	return func() { ch <- struct{}{} }, ch
}

func waitChange(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("no change reported: %s", what)
	}
}

func TestWatchReportsChangesToAFileAndAFolderInsideTheRoots(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "top.txt"), []byte("t"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb := rootSandbox(t, dir, other)
	for _, tc := range []struct {
		path   string // as the model writes it
		change func() error
	}{
		{"main:/src/a.go", func() error { return os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("b"), 0o644) }},
		{"main:/src", func() error { return os.WriteFile(filepath.Join(dir, "src", "new.go"), nil, 0o644) }},
		{"other:/top.txt", func() error { return os.Remove(filepath.Join(other, "top.txt")) }},
		{"other:", func() error { return os.Mkdir(filepath.Join(other, "d"), 0o755) }},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rel, err := sb.Resolve(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			fn, ch := changes()
			stop, err := sb.Watch(rel, fn)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			if err := tc.change(); err != nil {
				t.Fatal(err)
			}
			waitChange(t, ch, tc.path)
		})
	}
	if n := sb.watcher.Watching(); n != 0 {
		t.Fatalf("%d folders still watched after every stop", n)
	}
}

func TestWatchFollowsALinkInsideTheRootToTheFolderItNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	sb := rootSandbox(t, dir, "")
	rel, err := sb.Resolve("link")
	if err != nil {
		t.Fatal(err)
	}
	fn, ch := changes()
	stop, err := sb.Watch(rel, fn)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// Swapping the link for one that leaves the root changes nothing of
	// what is watched: the folder was opened, not its path.
	outside := t.TempDir()
	if err := os.Remove(filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "y"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitChange(t, ch, "a file created in the folder the link named")
	select {
	case <-ch:
		t.Fatal("a change outside the root was reported")
	case <-time.After(200 * time.Millisecond):
	}
}

func TestWatchRefusesWhatItCannotWatchWithASentence(t *testing.T) {
	dir := t.TempDir()
	sb := rootSandbox(t, dir, "")
	_, err := sb.Watch("missing.txt", func() {})
	var pe *PathError
	if !errors.As(err, &pe) || pe.Reason != NotExist {
		t.Fatalf("a missing file: %v", err)
	}
	mem := NewSandbox(afero.NewMemMapFs(), SandboxOptions{})
	if err := afero.WriteFile(mem.Fs(), "f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = mem.Watch("f", func() {})
	if !errors.As(err, &pe) || pe.Reason != Unwatchable || pe.Error() != "cannot watch \"f\": its root's file system does not report changes; read it again" {
		t.Fatalf("a file system in memory: %v", err)
	}
}

// TestWatchFollowsALinkToAFileToTheFileItNames: a symbolic link to a file
// is watched as the file it names (a write to it is told) and as its own
// entry (pointed elsewhere); a link that leaves the root, or a chain too
// long, is refused as not there.
func TestWatchFollowsALinkToAFileToTheFileItNames(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"sub/real.txt": "a", "other.txt": "o"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"link.txt":  "sub/real.txt",
		"chain.txt": "link.txt",
		"out.txt":   "../" + filepath.Base(outside) + "/secret",
		"abs.txt":   filepath.Join(outside, "secret"),
	}
	for i := range 10 {
		links[fmt.Sprintf("loop%d", i)] = fmt.Sprintf("loop%d", (i+1)%10)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	sb := rootSandbox(t, dir, "")
	for _, name := range []string{"link.txt", "chain.txt"} {
		fn, ch := changes()
		stop, err := sb.Watch(name, fn)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "sub", "real.txt"), []byte("changed"), 0o644); err != nil {
			t.Fatal(err)
		}
		waitChange(t, ch, "the file "+name+" names, written")
		stop()
	}
	fn, ch := changes()
	stop, err := sb.Watch("link.txt", fn)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	waitChange(t, ch, "the link pointed elsewhere")
	stop()
	for _, name := range []string{"out.txt", "abs.txt", "loop0"} {
		var pe *PathError
		if _, err := sb.Watch(name, func() {}); !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
	if n := sb.watcher.Watching(); n != 0 {
		t.Fatalf("%d folders still watched", n)
	}
}

// TestAFolderMovedOutOfTheRootWithItsParentIsNoLongerTold: a watched
// folder whose parent is moved out of the root tells its watcher once
// and then nothing of what happens to it outside.
func TestAFolderMovedOutOfTheRootWithItsParentIsNoLongerTold(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb := rootSandbox(t, dir, "")
	var n atomic.Int32
	told := make(chan struct{}, 100)
	stop, err := sb.Watch("a/b", func() { n.Add(1); told <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := os.Rename(filepath.Join(dir, "a"), filepath.Join(outside, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "a", "b", "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitChange(t, told, "the folder found outside the root")
	if err := os.WriteFile(filepath.Join(outside, "a", "b", "y"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if got := n.Load(); got != 1 {
		t.Fatalf("told %d times of a folder outside the root, want once (that it left)", got)
	}
}

// TestAWatchInsideTheRootGoesOnTellingChanges: a folder that stays where
// it was opened is not taken for one moved away: each change is told,
// and the folder stays watched.
func TestAWatchInsideTheRootGoesOnTellingChanges(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb := rootSandbox(t, dir, "")
	fn, ch := changes()
	stop, err := sb.Watch("a", fn)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, "a", fmt.Sprint(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		waitChange(t, ch, fmt.Sprintf("change %d", i))
		if n := sb.watcher.Watching(); n != 1 {
			t.Fatalf("after change %d, %d folders watched, want 1", i, n)
		}
	}
}

// TestWatchFollowsNoMoreThanEightLinks: a chain of ten links to a file
// inside the root is refused, as a chain too long.
func TestWatchFollowsNoMoreThanEightLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	prev := "f"
	for i := range 10 {
		name := fmt.Sprintf("l%d", i)
		if err := os.Symlink(prev, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		prev = name
	}
	sb := rootSandbox(t, dir, "")
	var pe *PathError
	if _, err := sb.Watch("l9", func() {}); !errors.As(err, &pe) {
		t.Fatalf("a chain of ten links: %v", err)
	}
	stop, err := sb.Watch("l7", func() {}) // eight links
	if err != nil {
		t.Fatalf("a chain of eight links: %v", err)
	}
	stop()
	if n := sb.watcher.Watching(); n != 0 {
		t.Fatalf("%d folders watched after the refusal", n)
	}
}
