package watch

import (
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// counter counts the calls of its fn and signals each on a channel.
type counter struct {
	n    atomic.Int32
	hits chan struct{}
}

func newCounter() *counter { return &counter{hits: make(chan struct{}, 1000)} }

func (c *counter) fn() { c.n.Add(1); c.hits <- struct{}{} }

// wait waits for one more call, and fails the test after a generous while.
func (c *counter) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c.hits:
	case <-time.After(10 * time.Second):
		t.Fatalf("no change reported: %s", what)
	}
}

func openDir(t *testing.T, dir string) *os.File {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// watchOf watches the entry name of the folder dir with w, failing the
// test if it cannot, and returns the stop, which the test's end calls
// too (stop runs once).
func watchOf(t *testing.T, w *Watcher, dir, name string, fn func(), still func() bool) func() {
	t.Helper()
	stop, err := w.Watch(openDir(t, dir), name, fn, still)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return stop
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAWatchedFileReportsItsChangesAndNoOtherFilesChanges(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "a")
	var w Watcher
	file, folder := newCounter(), newCounter()
	watchOf(t, &w, dir, "a.txt", file.fn, nil)
	watchOf(t, &w, dir, "", folder.fn, nil)
	if got := w.Watching(); got != 1 {
		t.Fatalf("two watchers of one folder set %d watches, want 1", got)
	}

	// A change to another file reaches the folder's watcher only; the
	// next change to a.txt then finds the file's watcher not called yet.
	write(t, filepath.Join(dir, "b.txt"), "b")
	folder.wait(t, "b.txt created, watched through its folder")
	write(t, filepath.Join(dir, "a.txt"), "changed")
	file.wait(t, "a.txt written")
	if n := file.n.Load(); n < 1 {
		t.Fatalf("a.txt's watcher was called %d times", n)
	}
	for len(file.hits) > 0 {
		<-file.hits
	}

	// An atomic replace (a new file renamed over a.txt) is a change of a.txt.
	tmp := filepath.Join(dir, ".tmp")
	write(t, tmp, "replaced")
	before := file.n.Load()
	if err := os.Rename(tmp, filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	file.wait(t, "a.txt replaced by a rename")
	if file.n.Load() <= before {
		t.Fatal("the rename over a.txt was not reported to its watcher")
	}
}

func TestTheWatchesGoWithTheirLastWatcher(t *testing.T) {
	dir := t.TempDir()
	var w Watcher
	var stops []func()
	for _, name := range []string{"x", "y", "", "x"} {
		stop, err := w.Watch(openDir(t, dir), name, func() {}, nil)
		if err != nil {
			t.Fatal(err)
		}
		stops = append(stops, stop)
	}
	other := t.TempDir()
	stop := watchOf(t, &w, other, "", func() {}, nil)
	stops = append(stops, stop)
	if got := w.Watching(); got != 2 {
		t.Fatalf("watching %d folders, want 2", got)
	}
	for i, stop := range stops {
		stop()
		stop() // a second stop does nothing
		want := 2
		switch {
		case i == len(stops)-1:
			want = 0
		case i >= 3:
			want = 1
		}
		if got := w.Watching(); got != want {
			t.Fatalf("after %d stops: watching %d folders, want %d", i+1, got, want)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sys != nil {
		t.Fatal("the notification instance is kept with nothing watched")
	}
}

func TestAFolderMovedAwayIsReportedToEveryWatcherThenForgotten(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var w Watcher
	file, folder := newCounter(), newCounter()
	stopFile := watchOf(t, &w, dir, "a.txt", file.fn, nil)
	stopFolder := watchOf(t, &w, dir, "", folder.fn, nil)
	if err := os.Rename(dir, filepath.Join(parent, "e")); err != nil {
		t.Fatal(err)
	}
	file.wait(t, "the folder of a.txt moved away")
	folder.wait(t, "the folder moved away")
	if got := w.Watching(); got != 0 {
		t.Fatalf("a folder moved away is still watched (%d)", got)
	}
	// What happens in it now is outside what was watched, and unreported.
	write(t, filepath.Join(parent, "e", "a.txt"), "x")
	stopFile()
	stopFolder()
	if n := file.n.Load(); n != 1 {
		t.Fatalf("a.txt's watcher was called %d times, want once (the move)", n)
	}
}

func TestAFileDeletedWithItsFolderIsReported(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "a.txt"), "a")
	var w Watcher
	file := newCounter()
	watchOf(t, &w, dir, "a.txt", file.fn, nil)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	file.wait(t, "a.txt deleted with its folder")
}

func TestWatchRefusesWhatIsNotAFolderAndClosesIt(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	write(t, name, "x")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	var w Watcher
	if _, err := w.Watch(f, "", func() {}, nil); err == nil {
		t.Fatal("a file was watched as a folder")
	}
	if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("the file given is not closed: %v", err)
	}
	if got := w.Watching(); got != 0 {
		t.Fatalf("watching %d", got)
	}
}

func TestRemoteFileSystemsAreNamedAndLocalOnesNot(t *testing.T) {
	for _, tc := range []struct {
		magic int64
		want  string
	}{
		{unix.NFS_SUPER_MAGIC, "NFS"},
		{unix.SMB_SUPER_MAGIC, "SMB"},
		{unix.SMB2_SUPER_MAGIC, "SMB"},
		{-0xacb2be, "SMB"}, // CIFS's magic read as a signed 32-bit f_type
		{unix.CIFS_SUPER_MAGIC, "SMB"},
		{unix.FUSE_SUPER_MAGIC, "FUSE"},
		{unix.V9FS_MAGIC, "9P"},
		{unix.CEPH_SUPER_MAGIC, "Ceph"},
		{unix.AFS_SUPER_MAGIC, "AFS"},
		{unix.CODA_SUPER_MAGIC, "Coda"},
		{unix.EXT4_SUPER_MAGIC, ""},
		{unix.TMPFS_MAGIC, ""},
		{unix.XFS_SUPER_MAGIC, ""},
		{unix.BTRFS_SUPER_MAGIC, ""},
		{unix.OVERLAYFS_SUPER_MAGIC, ""},
		{0, ""},
	} {
		if got := remoteFS(tc.magic); got != tc.want {
			t.Errorf("remoteFS(%#x) = %q, want %q", tc.magic, got, tc.want)
		}
	}
	e := &UnwatchableError{FS: "NFS"}
	if got := e.Error(); got != "changes on this file system (NFS) are not reported by the operating system" {
		t.Errorf("the error says %q", got)
	}
}

// TestLostEventsAreToldToEveryWatcher: when the system says it lost
// events (its queue overflowed), every watcher of every folder is told,
// since anything may have changed, and the watches stay.
func TestLostEventsAreToldToEveryWatcher(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	write(t, filepath.Join(one, "a.txt"), "a")
	var w Watcher
	file, folder := newCounter(), newCounter()
	watchOf(t, &w, one, "a.txt", file.fn, nil)
	watchOf(t, &w, two, "", folder.fn, nil)
	w.everything() // what the system's goroutine calls on an overflow
	file.wait(t, "a.txt after lost events")
	folder.wait(t, "the second folder after lost events")
	if got := w.Watching(); got != 2 {
		t.Fatalf("%d folders watched after lost events, want 2", got)
	}
}

// TestTwoWatchersOfOneFileKeepTheirWatchesApart: when one of two watchers
// of the same file stops, the other is still told of its changes.
func TestTwoWatchersOfOneFileKeepTheirWatchesApart(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "a")
	var w Watcher
	first, second := newCounter(), newCounter()
	stopFirst := watchOf(t, &w, dir, "a.txt", first.fn, nil)
	watchOf(t, &w, dir, "a.txt", second.fn, nil)
	stopFirst()
	write(t, filepath.Join(dir, "a.txt"), "changed")
	second.wait(t, "a.txt written, its first watcher gone")
	if n := first.n.Load(); n != 0 {
		t.Fatalf("the stopped watcher was told %d times", n)
	}
}

// inotifyInstances counts the inotify instances this process holds.
func inotifyInstances(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && target == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// TestOneInstanceWatchesEveryFolder: however many folders and files are
// watched, the watcher holds one of the system's inotify instances (128
// a user by default), and none once nothing is watched.
func TestOneInstanceWatchesEveryFolder(t *testing.T) {
	before := inotifyInstances(t)
	var w Watcher
	var stops []func()
	for range 3 {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "a.txt"), "a")
		for _, name := range []string{"", "a.txt"} {
			stop, err := w.Watch(openDir(t, dir), name, func() {}, nil)
			if err != nil {
				t.Fatal(err)
			}
			stops = append(stops, stop)
		}
	}
	if got := inotifyInstances(t) - before; got != 1 {
		t.Fatalf("watching 3 folders and 3 files holds %d instances, want 1", got)
	}
	for _, stop := range stops {
		stop()
	}
	if got := inotifyInstances(t) - before; got != 0 {
		t.Fatalf("%d instances held once nothing is watched", got)
	}
}

// TestAFolderWhoseAttributesChangeStaysWatched: chmod or touch of a
// watched folder tells its listing's watchers, and the watches of the
// folder and its files go on.
func TestAFolderWhoseAttributesChangeStaysWatched(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "a")
	var w Watcher
	file, folder := newCounter(), newCounter()
	watchOf(t, &w, dir, "a.txt", file.fn, nil)
	watchOf(t, &w, dir, "", folder.fn, nil)
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	folder.wait(t, "the folder's mode changed")
	now := time.Now().Add(time.Minute)
	if err := os.Chtimes(dir, now, now); err != nil {
		t.Fatal(err)
	}
	folder.wait(t, "the folder touched")
	write(t, filepath.Join(dir, "a.txt"), "changed")
	file.wait(t, "a.txt written after its folder's attributes changed")
	if got := w.Watching(); got != 1 {
		t.Fatalf("%d folders watched after a chmod, want 1", got)
	}
}

// TestAFolderNoLongerWhereItWasIsToldAndForgotten: when still says the
// folder has left the place it was opened from (a parent moved), the
// next change is told to every watcher once, and the folder forgotten:
// nothing of its new place is told.
func TestAFolderNoLongerWhereItWasIsToldAndForgotten(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "a")
	var w Watcher
	var moved atomic.Bool
	file := newCounter()
	watchOf(t, &w, dir, "a.txt", file.fn, func() bool { return !moved.Load() })
	moved.Store(true)
	write(t, filepath.Join(dir, "b.txt"), "b") // not a.txt: told only as the folder left
	file.wait(t, "the folder found elsewhere")
	if got := w.Watching(); got != 0 {
		t.Fatalf("%d folders still watched once found elsewhere", got)
	}
	write(t, filepath.Join(dir, "a.txt"), "changed")
	time.Sleep(50 * time.Millisecond)
	if n := file.n.Load(); n != 1 {
		t.Fatalf("told %d times, want once", n)
	}
}
