package server

import (
	"context"
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
// The differences are of cost alone, since it is on the path of every
// call: it cancels the call's own context at the deadline rather than
// deriving one, and takes its timers from a pool.
func (s *Server) timeoutPolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		limit := s.timeout(c.tool)
		// The deadline is the context's too, so that what waits inside
		// the call (a lock on a file, say) can see it and give up in time
		// to say why.
		t := &timed{Context: ctx, deadline: time.Now().Add(limit)}
		timer := s.timer(limit)
		defer s.putTimer(timer)
		done := c.Go(func() { t.res, t.err = s.safely(t, next, c) })
		// A call its client cancels ends as its tool returns (done), as a
		// call without a deadline would, unless its deadline comes first.
		select {
		case <-done:
			return t.res, t.err
		case <-timer.C:
			c.cancel()
			return nil, &timeoutError{tool: c.Tool, limit: limit} // whatever the tool makes of its end
		}
	}
}

// timed is the context a call runs under once its time is set: its own,
// which the timeout policy cancels at the deadline, with the deadline
// told; and what the rest of the chain returned, which the policy reads
// once its goroutine is done.
type timed struct {
	context.Context
	deadline time.Time
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

// timer returns a timer that fires after d, from those of the server's
// calls that ended (a pooled timer saves the three allocations of a new
// one on every call).
func (s *Server) timer(d time.Duration) *time.Timer {
	if t, ok := s.timers.Get().(*time.Timer); ok {
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

// putTimer stops t and keeps it for another call. Since Go 1.23 a timer
// stopped has no value left in its channel for the next one to receive.
func (s *Server) putTimer(t *time.Timer) {
	t.Stop()
	s.timers.Put(t)
}
