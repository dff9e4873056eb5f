package server

import (
	"context"
	"runtime/debug"
)

// run hands a call to an idle worker goroutine, or starts one. Workers
// live as long as the session, so their stacks, grown once by the deep
// calls of validation, are not grown again for every call (a fresh
// goroutine per call spent most of its time copying its stack). There are
// never more workers than slots.
func (s *session) run(c *Call) {
	if s.inline {
		s.serve(c)
		return
	}
	s.workMu.Lock()
	defer s.workMu.Unlock()
	if s.stopping {
		go s.serve(c) // the session is ending; the call still gets its answer
		return
	}
	select {
	case s.work <- c:
	default:
		go func() {
			s.serve(c)
			for c := range s.work {
				s.serve(c)
			}
		}()
	}
}

// serve runs a call through the policies to its tool, answers it, and
// gives back what it held.
func (s *session) serve(c *Call) {
	defer func() {
		s.paths.release(c)
		c.releaseMemory()
		c.cancel()
		<-s.slots
		s.running.Done()
	}()
	c.markStarted()
	res, err := s.srv.safely(c.ctx, s.handle, c)
	s.answer(c, res, err)
}

// withoutSlot runs wait, which waits for the client or for other calls,
// with the calling call's slot given back for the time being. Otherwise
// calls waiting for the client (a confirmation, the roots) could hold
// every slot while the reader, waiting for a slot, never reads the
// answers they wait for.
func (s *session) withoutSlot(wait func()) {
	<-s.slots
	defer func() { s.slots <- struct{}{} }()
	wait()
}

// safely runs h. A panic becomes an error the model reads and a logged
// stack; the server keeps serving.
func (s *Server) safely(ctx context.Context, h ToolHandler, c *Call) (res *CallToolResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Str("tool", c.Tool).Interface("panic", r).Str("stack", string(debug.Stack())).
				Msg("tool panicked")
			c.Log(LevelError, say(c.Lang(), msgPanickedLog))
			res, err = nil, refusal(say(c.Lang(), msgPanicked, c.Tool))
		}
	}()
	return h(ctx, c)
}
