//go:build linux

package filelock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// lockBases returns a folder in each file system at hand that the tests
// verify the locks on: the temporary folder's (ext4 here), the package's
// own folder's when it differs, and /dev/shm (tmpfs) when it exists.
// Each test logs the file systems it ran on.
func lockBases(t testing.TB) []base {
	t.Helper()
	var list []base
	seen := map[int64]bool{}
	wd, _ := os.Getwd()
	for _, dir := range []string{os.TempDir(), wd, "/dev/shm"} {
		var st unix.Statfs_t
		if err := unix.Statfs(dir, &st); err != nil || seen[int64(st.Type)] {
			continue
		}
		seen[int64(st.Type)] = true
		list = append(list, base{fs: fsName(int64(st.Type)), dir: dir})
	}
	return list
}

// fsName names the file system of a statfs magic number.
func fsName(magic int64) string {
	switch magic {
	case unix.EXT4_SUPER_MAGIC:
		return "ext4"
	case unix.TMPFS_MAGIC:
		return "tmpfs"
	case unix.XFS_SUPER_MAGIC:
		return "xfs"
	case unix.BTRFS_SUPER_MAGIC:
		return "btrfs"
	case unix.NFS_SUPER_MAGIC:
		return "nfs"
	case unix.OVERLAYFS_SUPER_MAGIC:
		return "overlay"
	}
	return fmt.Sprintf("fs-%#x", magic)
}

// holderEnv hands TestHelperHoldsALock, run in a child process, the lock
// directory and the key to hold, separated by newlines.
const holderEnv = "FILELOCK_TEST_HOLD"

// TestHelperHoldsALock is not a test: run as a child process by the tests
// below, it takes the lock that holderEnv names, says "held" on stdout,
// and lets it go when its stdin ends.
func TestHelperHoldsALock(t *testing.T) {
	spec := os.Getenv(holderEnv)
	if spec == "" {
		t.Skip("a child process of the tests of locks held by other processes")
	}
	parts := strings.Split(spec, "\n")
	ino, _ := strconv.ParseUint(parts[1], 10, 64)
	tb, err := Open(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := tb.Lock(context.Background(), []Key{{Dev: 99, Ino: ino, Name: parts[2]}})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("held")
	_, _ = io.Copy(io.Discard, os.Stdin)
	unlock()
}

// holder is a child process holding a lock.
type holder struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	exited chan struct{} // closed once the child has exited, with err set
	err    error
}

// wait returns how the child exited.
func (h *holder) wait() error {
	<-h.exited
	return h.err
}

// hold starts a child process that takes the lock of k in dir, and
// returns once it holds it. The device number the child gives is its own,
// as a client of NFS numbers devices its own way.
func hold(t *testing.T, dir string, k Key) *holder {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldsALock$")
	cmd.Env = append(os.Environ(), holderEnv+"="+dir+"\n"+strconv.FormatUint(k.Ino, 10)+"\n"+k.Name)
	cmd.Stderr = os.Stderr
	// A child stuck in Lock never reads its stdin's end: it must die with
	// the test, even one killed at a timeout (as mutation testing does).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &holder{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = h.wait()
	})
	held := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		said := false
		for sc.Scan() {
			if !said && sc.Text() == "held" {
				held <- true
				said = true
			}
		}
		h.err = cmd.Wait()
		close(h.exited)
	}()
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the child process did not take the lock")
	}
	return h
}

func TestALockHeldByAnotherProcessIsWaitedForUntilReleased(t *testing.T) {
	for _, b := range lockBases(t) {
		t.Run(b.fs, func(t *testing.T) {
			dir := tempDirIn(t, b.dir)
			tb := mustOpen(t, dir)
			h := hold(t, dir, keyA)
			got := lockAsync(t, tb, keyA)
			stillWaiting(t, got, "another process held it")
			// Another file of the folder is free.
			u, err := tb.Lock(context.Background(), []Key{keyB})
			if err != nil {
				t.Fatal(err)
			}
			u()
			h.stdin.Close()
			take(t, got)()
			if err := h.wait(); err != nil {
				t.Fatalf("the child failed: %v", err)
			}
			empty(t, tb)
		})
	}
}

func TestALockOfAKilledProcessIsFreeAtOnce(t *testing.T) {
	for _, b := range lockBases(t) {
		t.Run(b.fs, func(t *testing.T) {
			dir := tempDirIn(t, b.dir)
			tb := mustOpen(t, dir)
			h := hold(t, dir, keyA)
			got := lockAsync(t, tb, keyA)
			stillWaiting(t, got, "another process held it")
			killed := time.Now()
			if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			take(t, got)()
			t.Logf("%s: taken %v after the holder's SIGKILL", b.fs, time.Since(killed))
		})
	}
}

func TestAWaitForAnotherProcessEndsAtTheMargin(t *testing.T) {
	for _, b := range lockBases(t) {
		t.Run(b.fs, func(t *testing.T) {
			dir := tempDirIn(t, b.dir)
			tb := mustOpen(t, dir)
			h := hold(t, dir, keyA)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			_, err := tb.Lock(ctx, []Key{keyB, keyA})
			var busy *BusyError
			if !errors.As(err, &busy) || busy.Index != 1 {
				t.Fatalf("err = %v, want a BusyError of key 1", err)
			}
			// The abandoned wait ends once the child lets go, and leaves
			// nothing behind.
			h.stdin.Close()
			_ = h.wait()
			eventuallyEmpty(t, tb)
			u, err := tb.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Fatal(err)
			}
			u()
		})
	}
}

func TestAWaitGivenUpHoldsOneThreadWhateverTheCallersThatGiveUp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks.d")
	a, b := mustOpen(t, dir), mustOpen(t, dir)
	unlock, err := a.Lock(context.Background(), []Key{keyA})
	if err != nil {
		t.Fatal(err)
	}
	// The first caller gives up in the kernel's wait; its goroutine keeps
	// the key in b, so the next callers give up in b's own line.
	for range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := b.Lock(ctx, []Key{keyA})
		cancel()
		var busy *BusyError
		if !errors.As(err, &busy) {
			t.Fatalf("err = %v, want a BusyError", err)
		}
	}
	b.mu.Lock()
	q := b.held[keyA]
	b.mu.Unlock()
	if q == nil || len(q.waiters) != 0 {
		t.Fatalf("b holds %v for keyA, want the key held by the one abandoned wait", q)
	}
	unlock()
	eventuallyEmpty(t, b)
}

func TestAWaiterThatGetsALockFileRemovedMeanwhileTakesTheNewOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks.d")
	a, b, c := mustOpen(t, dir), mustOpen(t, dir), mustOpen(t, dir)
	unlock, err := a.Lock(context.Background(), []Key{keyA})
	if err != nil {
		t.Fatal(err)
	}
	got := lockAsync(t, b, keyA)
	stillWaiting(t, got, "another table held it")
	// A cleaner removes the lock file; c makes a new one and locks keyA
	// there, unaware of a.
	if err := os.Remove(filepath.Join(dir, fileName)); err != nil {
		t.Fatal(err)
	}
	unlockC, err := c.Lock(context.Background(), []Key{keyA})
	if err != nil {
		t.Fatal(err)
	}
	// b gets the byte on the old file, sees the file is gone, and waits
	// for c on the new one.
	unlock()
	stillWaiting(t, got, "c held it in the new lock file")
	unlockC()
	take(t, got)()
}

func TestOpenPreparesAPrivateDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: os.ModeDir | 0o700, filepath.Join(dir, fileName): 0o600} {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", path, fi.Mode(), want)
		}
	}
}

func TestOpenRefusesADirectoryOthersCouldChange(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, perm os.FileMode) string {
		d := filepath.Join(tmp, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, perm); err != nil {
			t.Fatal(err)
		}
		return d
	}
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(mk("target", 0o700), link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir, want string
	}{
		{"group-writable", mk("group", 0o770), "can be written by its group or others (mode 0770)"},
		{"world-writable", mk("world", 0o777|os.ModeSticky), "can be written by its group or others (mode 1777)"},
		{"a file", file, "is not a directory"},
		{"a symbolic link", link, "is not a directory"},
		{"no parent", filepath.Join(tmp, "no", "such"), "no such file or directory"},
	}
	if os.Geteuid() == 0 {
		other := mk("other", 0o700)
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ name, dir, want string }{"another user's", other, "belongs to user 65534, not to this user (0)"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(c.dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
}
