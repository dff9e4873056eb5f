package server

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"
)

// exclusiveWeight is what an Exclusive call takes of the server's
// exclusive lock: all of it, where every other call takes one.
const exclusiveWeight = 1 << 40

// newExclusive returns the exclusive lock of a server: a weighted
// semaphore, first come first served, so that an Exclusive call waiting
// holds back the calls after it and is never starved by them.
func newExclusive() *semaphore.Weighted { return semaphore.NewWeighted(exclusiveWeight) }

// exclusivePolicy runs a tool declared [ToolSpec.Exclusive] while no other
// call runs, in the whole server: it waits for the calls running and
// holds the next ones back. Every other call shares the lock, so they run
// side by side. The lock is held for one call at most, and never past
// the end of its context (its deadline, or its client leaving), even by a
// tool that ignores its context: no client can hold the others back
// longer than its call's time. A server without Exclusive tools skips
// the lock.
func (s *Server) exclusivePolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		if !s.tools.exclusive.Load() {
			return next(ctx, c)
		}
		n := int64(1)
		if c.tool.spec.Exclusive {
			n = exclusiveWeight
		}
		if !s.alone.TryAcquire(n) {
			// Wait without the slot: the calls holding the lock may need
			// one to finish.
			c.beginStage(stageWait)
			var err error
			c.Yield(func() { err = s.alone.Acquire(ctx, n) })
			c.endStage(stageWait, err)
			if err != nil {
				// Timed out (the timeout policy answers) or cancelled.
				return nil, refusal(say(c.Lang(), msgShuttingDown, c.Tool))
			}
		}
		var once sync.Once
		release := func() { once.Do(func() { s.alone.Release(n) }) }
		stop := context.AfterFunc(ctx, release)
		defer func() {
			stop()
			release()
		}()
		return next(ctx, c)
	}
}
