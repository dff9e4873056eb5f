package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// setup is a way to hold locks: two tables that must exclude each other,
// as two processes would, and the lock directory they share ("" within
// one process, where both are one table).
type setup struct {
	name string
	a, b *Table
	dir  string
}

// setups returns the process-only table and, where the system has shared
// locks, two tables on one lock directory in each file system at hand
// (see lockBases), which stand for two processes: every Lock opens its
// own description of the file, so two tables exclude each other just as
// two processes do.
func setups(t *testing.T) []setup {
	t.Helper()
	own := mustOpen(t, "")
	list := []setup{{name: "process", a: own, b: own}}
	for _, b := range lockBases(t) {
		dir := filepath.Join(tempDirIn(t, b.dir), "locks.d")
		list = append(list, setup{name: b.fs, a: mustOpen(t, dir), b: mustOpen(t, dir), dir: dir})
	}
	return list
}

// base is a folder in which tests make lock directories, and the name of
// its file system.
type base struct {
	fs, dir string
}

// tempDirIn makes a folder in dir that is removed when the test ends.
func tempDirIn(t testing.TB, dir string) string {
	t.Helper()
	d, err := os.MkdirTemp(dir, "filelock-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func mustOpen(t *testing.T, dir string) *Table {
	t.Helper()
	tb, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// empty fails t unless tb holds no key and no one waits for one.
func empty(t *testing.T, tb *Table) {
	t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if len(tb.held) != 0 {
		t.Fatalf("the table still holds %d keys: %v", len(tb.held), tb.held)
	}
}

// eventuallyEmpty waits, up to 10 s, for tb to hold nothing, as it must
// once the waits it gave up have ended.
func eventuallyEmpty(t *testing.T, tb *Table) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		tb.mu.Lock()
		n := len(tb.held)
		tb.mu.Unlock()
		if n == 0 {
			return
		}
	}
	empty(t, tb)
}

// lockAsync locks keys on tb on a goroutine and returns the channel that
// carries the release function once it holds them.
func lockAsync(t *testing.T, tb *Table, keys ...Key) <-chan func() {
	t.Helper()
	got := make(chan func(), 1)
	go func() {
		unlock, err := tb.Lock(context.Background(), keys)
		if err != nil {
			t.Error(err)
			close(got)
			return
		}
		got <- unlock
	}()
	return got
}

// stillWaiting fails t if the lock came within a short while.
func stillWaiting(t *testing.T, got <-chan func(), why string) {
	t.Helper()
	select {
	case unlock := <-got:
		unlock()
		t.Fatalf("the lock was taken while %s", why)
	case <-time.After(50 * time.Millisecond):
	}
}

func take(t *testing.T, got <-chan func()) func() {
	t.Helper()
	select {
	case unlock, ok := <-got:
		if !ok {
			t.FailNow()
		}
		return unlock
	case <-time.After(10 * time.Second):
		t.Fatal("the lock was not taken within 10 s of its release")
		return nil
	}
}

var (
	keyA = Key{Dev: 1, Ino: 10, Name: "a.txt"}
	keyB = Key{Dev: 1, Ino: 10, Name: "b.txt"}
	keyC = Key{Dev: 1, Ino: 11, Name: "a.txt"}
)

func TestLockExcludesAnotherHolderOfTheKeyUntilReleased(t *testing.T) {
	for _, s := range setups(t) {
		t.Run(s.name, func(t *testing.T) {
			unlock, err := s.a.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Fatal(err)
			}
			got := lockAsync(t, s.b, keyA)
			stillWaiting(t, got, "another holder had it")
			// Other keys are not held up, in the same folder or with the
			// same name in another.
			for _, k := range []Key{keyB, keyC} {
				u, err := s.b.Lock(context.Background(), []Key{k})
				if err != nil {
					t.Fatal(err)
				}
				u()
			}
			unlock()
			unlock() // a second call does nothing
			take(t, got)()
			empty(t, s.a)
			empty(t, s.b)
		})
	}
}

func TestLockServesWaitersOfAProcessFirstComeFirstServed(t *testing.T) {
	tb := mustOpen(t, "")
	unlock, err := tb.Lock(context.Background(), []Key{keyA})
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			u, err := tb.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			u()
		})
		// The next one comes only once this one is in line.
		for waiting := 0; waiting <= i; time.Sleep(100 * time.Microsecond) {
			tb.mu.Lock()
			waiting = len(tb.held[keyA].waiters)
			tb.mu.Unlock()
		}
	}
	unlock()
	wg.Wait()
	for i, w := range order {
		if w != i {
			t.Fatalf("served in the order %v", order)
		}
	}
	empty(t, tb)
}

func TestLockCancelledReturnsAtOnceAndLeavesNothingHeld(t *testing.T) {
	for _, s := range setups(t) {
		t.Run(s.name, func(t *testing.T) {
			unlock, err := s.a.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			// keyB is taken first, then given back.
			if _, err := s.b.Lock(ctx, []Key{keyA, keyB}); !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			u, err := s.b.Lock(context.Background(), []Key{keyB})
			if err != nil {
				t.Fatal(err)
			}
			u()
			unlock()
			eventuallyEmpty(t, s.a)
			eventuallyEmpty(t, s.b)
			// And keyA is free again for both.
			u, err = s.b.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Fatal(err)
			}
			u()
		})
	}
}

func TestLockGivesUpAtTheMarginBeforeTheDeadline(t *testing.T) {
	for _, s := range setups(t) {
		t.Run(s.name, func(t *testing.T) {
			unlock, err := s.a.Lock(context.Background(), []Key{keyB})
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			_, err = s.b.Lock(ctx, []Key{keyC, keyA, keyB})
			var busy *BusyError
			if !errors.As(err, &busy) || busy.Index != 2 {
				t.Fatalf("err = %v, want a BusyError of key 2", err)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatal("a BusyError reads as the caller's deadline, which it comes before")
			}
			// keyA and keyC, taken before the wait, were given back.
			u, err := s.b.Lock(context.Background(), []Key{keyA, keyC})
			if err != nil {
				t.Fatal(err)
			}
			u()
		})
	}
}

func TestLockGivesUpAtOnceWhenTheDeadlineHasPassed(t *testing.T) {
	for _, s := range setups(t) {
		t.Run(s.name, func(t *testing.T) {
			unlock, err := s.a.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
			defer cancel()
			var busy *BusyError
			if _, err := s.b.Lock(ctx, []Key{keyA}); !errors.As(err, &busy) {
				t.Fatalf("err = %v, want a BusyError", err)
			}
			// A free key is taken whatever the context says.
			u, err := s.b.Lock(ctx, []Key{keyB})
			if err != nil {
				t.Fatal(err)
			}
			u()
		})
	}
}

func TestKeysAtOneOffsetShareItsByte(t *testing.T) {
	tb := mustOpen(t, "")
	tb.offset = func(k Key) int64 { return int64(len(k.Name)) }
	keys := []Key{keyB, {Ino: 0, Name: "x"}, keyC, keyA}
	got := tb.spans(keys, sortedKeys(keys))
	want := "[{5 [3 0 2]}]" // a.txt, b.txt, a.txt: one byte, in the keys' order; no identity, no byte
	if fmt.Sprint(got) != want {
		t.Fatalf("spans %v, want %s", got, want)
	}
}

func TestKeysAtOneOffsetTakeTurns(t *testing.T) {
	for _, s := range setups(t)[1:] {
		t.Run(s.name, func(t *testing.T) {
			for _, tb := range []*Table{s.a, s.b} {
				tb.offset = func(Key) int64 { return 42 }
			}
			unlock, err := s.a.Lock(context.Background(), []Key{keyA, keyB})
			if err != nil {
				t.Fatal(err)
			}
			got := lockAsync(t, s.b, keyC)
			stillWaiting(t, got, "another key at its offset was held")
			unlock()
			take(t, got)()
		})
	}
}

func TestCrossingKeySetsNeverWaitInACircle(t *testing.T) {
	keyD := Key{Dev: 1, Ino: 11, Name: "b.txt"}
	// keyA comes before keyB among the keys and after it in the file, and
	// keyC and keyD share their bytes the other way round: each layer
	// must keep an order of its own.
	offsets := map[Key]int64{keyA: 2, keyB: 1, keyC: 1, keyD: 2}
	calls := []struct {
		set  string
		keys []Key
	}{
		{"AB", []Key{keyA, keyB}},
		{"AB", []Key{keyB, keyA}},
		{"CD", []Key{keyD, keyC}},
		{"CD", []Key{keyC, keyD}},
	}
	for _, s := range setups(t) {
		t.Run(s.name, func(t *testing.T) {
			for _, tb := range []*Table{s.a, s.b} {
				tb.offset = func(k Key) int64 { return offsets[k] }
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var wg sync.WaitGroup
			var in sync.Map
			for g := range 8 {
				wg.Go(func() {
					tb, c := s.a, calls[g%len(calls)]
					if g%2 == 1 {
						tb = s.b
					}
					for range 200 {
						unlock, err := tb.Lock(ctx, c.keys)
						if err != nil {
							t.Errorf("goroutine %d: %v (a circle of waits?)", g, err)
							return
						}
						if _, dup := in.LoadOrStore(c.set, g); dup {
							t.Errorf("two holders of %s at once", c.set)
						}
						in.Delete(c.set)
						unlock()
					}
				})
			}
			wg.Wait()
			empty(t, s.a)
			empty(t, s.b)
		})
	}
}

func TestAWaitGivesUpAMarginBeforeItsCallersDeadline(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		left, margin time.Duration
	}{
		{30 * time.Second, Margin}, // the whole margin
		{10 * time.Second, Margin}, // a tenth is the margin exactly
		{5 * time.Second, 500 * time.Millisecond},
		{300 * time.Millisecond, 30 * time.Millisecond},
		{0, 0},                                  // at the deadline: nothing left to leave
		{-time.Second, -100 * time.Millisecond}, // past it: the wait is over already
	} {
		if got := now.Add(tc.left).Sub(giveUpAt(now.Add(tc.left), now)); got != tc.margin {
			t.Errorf("%v left: gives up %v before the deadline, want %v", tc.left, got, tc.margin)
		}
	}
}
