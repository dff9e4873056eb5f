package server

import (
	"context"
	"fmt"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// startCall is the reader's part of a tools/call, in this order: resolve
// the tool and read the params (resolve.go); register the call by its id;
// admit it, in arrival order (the loop guard, the limits and a place in
// line on each target); then take a slot and hand it to a worker
// (worker.go). A request refused on the way never reaches a limit or a
// slot.
func (s *session) startCall(env envelope, e era) {
	received := time.Now()
	c, werr := s.newCall(env, received)
	c.modern, c.logLevel, c.capabilities = e.modern, e.logLevel, e.capabilities
	if werr != nil {
		s.refuseParams(c, werr)
		return
	}
	c.ctx, c.cancel = context.WithCancel(s.base)
	s.mu.Lock()
	_, dup := s.inflight[c.key]
	if !dup {
		s.inflight[c.key] = c
	}
	s.mu.Unlock()
	if dup {
		c.cancel()
		s.writeError(env.id, jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
			"Invalid Request: id %s belongs to a call still in progress; use a new id for each request", shorten(env.id, 24)))
		return
	}
	s.workMu.Lock()
	draining := s.draining
	if !draining {
		s.running.Add(1)
	}
	s.workMu.Unlock()
	if draining {
		s.forget(c)
		c.cancel()
		s.writeError(env.id, jsonrpc2.CodeInternalError, "the server is shutting down and takes no new calls")
		return
	}
	if s.srv.listeners.stages {
		c.mu.Lock()
		parsed := callEvent{kind: eventStage, stage: stageParse, begin: received, end: time.Now()}
		c.emit(&parsed)
		c.mu.Unlock()
	}
	if err := s.admit(c); err != nil {
		s.refuse(c, err)
		return
	}
	if s.takeSlot() {
		s.run(c)
		return
	}
	// Every slot is taken, or calls wait already: the call waits in line
	// (queue.go), and the reader reads on.
	s.workMu.Lock()
	err := s.queue.push(c)
	s.workMu.Unlock()
	if err != nil {
		s.paths.release(c)
		s.refuse(c, err)
	}
}

// takeSlot takes a free slot for a call that has just been admitted,
// unless calls wait in line already: they go first.
func (s *session) takeSlot() bool {
	s.workMu.Lock()
	defer s.workMu.Unlock()
	if len(s.queue.calls) > 0 {
		return false
	}
	select {
	case s.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// refuse answers an admitted call that will not run.
func (s *session) refuse(c *Call, err error) {
	s.answer(c, nil, err)
	c.cancel()
	s.running.Done()
}

// admit applies the policies that decide in the reader, because they are
// about arrival order: the loop guard ("the same call back to back"), the
// limits (the session's count and rate) and the call's place in line on
// each of its targets. See policy.go for where they stand among the rest.
func (s *session) admit(c *Call) error {
	if err := s.guard.admit(c); err != nil {
		return err
	}
	if err := s.limiter.admit(c.Lang()); err != nil {
		return err
	}
	s.paths.admit(c)
	return nil
}

// refuseParams answers a tools/call whose params MCP calls invalid.
func (s *session) refuseParams(c *Call, werr *wireError) {
	c.mu.Lock()
	parsed := callEvent{kind: eventStage, stage: stageParse, begin: c.received, end: time.Now(), err: refusal(werr.message)}
	c.emit(&parsed)
	c.done = true
	answered := callEvent{kind: eventAnswered, status: "invalid_params", text: werr.message}
	c.emit(&answered)
	c.mu.Unlock()
	s.writeError(c.ID, werr.code, werr.message)
}

// forget removes a call from the calls in flight and reports whether the
// client cancelled it.
func (s *session) forget(c *Call) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inflight[c.key] == c {
		delete(s.inflight, c.key)
	}
	return c.cancelled
}
