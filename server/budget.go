package server

import (
	"context"

	"golang.org/x/sync/semaphore"
)

// This file is the server's memory budget: bytes that the calls in flight
// share for their data (the text of a file read, say). A tool reserves
// what it is about to hold with [Call.Reserve]; when the budget is spent,
// the next call waits for calls to finish, in the order they asked, so
// that many heavy calls at once queue rather than multiply.

// DefaultMemoryBudget is the budget of a server whose options set none:
// room for three reads of read_file's 4 MiB limit at once, or fifteen of
// 1 MiB. More buys no speed: the answers of one session leave through one
// output, a line at a time, so a call holding a large text beyond those
// only waits for the output with it; and every byte held is about two in
// the process, with what the collector has yet to free. With 128 MiB,
// sixteen reads of 4 MiB at once took the process to 140 MiB (issue 14
// asks for 80); with 16 MiB, to 37 MiB, at the same calls per second.
const DefaultMemoryBudget = 16 << 20

// Reserve waits until n bytes of the server's memory budget
// ([Options.MemoryBudget]) are free and holds them for the call until it
// has been answered and its handler has returned, or until the tool's
// function returns an error (no data is kept from a failed run). A call
// may reserve several times; a reservation larger than the whole budget
// is cut to it, so a call is never refused for its size alone. While it
// waits, the call gives back its slot. The error, when ctx ends first, is a sentence
// the model can read.
func (c *Call) Reserve(ctx context.Context, n int64) error {
	if c == nil || n <= 0 || c.srv == nil {
		return nil
	}
	b := c.srv.budget
	n = min(n, c.srv.opts.MemoryBudget)
	if !b.TryAcquire(n) {
		// A call never holds memory while it waits for more, or two calls
		// growing their reservations could each wait for what the other
		// holds: what it holds is given back, and waited for again with
		// the rest.
		c.mu.Lock()
		held := c.reserved
		c.reserved = 0
		c.mu.Unlock()
		if held > 0 {
			b.Release(held)
		}
		n = min(held+n, c.srv.opts.MemoryBudget)
		var err error
		c.Yield(func() { err = b.Acquire(ctx, n) })
		if err != nil {
			return refusal(say(c.Lang(), msgMemoryWait, c.Tool))
		}
	}
	c.mu.Lock()
	c.reserved += n
	c.mu.Unlock()
	return nil
}

// releaseMemory gives back what the call reserved.
func (c *Call) releaseMemory() { c.releaseMemoryAbove(0) }

// heldMemory returns what the call holds of the memory budget.
func (c *Call) heldMemory() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reserved
}

// releaseMemoryAbove gives back what the call holds beyond keep bytes:
// what a run of its tool that failed reserved on top of what was held
// before it.
func (c *Call) releaseMemoryAbove(keep int64) {
	c.mu.Lock()
	n := c.reserved - keep
	if n > 0 {
		c.reserved = keep
	}
	c.mu.Unlock()
	if n > 0 {
		c.srv.budget.Release(n)
	}
}

// newBudget returns the memory budget of a server.
func newBudget(size int64) *semaphore.Weighted { return semaphore.NewWeighted(size) }
