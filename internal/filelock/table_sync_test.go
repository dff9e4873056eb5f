package filelock

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// These tests run in a synctest bubble, on the process's own table: time
// there is the bubble's clock, so a wait's end is measured exactly, and
// synctest.Wait says when every caller is blocked in line.

func TestLockGivesUpATenthOfWhatRemainsBeforeAShortDeadline(t *testing.T) {
	cases := []struct {
		deadline, givesUp time.Duration
	}{
		{deadline: 20 * time.Second, givesUp: 19 * time.Second},             // the full Margin
		{deadline: 10 * time.Second, givesUp: 9 * time.Second},              // a tenth is the Margin
		{deadline: 2 * time.Second, givesUp: 1800 * time.Millisecond},       // a tenth of 2 s
		{deadline: 500 * time.Millisecond, givesUp: 450 * time.Millisecond}, // a tenth of 0.5 s
	}
	for _, c := range cases {
		t.Run(c.deadline.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tb := mustOpen(t, "")
				unlock, err := tb.Lock(context.Background(), []Key{keyA})
				if err != nil {
					t.Fatal(err)
				}
				defer unlock()
				ctx, cancel := context.WithTimeout(context.Background(), c.deadline)
				defer cancel()
				start := time.Now()
				_, err = tb.Lock(ctx, []Key{keyA})
				var busy *BusyError
				if !errors.As(err, &busy) {
					t.Fatalf("err = %v, want a BusyError", err)
				}
				if got := time.Since(start); got != c.givesUp {
					t.Fatalf("gave up after %v of %v, want %v", got, c.deadline, c.givesUp)
				}
			})
		})
	}
}

func TestACancelledWaiterLeavesTheWaitersBeforeItInLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb := mustOpen(t, "")
		unlock, err := tb.Lock(context.Background(), []Key{keyA})
		if err != nil {
			t.Fatal(err)
		}
		first := make(chan func(), 1)
		go func() {
			u, err := tb.Lock(context.Background(), []Key{keyA})
			if err != nil {
				t.Error(err)
			}
			first <- u
		}()
		synctest.Wait() // first is in line
		ctx, cancel := context.WithCancel(context.Background())
		second := make(chan error, 1)
		go func() {
			_, err := tb.Lock(ctx, []Key{keyA})
			second <- err
		}()
		synctest.Wait() // second is in line behind first
		cancel()
		synctest.Wait()
		if err := <-second; !errors.Is(err, context.Canceled) {
			t.Fatalf("the cancelled waiter got %v, want context.Canceled", err)
		}
		select {
		case u := <-first:
			u()
			t.Fatal("the first waiter took the key while its holder still had it")
		default:
		}
		unlock()
		synctest.Wait()
		(<-first)()
		empty(t, tb)
	})
}
