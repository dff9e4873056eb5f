package server

import (
	"context"
	"runtime/debug"
)

// This file runs admitted calls. The server has MaxInFlight slots, one
// per call running, shared by every session and request (scope.go). A
// call that finds a free slot runs at once: an HTTP request's on its own
// goroutine, a session's on one of the session's workers. Otherwise it
// waits in line (queue.go) and the reader reads on; when a call ends and
// gives its slot back, the first call in line takes it.

// schedule runs c if a slot is free and no call waits before it, and
// otherwise puts it in line, or refuses it when the line is full.
func (s *Server) schedule(c *Call) {
	s.lineMu.Lock()
	if len(s.line.calls) == 0 {
		select {
		case s.slots <- struct{}{}:
			s.lineMu.Unlock()
			s.run(c)
			return
		default:
		}
	}
	err := s.line.push(c)
	s.lineMu.Unlock()
	if err != nil {
		s.refuse(c, err)
	}
}

// releaseSlot gives back the slot of a call that ended, or that waits
// for something else, and hands it to the first call in line.
func (s *Server) releaseSlot() {
	s.lineMu.Lock()
	<-s.slots
	var next *Call
	if len(s.line.calls) > 0 {
		select {
		case s.slots <- struct{}{}:
			next = s.line.pop()
		default: // a call back from withoutSlot took it first
		}
	}
	s.lineMu.Unlock()
	if next != nil {
		s.run(next)
	}
}

// run runs c, which holds a slot: an HTTP request's call right here, on
// the request's goroutine, which the connection keeps for its next
// request (a goroutine of its own would grow a fresh stack for every
// call); a session's on one of its workers.
func (s *Server) run(c *Call) {
	if c.sess == nil {
		if c.queued {
			go s.serveCall(c) // the request's goroutine waits for the answer
			return
		}
		s.serveCall(c)
		return
	}
	c.sess.run(c)
}

// run hands a call to an idle worker goroutine of the session, or starts
// one. Workers live as long as the session, so their stacks, grown once
// by the deep calls of validation, are not grown again for every call (a
// fresh goroutine per call spent most of its time copying its stack).
// There are never more workers than slots.
func (s *session) run(c *Call) {
	s.workMu.Lock()
	defer s.workMu.Unlock()
	if s.stopping {
		go s.srv.serveCall(c) // the session is ending; the call still gets its answer
		return
	}
	select {
	case s.work <- c:
	default:
		go func() {
			s.srv.serveCall(c)
			for c := range s.work {
				s.srv.serveCall(c)
			}
		}()
	}
}

// serveCall runs a call through the policies to its tool, answers it,
// and gives back what it held.
func (s *Server) serveCall(c *Call) {
	defer func() {
		c.finish()
		s.releaseSlot()
	}()
	c.slot = true
	if err := c.ctx.Err(); err != nil {
		// Its client cancelled it or left, or its session ended, while it
		// waited in line: it is answered, if anyone still waits for the
		// answer, and never runs.
		s.answer(c, nil, err)
		return
	}
	c.markStarted()
	res, err := s.safely(c.ctx, s.handle, c)
	s.answer(c, res, err)
}

// Yield runs wait, which waits for other calls (a lock one of them
// holds) or for the client, with the call's place among the calls
// running ([Options.MaxInFlight]) given back meanwhile, and taken again
// after: otherwise calls waiting for each other could hold every place
// while the one they wait for, which needs one, never gets it. A tool
// calls it around any wait of its own that other calls end. Outside a
// running call (a Call built by hand, [Server.CallTool]) it just runs
// wait.
func (c *Call) Yield(wait func()) {
	if c == nil || !c.slot {
		wait()
		return
	}
	c.srv.withoutSlot(wait)
}

// withoutSlot runs wait, which waits for the client or for other calls,
// with the calling call's slot given back for the time being. Otherwise
// calls waiting for the client (a confirmation, the roots) could hold
// every slot while the reader, waiting for a slot, never reads the
// answers they wait for.
func (s *Server) withoutSlot(wait func()) {
	s.releaseSlot()
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
