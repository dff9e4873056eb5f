package server

import (
	"context"
	"time"
)

// timeoutPolicy bounds each call by its tool's Timeout, or
// [Options.ToolTimeout]. When the time is up the call's context is
// cancelled and the model gets its answer at once, even from a tool that
// ignores its context; whatever the tool returns later is dropped. A call
// that ran out of time is never retried: the retry policy sees the
// cancelled context.
func (s *Server) timeoutPolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		c.limit = s.timeout(c.tool)
		deadline := time.Now().Add(c.limit)
		// The timer marks the call timed out before it cancels it, so that
		// whatever sees the cancellation first (the tool, a wait in line)
		// finds it marked and never answers for it.
		timer := time.AfterFunc(c.limit, func() {
			c.timedOut.Store(true)
			c.cancel()
			if e, ok := c.out.(earlyAnswerer); ok {
				e.answerEarly()
			}
			s.answer(c, nil, &timeoutError{tool: c.Tool, limit: c.limit})
		})
		defer timer.Stop()
		// The deadline is the context's too, so that what waits inside
		// the call (a lock on a file, say) can see it and give up in time
		// to say why.
		res, err := next(&deadlineCtx{ctx, deadline}, c)
		if c.timedOut.Load() {
			return nil, &timeoutError{tool: c.Tool, limit: c.limit} // whatever the tool made of its end
		}
		return res, err
	}
}

// deadlineCtx is the context a call runs under once its time is set:
// its own, which the call's timer cancels at the deadline, with the
// deadline told. (A context.WithTimeout would add a second timer to the
// one that answers the model.)
type deadlineCtx struct {
	context.Context
	deadline time.Time
}

// Deadline returns when the call's time runs out.
func (d *deadlineCtx) Deadline() (time.Time, bool) { return d.deadline, true }

// timeout returns how long a call of t may run.
func (s *Server) timeout(t *tool) time.Duration {
	if t.spec.Timeout > 0 {
		return t.spec.Timeout
	}
	return s.opts.ToolTimeout
}
