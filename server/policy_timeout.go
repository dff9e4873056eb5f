package server

import (
	"context"
	"sync/atomic"
	"time"
)

// timeoutPolicy bounds each call by its tool's Timeout, or
// [Options.ToolTimeout]. The rest of the chain runs on a goroutine of the
// call's own ([Call.Go]); the policy returns what that returns, or, when
// the deadline passes first, the timeout, at once, even for a tool that
// ignores its context. Whatever the tool returns after its deadline is
// dropped, and a call that ran out of time is never retried: the retry
// policy, inside, sees the context end.
//
// Its state is its own (timed), and its answer goes out through the
// policies outside it, as any policy's does: nothing of it is out of
// reach of a policy of [Options.Policies], which can do all it does with
// context.WithTimeoutCause and Call.Go, as ExamplePolicy_deadline shows.
// The one difference is the context: this one cancels the call's own at
// the deadline, rather than deriving one for it, since it is on the path
// of every call.
func (s *Server) timeoutPolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		limit := s.timeout(c.tool)
		// The deadline is the context's too, so that what waits inside
		// the call (a lock on a file, say) can see it and give up in time
		// to say why.
		t := &timed{Context: ctx, deadline: time.Now().Add(limit)}
		timer := time.AfterFunc(limit, func() {
			t.expired.Store(true)
			c.cancel()
		})
		defer timer.Stop()
		done := c.Go(func() { t.res, t.err = s.safely(t, next, c) })
		select {
		case <-done:
		case <-c.ctx.Done():
			if !t.expired.Load() {
				// Cancelled: the tool is told, and its answer is awaited,
				// as a call without a deadline would await it.
				<-done
			}
		}
		if t.expired.Load() {
			return nil, &timeoutError{tool: c.Tool, limit: limit} // whatever the tool made of its end
		}
		return t.res, t.err
	}
}

// timed is the context a call runs under once its time is set: its own,
// which the timeout policy cancels at the deadline, with the deadline
// told; and what the rest of the chain returned, which the policy reads
// once its goroutine is done.
type timed struct {
	context.Context
	deadline time.Time
	expired  atomic.Bool // the deadline passed
	res      *CallToolResult
	err      error
}

// Deadline returns when the call's time runs out.
func (t *timed) Deadline() (time.Time, bool) { return t.deadline, true }

// timeout returns how long a call of t may run.
func (s *Server) timeout(t *tool) time.Duration {
	if t.spec.Timeout > 0 {
		return t.spec.Timeout
	}
	return s.opts.ToolTimeout
}
