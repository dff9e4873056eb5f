package server

import (
	"context"
	"fmt"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// startCall is the reader's part of a tools/call, in this order: resolve
// the tool and read the params (resolve.go); register the call by its id
// in its session; admit it, in arrival order (the loop guard, the limits
// and a place in line on each target); then take a slot and run it, or
// wait in line for one (worker.go). A request refused on the way never
// reaches a limit or a slot.
func (s *Server) startCall(r *request) { s.start(r, s.newCall) }

// start is startCall with the call built by build: a tools/call's, or a
// resources/read's (resource_read.go).
func (s *Server) start(r *request, build func(*request, time.Time) (*Call, *wireError)) {
	received := time.Now()
	c, werr := build(r, received)
	if werr != nil {
		s.refuseParams(c, werr)
		return
	}
	c.ctx, c.cancel = context.WithCancel(r.ctx)
	if sess := r.sess; sess != nil {
		if !sess.register(c) {
			c.cancel()
			r.fail(jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
				"Invalid Request: id %s belongs to a call still in progress; use a new id for each request", shorten(r.env.id, 24)))
			return
		}
		if !sess.begin() {
			sess.forget(c)
			c.cancel()
			r.fail(jsonrpc2.CodeInternalError, "the server is shutting down and takes no new calls")
			return
		}
	} else {
		// Without a session, the request's end is the client leaving: no
		// response is due any more, and nothing more is sent about it
		// (Call.quiet).
		c.request = r.ctx
	}
	if s.listeners.stages {
		c.mu.Lock()
		parsed := callEvent{kind: eventStage, stage: stageParse, begin: received, end: time.Now()}
		c.emit(&parsed)
		c.mu.Unlock()
	}
	if err := s.admit(c); err != nil {
		s.refuse(c, err)
		return
	}
	s.schedule(c)
}

// register records c among the session's calls in flight, by its id,
// unless a call with that id is in flight already.
func (s *session) register(c *Call) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.inflight[c.key]; dup {
		return false
	}
	s.inflight[c.key] = c
	return true
}

// begin counts a call of the session as running, unless the session is
// draining.
func (s *session) begin() bool {
	s.workMu.Lock()
	defer s.workMu.Unlock()
	if s.draining {
		return false
	}
	s.running.Add(1)
	return true
}

// refuse answers an admitted call that will not run.
func (s *Server) refuse(c *Call, err error) {
	s.answer(c, nil, err)
	c.finish()
}

// admit applies the policies that decide on arrival, because they are
// about arrival order: the loop guard ("the same call back to back") and
// the limits of the call's principal, and the call's place in line on
// each of its targets. See policy.go for where they stand among the rest.
func (s *Server) admit(c *Call) error {
	if c.read == nil {
		// The loop guard is about a model calling the same tool back to
		// back; a client reads a resource again whenever it changes.
		if err := c.who.guard.admit(c); err != nil {
			return err
		}
	}
	if err := c.who.limiter.admit(c.Lang()); err != nil {
		return err
	}
	s.paths.admit(c)
	return nil
}

// refuseParams answers a tools/call whose params MCP calls invalid, or
// whose tool its grant does not allow.
func (s *Server) refuseParams(c *Call, werr *wireError) {
	c.mu.Lock()
	parsed := callEvent{kind: eventStage, stage: stageParse, begin: c.received, end: time.Now(), err: refusal(werr.message)}
	c.emit(&parsed)
	c.done = true
	status := "invalid_params"
	if werr.code == codeInsufficientScope {
		status = "insufficient_scope"
	}
	answered := callEvent{kind: eventAnswered, status: status, text: werr.message}
	c.emit(&answered)
	c.mu.Unlock()
	var data any
	if werr.data != nil {
		data = werr.data
	}
	_ = c.out.respond(appendError(nil, c.ID, werr.code, werr.message, data), werr.code)
}
