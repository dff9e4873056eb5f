package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stdiotools/toolserver/security"
)

// Call is one running tools/call, handed to the tool's handler. Through it
// a tool reports progress and sends log messages to the client.
type Call struct {
	// Tool is the name of the tool being called.
	Tool string
	// ID is the request id exactly as the client sent it; empty for calls
	// that did not come over the protocol.
	ID json.RawMessage

	sess        *session        // nil outside a session
	token       json.RawMessage // the client's progressToken, if any
	confirmless bool            // outside a session: Confirm has nobody to ask and need not
	started     bool            // the observer was told the call started
	// For the observer, written by the tool's goroutine while a timed-out
	// call may already be answered from another.
	attempts atomic.Int32 // how many times the tool ran
	cached   atomic.Bool  // the tool has a result cache
	cacheHit atomic.Bool  // the answer came from the cache
	span     *CallSpan    // nil unless the server has a Tracer; guarded by mu

	mu       sync.Mutex // orders progress notifications before the response
	last     float64
	reported bool
	done     bool
}

// callMembers picks the raw tool name, arguments and _meta out of
// tools/call params, which are valid JSON; any may be nil.
func callMembers(params json.RawMessage) callFields {
	f := callFields{given: params != nil}
	if len(params) == 0 || params[0] != '{' {
		return f
	}
	var buf [8]member
	for _, m := range appendMembers(buf[:0], params) {
		switch m.name {
		case "name":
			f.name = m.value
		case "arguments":
			f.args = m.value
		case "_meta":
			f.meta = m.value
		}
	}
	return f
}

// callFields are the raw members of tools/call params, picked out once,
// in the reader, and used by every later step.
type callFields struct {
	given            bool // the request had params at all
	name, args, meta []byte
}

// callRequest is a checked tools/call: the tool, its raw arguments and
// the client's progress token.
type callRequest struct {
	tool  *tool
	args  json.RawMessage // nil for none
	token json.RawMessage // nil when the client wants no progress
	// traceParent and traceState are the client's W3C trace context.
	traceParent, traceState string
}

// startCall takes a slot for a tools/call and runs it in its own
// goroutine. While every slot is taken it blocks, and with it the reader:
// that is the back-pressure that bounds a session's memory.
func (s *session) startCall(env envelope) {
	s.slots <- struct{}{}
	p := &pending{sess: s, env: env}
	p.ctx, p.fl.cancel = context.WithCancel(s.base)
	s.mu.Lock()
	_, dup := s.inflight[env.key]
	if !dup {
		s.inflight[env.key] = &p.fl
	}
	s.mu.Unlock()
	if dup {
		<-s.slots
		p.fl.cancel()
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
		s.forget(env, &p.fl)
		<-s.slots
		p.fl.cancel()
		s.writeError(env.id, jsonrpc2.CodeInternalError, "the server is shutting down and takes no new calls")
		return
	}
	// Here in the reader, in arrival order: the loop guard, the limits,
	// and a place in line for each path a write names.
	p.fields = callMembers(env.params)
	name, args := p.fields.name, p.fields.args
	p.refused = s.guard.observe(name, args)
	if p.refused == "" {
		p.refused = s.limiter.admit()
	}
	if p.refused == "" {
		if t, _, _ := s.srv.tools.lookup(name); t != nil && t.spec.Level != security.Read {
			p.tickets = s.paths.enqueue(pathKeys(t, args))
		}
	}
	s.run(p)
	if s.stream.r.Buffered() == 0 {
		// The reader is about to wait for input. On a blocking descriptor
		// (the binary reads a piped stdin through the poller, but a library
		// user's reader may block) it holds its P in read(2); with one CPU
		// the call would then wait for the runtime to take the P back (20
		// µs or more). Let it run first.
		runtime.Gosched()
	}
}

// withoutSlot runs wait, which waits for the client, with the calling
// call's slot given back for the time being. Otherwise calls waiting for
// the client (a confirmation, the roots) could hold every slot while the
// reader, waiting for a slot, never reads the answers they wait for.
func (s *session) withoutSlot(wait func()) {
	<-s.slots
	defer func() { s.slots <- struct{}{} }()
	wait()
}

// pending is one tools/call from the moment the reader takes it up to its
// answer: everything its worker, its timer and a cancellation need, in one
// allocation rather than one for each.
type pending struct {
	sess    *session
	env     envelope
	fields  callFields
	ctx     context.Context
	fl      inflight
	refused string    // why the call limits refuse the call, if they do
	tickets []*ticket // its places in line on the paths it writes

	call     Call
	tool     *tool
	start    time.Time
	limit    time.Duration
	once     sync.Once // the answer is sent once: by the call or its timer
	timedOut atomic.Bool
}

// do runs the call on a worker and then gives back what it held.
func (p *pending) do() {
	s := p.sess
	defer func() {
		s.paths.release(p.tickets)
		p.fl.cancel()
		<-s.slots
		s.running.Done()
	}()
	s.runCall(p)
}

// expire answers a call that ran out of time, at once, and cancels the
// tool's context; whatever the tool returns later is dropped.
func (p *pending) expire() {
	s := p.sess
	p.timedOut.Store(true)
	p.fl.cancel()
	p.once.Do(func() {
		p.call.stage(s.log.Warn(), "execute", p.start).Str("status", "timeout").Dur("limit", p.limit).Msg("call")
		s.answer(p.env, &p.fl, &p.call, timeoutResult(p.tool.spec.Name, p.limit), p.start)
	})
}

// runCall answers one tools/call.
//
// The call runs under its tool's timeout. When the time is up the model
// gets its answer at once, even from a tool that ignores its context; the
// late result, if one comes, is dropped.
func (s *session) runCall(p *pending) {
	ctx, env, fields, fl, refused, tickets := p.ctx, p.env, p.fields, &p.fl, p.refused, p.tickets
	start := time.Now()
	p.start = start
	span := s.newSpan(env.id, start)
	req, perr := s.srv.resolve(fields)
	if perr != nil {
		s.forget(env, fl)
		s.log.Info().RawJSON("id", env.id).Str("trace", s.trace).Str("stage", "parse").Str("status", "error").
			Str("error", perr.message).Msg("call")
		if span != nil {
			span.TraceParent, span.TraceState = req.traceParent, req.traceState
			span.Stages = []StageSpan{{Name: "parse", Start: start, End: time.Now(), Error: shortenString(perr.message, maxSpanError)}}
			span.End, span.Status, span.Error = time.Now(), "invalid_params", span.Stages[0].Error
			s.srv.opts.Tracer.CallTraced(span)
		}
		s.writeError(env.id, perr.code, perr.message)
		return
	}
	s.waitRoots(ctx)
	t := req.tool
	p.tool = t
	p.call = Call{Tool: t.spec.Name, ID: env.id, sess: s, token: req.token}
	call := &p.call
	if span != nil {
		span.Tool, span.TraceParent, span.TraceState = t.spec.Name, req.traceParent, req.traceState
		call.span = span
		span.Stages = append(span.Stages, StageSpan{Name: "parse", Start: start, End: time.Now()})
	}
	if ev := s.log.Debug(); ev.Enabled() {
		call.stage(ev, "parse", start).Str("status", "ok").Msg("call")
	}
	if refused != "" {
		s.answer(env, fl, call, ErrorResult(refused), start)
		return
	}
	s.srv.opts.Observer.CallStarted(t.spec.Name)
	call.started = true
	// One timer per call: when it fires, the tool's context is cancelled
	// and the model is answered at once, whatever the tool does next.
	limit := s.srv.timeout(t)
	p.limit = limit
	once, timedOut := &p.once, &p.timedOut
	timer := time.AfterFunc(limit, p.expire)
	defer timer.Stop()
	if len(tickets) > 0 {
		// Wait for the earlier writes to the same paths, without a slot:
		// they may need the reader (a confirmation) to finish.
		var err error
		call.stageBegin("wait")
		s.withoutSlot(func() { err = wait(ctx, tickets) })
		call.stageEnd(errText(err))
		if err != nil {
			// Timed out (the timer answers), cancelled by the client (no
			// answer is due), or the server is stopping: say so.
			if !timedOut.Load() {
				once.Do(func() {
					s.answer(env, fl, call, ErrorResult(fmt.Sprintf("The call to %s was stopped before it started: the server is shutting down.", t.spec.Name)), start)
				})
			}
			return
		}
	}
	if t.spec.Exclusive {
		s.alone.Lock()
		defer s.alone.Unlock()
	} else {
		s.alone.RLock()
		defer s.alone.RUnlock()
	}
	res := s.srv.cached(ctx, t, call, req.args)
	timer.Stop()
	if timedOut.Load() {
		res = timeoutResult(t.spec.Name, limit) // whatever the tool made of its end
	}
	once.Do(func() { s.answer(env, fl, call, res, start) })
}

// forget removes a call from the calls in flight and reports whether the
// client cancelled it.
func (s *session) forget(env envelope, fl *inflight) bool {
	s.mu.Lock()
	delete(s.inflight, env.key)
	s.mu.Unlock()
	return fl.cancelled
}

// answer sends a call's result, unless the client cancelled the call.
func (s *session) answer(env envelope, fl *inflight, call *Call, res *CallToolResult, start time.Time) {
	call.finish()
	cancelled := s.forget(env, fl)
	status := "ok"
	switch {
	case cancelled:
		status = "cancelled"
	case res.timedOut:
		status = "timeout"
	case res.IsError:
		status = "error"
	}
	s.traceAnswer(call, status, res)
	if call.started {
		s.srv.opts.Observer.CallFinished(call.Tool, CallOutcome{Status: status, Duration: time.Since(start),
			Attempts: max(int(call.attempts.Load()), 1), Cached: call.cached.Load(), CacheHit: call.cacheHit.Load()})
	}
	if cancelled {
		s.log.Info().RawJSON("id", env.id).Str("tool", call.Tool).Dur("took", time.Since(start)).
			Msg("call cancelled; no response sent")
		return
	}
	b, err := appendCallResult(nil, env.id, res)
	if err != nil {
		s.log.Error().Err(err).Str("tool", call.Tool).Msg("cannot encode the tool's result")
		b, _ = appendCallResult(nil, env.id, ErrorResult(fmt.Sprintf(
			"The result of %s could not be encoded as JSON; this is a bug in the tool, and the details are in the server log.", call.Tool)))
	}
	if ev := s.log.Debug(); ev.Enabled() {
		call.stage(ev, "respond", start).Bool("is_error", res.IsError).Int("bytes", len(b)).Msg("call")
	}
	_ = s.stream.writeLine(b)
}

// resolve checks the members of a tools/call's params and finds the tool.
// Its errors are the protocol errors MCP prescribes (-32602).
func (s *Server) resolve(f callFields) (callRequest, *wireError) {
	bad := func(format string, a ...any) (callRequest, *wireError) {
		return callRequest{}, &wireError{code: jsonrpc2.CodeInvalidParams, message: "Invalid params: " + fmt.Sprintf(format, a...)}
	}
	if !f.given {
		return bad(`tools/call needs params with "name", the tool to run, and "arguments"`)
	}
	nameRaw, meta := f.name, f.meta
	req := callRequest{args: f.args}
	max := s.opts.maxLevel()
	if nameRaw == nil {
		return bad(`tools/call needs "name", the tool to run; available tools: %s`, names(s.tools.visible(max)))
	}
	t, name, ok := s.tools.lookup(nameRaw)
	if !ok {
		return bad(`"name" must be a string, got %s`, jsonKind(nameRaw[0]))
	}
	if string(req.args) == "null" {
		req.args = nil // typed clients send a nil map as null; it means no arguments
	}
	if req.args != nil && req.args[0] != '{' {
		return bad(`"arguments" must be a JSON object, got %s`, jsonKind(req.args[0]))
	}
	if meta != nil && meta[0] == '{' {
		var buf [8]member
		for _, m := range appendMembers(buf[:0], meta) {
			switch m.name {
			case "progressToken":
				if m.value[0] == '"' || m.value[0] >= '0' && m.value[0] <= '9' || m.value[0] == '-' {
					req.token = m.value
				}
			case "traceparent":
				req.traceParent, _ = decodeString(m.value)
			case "tracestate":
				req.traceState, _ = decodeString(m.value)
			}
		}
	}
	req.tool = t
	switch {
	case req.tool == nil:
		return bad("unknown tool %q; available tools: %s", shortenString(name, 40), names(s.tools.visible(max)))
	case !max.Allows(req.tool.spec.Level):
		served := "read and write"
		if max == security.Read {
			served = "read"
		}
		return bad("tool %q is not available: it needs the %s level and this server serves only %s tools; available tools: %s",
			name, req.tool.spec.Level, served, names(s.tools.visible(max)))
	}
	return req, nil
}

// execute runs a tool's handler. A panic becomes an error result and a
// logged stack; the server keeps serving.
func (s *Server) execute(ctx context.Context, t *tool, call *Call, args json.RawMessage) (res *CallToolResult) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Str("tool", t.spec.Name).Interface("panic", r).Str("stack", string(debug.Stack())).
				Msg("tool panicked")
			call.Log(LevelError, "the tool panicked; the stack is in the server log")
			res = ErrorResult(fmt.Sprintf(
				"The tool %s failed with an internal error; the details are in the server log. Try again, or use another way.", t.spec.Name))
		}
	}()
	res = t.run(ctx, call, args)
	if res == nil {
		res = ErrorResult(fmt.Sprintf("The tool %s returned no result; this is a bug in the tool.", t.spec.Name))
	}
	return res
}

// CallTool runs one tool call outside any session, with exactly the
// checks of the protocol path. The error reports a request MCP would
// refuse with a JSON-RPC error (an unknown tool, arguments that are not an
// object); everything else is in the result.
func (s *Server) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	args = bytes.TrimSpace(args)
	if len(args) > 0 && !json.Valid(args) {
		return nil, fmt.Errorf("call %s: arguments are not valid JSON", name)
	}
	req, werr := s.resolve(callFields{given: true, name: appendString(nil, name), args: args})
	if werr != nil {
		return nil, errors.New(werr.message)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout(req.tool))
	defer cancel()
	res := s.execute(ctx, req.tool, &Call{Tool: name, confirmless: !s.opts.ConfirmWrites}, req.args)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timeoutResult(name, s.timeout(req.tool)), nil
	}
	return res, nil
}

// finish marks the call answered: progress reported after this point is
// dropped, so that no notification follows the response.
func (c *Call) finish() {
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
}
