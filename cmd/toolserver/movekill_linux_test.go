package main

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/internal/testmount"
)

// TestAKilledMoveAcrossFileSystemsLosesNothing kills the server with
// SIGKILL at random moments of moves between the root and a tmpfs
// mounted in it, both ways, where the kernel's rename fails with EXDEV
// and move_file copies, then deletes. It needs a mount namespace and the
// right to mount (see internal/testmount), and is skipped otherwise.
func TestAKilledMoveAcrossFileSystemsLosesNothing(t *testing.T) {
	t.Setenv(binaryEnv, binary) // the child runs the binary built here
	if !testmount.Isolate(t) {
		return
	}
	root := t.TempDir()
	mnt, back := filepath.Join(root, "mnt"), filepath.Join(root, "back")
	for _, d := range []string{mnt, back} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testmount.Tmpfs(t, mnt)
	args := []string{"--root", root}
	t.Run("into the mount", func(t *testing.T) { killDuringMoves(t, args, root, ".", mnt, "mnt") })
	t.Run("out of the mount", func(t *testing.T) { killDuringMoves(t, args, mnt, "mnt", back, "back") })
}

// killDuringMoves moves a large file, then a directory tree, from the
// host directory from to the host directory to, which must be on
// different file systems, with the binary started with args; fromRel and
// toRel are their root-relative names for it. It first times a move that
// runs to its end, then kills the server with SIGKILL at moments ever
// later, with random jitter, until a move runs to its end, then at random
// moments up to that time (half of them in its last quarter, where the
// original is deleted), and checks after each kill that nothing
// was lost: the source is whole or the destination is whole, never is
// part of an entry under the destination's name, and the only other thing
// left beside the destination is a .toolserver-*.tmp entry. A kill after
// the copy was put in place may leave both, the source whole or partly
// deleted.
//
// It is written for any two directories a move crosses file systems
// between: a mount point inside one root, or, once the sandbox holds
// several, two roots.
func killDuringMoves(t *testing.T, args []string, from, fromRel, to, toRel string) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	kills := 10
	if testing.Short() {
		kills = 3
	}
	for _, entry := range []struct {
		name string
		make func(p string) // the same content each time
	}{
		{"big.bin", func(p string) { writeRandom(t, rand.New(rand.NewPCG(1, 1)), p, 16<<20) }},
		{"tree", func(p string) { makeTree(t, rand.New(rand.NewPCG(1, 2)), p) }},
	} {
		src, dst := filepath.Join(from, entry.name), filepath.Join(to, entry.name)
		entry.make(src)
		want := snapshotEntry(t, src)
		request := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"move_file","arguments":{"source":%q,"destination":%q}}}`,
			filepath.ToSlash(filepath.Join(fromRel, entry.name)), filepath.ToSlash(filepath.Join(toRel, entry.name)))

		// One move to its end, to learn how long one takes.
		p := startInitialized(t, args)
		began := time.Now()
		p.send(request)
		if l := p.recv(); !strings.Contains(l, "different file systems") && !strings.Contains(l, "different roots") || strings.Contains(l, `"isError":true`) {
			t.Fatalf("the move did not cross file systems: %.400s", l)
		}
		full := time.Since(began)
		p.finish()
		if got := snapshotEntry(t, dst); !equalSnapshots(got, want) || snapshotEntry(t, src) != nil {
			t.Fatalf("%s: the move that ran to its end left the source %v and the destination %v", entry.name, snapshotEntry(t, src) != nil, got != nil)
		}
		t.Logf("%s: one move takes %v", entry.name, full)

		// Kill ever later, with jitter, until a move runs to its end: the
		// runs before cover every stage of the move, whose time varies
		// from run to run. Then, up to kills runs in all, kill at random
		// moments up to that last delay.
		outcomes := map[string]int{}
		var delay, last time.Duration
		for n := 0; n < kills || last == 0; n++ {
			switch {
			case last != 0 && n%2 == 0:
				delay = time.Duration(rng.Int64N(int64(last) + 1))
			case last != 0:
				// Near the end, where the original is being deleted.
				delay = last*3/4 + time.Duration(rng.Int64N(int64(last/4)+1))
			case delay > 20*time.Second:
				t.Fatalf("%s: no move ran to its end, even when killed after %v", entry.name, delay)
			default:
				delay = delay*3/2 + time.Millisecond + time.Duration(rng.Int64N(int64(full/8)+1))
			}
			clearEntries(t, to, entry.name)
			clearEntries(t, from, entry.name)
			entry.make(src)
			p := startInitialized(t, args)
			p.send(request)
			time.Sleep(delay)
			_ = p.cmd.Process.Kill()
			<-p.waited
			outcome := checkAfterKill(t, src, dst, to, entry.name, want)
			if t.Failed() {
				t.Fatalf("%s killed after %v (a whole move took %v)", entry.name, delay, full)
			}
			outcomes[outcome]++
			if outcome == "done" && last == 0 {
				last = delay
			}
		}
		t.Logf("%s: kills up to %v left %v", entry.name, last, outcomes)
		clearEntries(t, to, entry.name)
		clearEntries(t, from, entry.name)
	}
}

// checkAfterKill checks what a killed move of src to dst left, and names
// it: "not begun or undone" (the source whole, no destination),
// "both" (the destination whole, the source whole or in part) or "done".
func checkAfterKill(t *testing.T, src, dst, to, name string, want map[string]string) string {
	t.Helper()
	gotSrc, gotDst := snapshotEntry(t, src), snapshotEntry(t, dst)
	entries, err := os.ReadDir(to)
	if err != nil {
		t.Fatal(err)
	}
	temps := 0
	for _, e := range entries {
		switch n := e.Name(); {
		case n == name:
		case strings.HasPrefix(n, ".toolserver-") && strings.HasSuffix(n, ".tmp"):
			temps++
		default:
			t.Errorf("the kill left %q beside the destination", n)
		}
	}
	srcWhole := equalSnapshots(gotSrc, want)
	switch {
	case gotDst != nil && !equalSnapshots(gotDst, want):
		t.Errorf("the destination holds part of the entry: %d of %d paths, or changed content", len(gotDst), len(want))
	case gotDst == nil && !srcWhole:
		t.Errorf("neither the source (%d of %d paths) nor the destination is whole", len(gotSrc), len(want))
	case gotDst == nil:
		return fmt.Sprintf("not begun or undone (%d temporary)", temps)
	case gotSrc != nil:
		return "both"
	}
	return "done"
}

// snapshotEntry describes the file or tree p: each path below it (p
// itself as ".") with its type, permissions and, for a file, its size and
// CRC of its content, for a link its target. It returns nil if p does not
// exist.
func snapshotEntry(t *testing.T, p string) map[string]string {
	t.Helper()
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	snap := map[string]string{}
	err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p, q)
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := info.Mode().String()
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(q)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %d %08x", len(b), crc32.ChecksumIEEE(b))
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(q)
			if err != nil {
				return err
			}
			desc += " -> " + target
		}
		snap[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func equalSnapshots(a, b map[string]string) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// clearEntries removes name and every temporary entry of a move from dir.
func clearEntries(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n == name || strings.HasPrefix(n, ".toolserver-") {
			if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// writeRandom writes size random bytes to the new file p.
func writeRandom(t *testing.T, rng *rand.Rand, p string, size int) {
	t.Helper()
	b := make([]byte, size)
	for i := 0; i < size; i += 8 {
		v := rng.Uint64()
		for j := 0; j < 8 && i+j < size; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	if err := os.WriteFile(p, b, 0o640); err != nil {
		t.Fatal(err)
	}
}

// makeTree makes the directory p with 120 files of 64 KiB in nested
// directories, a symbolic link and an empty directory.
func makeTree(t *testing.T, rng *rand.Rand, p string) {
	t.Helper()
	for i := range 120 {
		dir := filepath.Join(p, fmt.Sprintf("d%d", i%6), fmt.Sprintf("e%d", i%4))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeRandom(t, rng, filepath.Join(dir, fmt.Sprintf("f%03d", i)), 64<<10)
	}
	if err := os.Mkdir(filepath.Join(p, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d0/e0/f000", filepath.Join(p, "link")); err != nil {
		t.Fatal(err)
	}
}
