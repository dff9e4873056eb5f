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
		// The deadline is the context's, so that what waits inside the
		// call (a lock on a file, say) can see it and give up in time to
		// say why.
		ctx, cancel := context.WithTimeout(ctx, c.limit)
		defer cancel()
		stop := context.AfterFunc(ctx, func() {
			if ctx.Err() != context.DeadlineExceeded {
				return // the call was cancelled, not timed out
			}
			c.timedOut.Store(true)
			c.cancel()
			s.answer(c, nil, &timeoutError{tool: c.Tool, limit: c.limit})
		})
		defer stop()
		res, err := next(ctx, c)
		if c.timedOut.Load() || ctx.Err() == context.DeadlineExceeded {
			// The timer may not have run yet: what saw the deadline first
			// (the tool, a wait in line) must not answer for it.
			c.timedOut.Store(true)
			return nil, &timeoutError{tool: c.Tool, limit: c.limit} // whatever the tool made of its end
		}
		return res, err
	}
}

// timeout returns how long a call of t may run.
func (s *Server) timeout(t *tool) time.Duration {
	if t.spec.Timeout > 0 {
		return t.spec.Timeout
	}
	return s.opts.ToolTimeout
}
