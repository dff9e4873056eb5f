package server

import (
	"context"
	"runtime/debug"
	"sync/atomic"
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
// and gives back what it held once the goroutines it ran (Call.Go) have
// returned too: a tool that ignores its context, and was answered for at
// its deadline, keeps its slot, its memory and its places in line until
// it returns, so that no call runs beside it that would not otherwise.
func (s *Server) serveCall(c *Call) {
	defer func() {
		end := func() {
			c.goroutines.Wait()
			c.finish()
			s.releaseSlot()
		}
		if c.sess == nil && c.running.Load() > 0 {
			// An HTTP call answered while a goroutine of it runs (a tool
			// its timeout gave up on): the handler's goroutine returns,
			// which ends a reply streamed as SSE, and the call keeps
			// what it holds until that goroutine ends.
			go end()
			return
		}
		end()
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

// Go runs f on a goroutine of its own, as part of the call, and returns
// a channel that is closed once f has returned. The call gives back what
// it holds (its place among the calls running, its memory, its places in
// line on its targets) only once it has been answered and f has
// returned. A policy that answers without waiting for all it started, as
// a timeout answers for a tool that ignores its context, runs that with
// Go, so that the tool keeps its place until it ends and no call runs
// beside it that would not otherwise. Call Go while the call runs: from a
// policy or the tool, or from a function Go runs.
//
// The goroutine comes from the server's idle ones when there is one, so
// that the deep calls of validation do not grow a fresh stack each time.
// A panic in f ends f and is logged with its stack; it does not answer
// the call, so f should turn one into the error it returns (a panic of
// the tool's own function is one already, when the server's timeout
// runs it).
func (c *Call) Go(f func()) <-chan struct{} {
	c.goroutines.Add(1)
	c.running.Add(1)
	j := job{c: c, f: f, done: make(chan struct{})}
	if c.srv == nil {
		go j.run()
	} else {
		c.srv.runners.start(j)
	}
	return j.done
}

// job is a function a call runs with Go.
type job struct {
	c    *Call
	f    func()
	done chan struct{}
}

// run runs the job and marks it done, a panic included: in its call
// first, so that whoever sees done sees the call's count without it.
func (j job) run() {
	defer func() {
		if r := recover(); r != nil && j.c.srv != nil {
			j.c.srv.log.Error().Str("tool", j.c.Tool).Interface("panic", r).Str("stack", string(debug.Stack())).
				Msg("a function run for a call panicked")
		}
		j.c.running.Add(-1)
		j.c.goroutines.Done()
		close(j.done)
	}()
	j.f()
}

// runners are the goroutines that run the jobs of calls (Call.Go), kept
// when idle, up to max of them: the calls running are never more than
// the slots. They hold no reference to the server, so that a server no
// one uses any more is collected, and its cleanup closes jobs, which
// ends them.
type runners struct {
	jobs chan job // an idle runner waits here
	idle atomic.Int32
	max  int32
}

func newRunners(max int) *runners {
	return &runners{jobs: make(chan job), max: int32(max)}
}

// start hands j to an idle runner, or starts one.
func (r *runners) start(j job) {
	select {
	case r.jobs <- j:
	default:
		go r.loop(j)
	}
}

// loop runs j, then the jobs handed to it while it is one of the idle
// runners kept.
func (r *runners) loop(j job) {
	for {
		j.run()
		j = job{} // hold nothing of the call while idle
		if r.idle.Add(1) > r.max {
			r.idle.Add(-1)
			return
		}
		var ok bool
		j, ok = <-r.jobs
		r.idle.Add(-1)
		if !ok {
			return
		}
	}
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
