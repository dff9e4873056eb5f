//go:build unix

package security

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// The swap race: inside the root, "d" is a real folder holding f.txt, and
// two prepared symbolic links, d-rel -> ../outside and d-abs -> an absolute
// path to the same folder, wait beside it. One goroutine swaps d with a
// link and back, over and over, with os.Rename; meanwhile two others read,
// write, create, remove, stat and list d/... through the sandbox and its
// afero.Fs. Outside, f.txt holds swapMarker and only-outside.txt exists:
// a read that returns the marker, a listing that shows only-outside.txt or
// a Stat that finds it, and any change outside, is an escape.
const (
	swapMarker      = "OUTSIDE THE ROOT: this must never be read"
	swapOutsideOnly = "only-outside.txt"
	// swapMinRun is how long the race runs at least; swapMaxRun bounds it
	// when the operations have not yet met both states of d.
	swapMinRun = 300 * time.Millisecond
	swapMaxRun = 5 * time.Second
)

// swapStats counts what the racing operations met.
type swapStats struct {
	swaps   atomic.Int64 // d replaced by a link and put back
	ok      atomic.Int64 // operations on d/... that succeeded
	refused atomic.Int64 // operations refused as leading out of the root
	other   atomic.Int64 // other failures: d missing mid-swap, a file already there

	mu    sync.Mutex
	leaks []string // what was read, listed or found outside the root
}

func (s *swapStats) leak(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.leaks) < 10 {
		s.leaks = append(s.leaks, fmt.Sprintf(format, args...))
	}
}

func (s *swapStats) leaked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.leaks)
}

// count classifies the outcome of one operation.
func (s *swapStats) count(err error) {
	pe, isPathErr := errors.AsType[*PathError](err)
	switch {
	case err == nil:
		s.ok.Add(1)
	case isEscape(err), isPathErr && pe.Reason == LinkOutside:
		s.refused.Add(1)
	default:
		s.other.Add(1)
	}
}

// newSwapTree builds the test tree plus the swap's folder, links and
// marker files.
func newSwapTree(t *testing.T) *testTree {
	t.Helper()
	tt := newTestTree(t)
	outside := filepath.Join(tt.base, "outside")
	for name, data := range map[string]string{
		filepath.Join(outside, "f.txt"):         swapMarker,
		filepath.Join(outside, swapOutsideOnly): swapMarker,
		filepath.Join(tt.root, "d", "f.txt"):    "inside",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside", filepath.Join(tt.root, "d-rel")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(tt.root, "d-abs")); err != nil {
		t.Fatal(err)
	}
	return tt
}

// swapRace runs the race against sb (and its Fs) until enough says the
// operations have seen what they should, after at least swapMinRun and at
// most swapMaxRun. Every goroutine has stopped when it returns.
func swapRace(t *testing.T, root string, sb *Sandbox, enough func(*swapStats) bool) *swapStats {
	t.Helper()
	fsys := sb.Fs()
	st := &swapStats{}
	var stop atomic.Bool
	var wg sync.WaitGroup

	// The attacker: d becomes a link out of the root, then a folder again.
	wg.Go(func() {
		at := func(name string) string { return filepath.Join(root, name) }
		for i := 0; !stop.Load(); i++ {
			link := "d-rel"
			if i%2 == 1 {
				link = "d-abs"
			}
			for _, mv := range [][2]string{{"d", "d-real"}, {link, "d"}, {"d", link}, {"d-real", "d"}} {
				if err := os.Rename(at(mv[0]), at(mv[1])); err != nil {
					t.Errorf("swap: %v", err)
					stop.Store(true)
					return
				}
			}
			st.swaps.Add(1)
		}
	})

	// A model reading: files, listings and file information under d.
	wg.Go(func() {
		check := func(op, data string) {
			if strings.Contains(data, swapMarker) {
				st.leak("%s returned the content of the file outside: %q", op, data)
			}
		}
		for !stop.Load() {
			f, _, err := sb.OpenRead("d/f.txt", false)
			st.count(err)
			if err == nil {
				data, _ := io.ReadAll(f)
				f.Close()
				check("Sandbox.OpenRead(d/f.txt)", string(data))
			}

			data, err := afero.ReadFile(fsys, "d/f.txt")
			st.count(err)
			check("ReadFile(d/f.txt)", string(data))

			infos, err := afero.ReadDir(fsys, "d")
			st.count(err)
			for _, fi := range infos {
				if fi.Name() == swapOutsideOnly {
					st.leak("ReadDir(d) listed the folder outside")
				}
			}

			dir, _, err := sb.OpenRead("d", true)
			st.count(err)
			if err == nil {
				names, _ := dir.Readdirnames(-1)
				dir.Close()
				if slices.Contains(names, swapOutsideOnly) {
					st.leak("Sandbox.OpenRead(d).Readdirnames listed the folder outside")
				}
			}

			if _, err := fsys.Stat("d/" + swapOutsideOnly); err == nil {
				st.leak("Stat(d/%s) found the file outside", swapOutsideOnly)
			}
		}
	})

	// A model writing: overwrite, create, remove, make a folder under d.
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			f, err := sb.OpenWrite("d/f.txt", os.O_WRONLY|os.O_TRUNC, 0)
			st.count(err)
			if err == nil {
				fmt.Fprintf(f, "inside %d", i)
				f.Close()
			}
			st.count(afero.WriteFile(fsys, "d/new.txt", []byte("new"), 0o644))
			st.count(fsys.Remove("d/new.txt"))
			st.count(fsys.Mkdir("d/sub", 0o755))
			st.count(fsys.Remove("d/sub"))
		}
	})

	start := time.Now()
	for !stop.Load() {
		time.Sleep(10 * time.Millisecond)
		if run := time.Since(start); run >= swapMaxRun || run >= swapMinRun && enough(st) {
			stop.Store(true)
		}
	}
	wg.Wait()
	return st
}

// TestSwapBetweenCheckAndUse backs docs/security.md's claim that os.Root refuses
// swaps between check and use: while a folder inside the root is replaced
// by a symbolic link to outside and back, again and again, reads, writes
// and listings through the sandbox never reach outside.
func TestSwapBetweenCheckAndUse(t *testing.T) {
	tt := newSwapTree(t)
	before := tt.snapshot(t)
	st := swapRace(t, tt.root, tt.sb, func(st *swapStats) bool {
		return st.ok.Load() > 0 && st.refused.Load() > 0 && st.swaps.Load() >= 10
	})
	t.Logf("%d swaps; operations: %d succeeded inside, %d refused as leading out, %d failed otherwise",
		st.swaps.Load(), st.ok.Load(), st.refused.Load(), st.other.Load())
	for _, l := range st.leaked() {
		t.Error(l)
	}
	tt.assertUnchanged(t, before)
	// The test means something only if the race was run: the operations
	// met d as the folder and as a link, many times over.
	if st.swaps.Load() < 10 || st.ok.Load() == 0 || st.refused.Load() == 0 {
		t.Errorf("the race did not happen: %d swaps, %d operations inside, %d refused", st.swaps.Load(), st.ok.Load(), st.refused.Load())
	}
	if data, err := os.ReadFile(filepath.Join(tt.base, "outside", "f.txt")); err != nil || string(data) != swapMarker {
		t.Errorf("the file outside now holds %q, %v", data, err)
	}
}

// TestSwapRaceCatchesAFileSystemThatFollowsLinks runs the same race over
// afero's BasePathFs, which checks names lexically and then lets the
// kernel follow links: the race must catch it leaking, or it could not
// catch RootFs either.
func TestSwapRaceCatchesAFileSystemThatFollowsLinks(t *testing.T) {
	tt := newSwapTree(t)
	sb := NewSandbox(afero.NewBasePathFs(afero.NewOsFs(), tt.root), SandboxOptions{HostRoot: tt.root})
	st := swapRace(t, tt.root, sb, func(st *swapStats) bool { return len(st.leaked()) > 0 })
	leaks := st.leaked()
	if len(leaks) == 0 {
		t.Fatalf("no leak seen through BasePathFs in %d swaps and %d operations", st.swaps.Load(), st.ok.Load()+st.refused.Load()+st.other.Load())
	}
	t.Logf("BasePathFs leaked, as expected: %s", leaks[0])
}
