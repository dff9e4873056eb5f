package server

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

// Call is one tools/call on its way from the reader to the tool and back.
// The reader builds it once, from the request line: every later step
// (the policies, the tool's handler, the answer, the logs, metrics and
// traces) reads it and nothing re-scans the request. A handler receives
// it to report progress, send log messages and ask for confirmation; a
// [Policy] receives it to decide about the call.
type Call struct {
	// Tool is the name of the tool being called.
	Tool string
	// ID is the request id exactly as the client sent it; empty for calls
	// that did not come over the protocol.
	ID json.RawMessage

	tool     *tool
	args     json.RawMessage // the raw arguments; nil for none
	members  []member        // args split by the reader, in a line it checked whole; nil if not (decodeArguments)
	token    json.RawMessage // the client's progressToken, if any
	targets  []string        // what the call works on, from ToolSpec.Targets
	dryRun   bool            // the tool's ToolSpec.DryRun argument is true
	received time.Time       // when the reader took the request up
	modern   bool            // of MCP 2026-07-28: served from the request alone (era.go)
	logLevel LogLevel        // modern: the request's logLevel; -1 for no log messages
	// Modern: the request's clientCapabilities, and a confirmation's
	// second round (mrtr.go): the answers and the state sent back.
	capabilities   json.RawMessage
	inputResponses json.RawMessage
	requestState   string

	// traceParent and traceState are the client's W3C trace context, from
	// params._meta.
	traceParent, traceState string

	srv    *Server
	sess   *session   // the session it came in; nil for a request of its own (HTTP) or outside the protocol
	who    *principal // whose limits and loop guard it counts against
	out    peer       // where its response and notifications go; nil outside the protocol
	ctx    context.Context
	cancel context.CancelFunc
	key    string // the id as a key of the session's calls in flight
	trace  string // the trace id of its log lines: its session's, or its own
	// request is the context of the HTTP request the call came in,
	// which ends when its client leaves; nil on a session.
	request context.Context
	queued  bool // it waited in line for a slot (queue.go)
	slot    bool // it runs on a slot (worker.go), which it gives back while it waits

	// Set by the policies on the way in.
	tickets   []*ticket                           // its places in line (policy_order.go)
	confirmer func(context.Context, string) error // what Confirm does (policy_confirm.go)
	limit     time.Duration                       // its deadline (policy_timeout.go)
	timedOut  atomic.Bool                         // the deadline passed (policy_timeout.go)
	attempts  atomic.Int32                        // tries of the handler so far (policy_retry.go)
	firstTry  time.Time                           // when the first try began (policy_retry.go)
	cached    atomic.Bool                         // the tool has a result cache (policy_cache.go)
	cacheHit  atomic.Bool                         // the answer came from the cache (policy_cache.go)
	reserved  int64                               // bytes of the memory budget it holds (budget.go); guarded by mu

	cancelled atomic.Bool // by the client: no response is due, nor progress or log message

	mu       sync.Mutex // orders progress and events before the answer
	started  bool       // a worker took the call up
	stage    openStage  // the stage running now
	span     *CallSpan  // nil unless the server has a Tracer
	last     float64    // the last progress reported
	reported bool       // some progress was reported
	done     bool       // answered: nothing more is sent about the call
}

// Arguments returns the call's arguments as the client sent them: a JSON
// object, or nil for none. The caller must not modify them.
func (c *Call) Arguments() json.RawMessage { return c.args }

// Spec returns the [ToolSpec] of the tool being called.
func (c *Call) Spec() ToolSpec {
	if c.tool == nil {
		return ToolSpec{Name: c.Tool}
	}
	return c.tool.spec
}

// Targets returns what the call works on: the values of the arguments its
// tool names in [ToolSpec.Targets], as clean slash-separated paths, with
// escapes of names (see security.EscapeName) decoded.
func (c *Call) Targets() []string { return c.targets }

// DryRun reports whether the call asks for a dry run: the argument its
// tool names in [ToolSpec.DryRun] is true, so it changes nothing.
func (c *Call) DryRun() bool { return c.dryRun }

// Lang returns the language the model reads, [Options.Lang], so that a
// handler can phrase its own errors in it as the server phrases those
// about invalid arguments. It is English for a Call built by hand.
func (c *Call) Lang() i18n.Lang {
	if c == nil || c.srv == nil {
		return i18n.English
	}
	return c.srv.opts.Lang
}

// cancelByClient cancels the call for its client, which cancelled it or
// left: no response is due, and nothing more is sent about it.
func (c *Call) cancelByClient() {
	c.cancelled.Store(true)
	c.cancel()
}

// settle takes the call out of its session's calls in flight, as it is
// answered, and reports whether its client cancelled it, or left.
func (c *Call) settle() bool {
	if c.sess != nil {
		c.sess.forget(c)
	}
	return c.quiet()
}

// quiet reports whether nothing more is to be sent about the call: its
// client cancelled it, or closed the HTTP request it came in.
func (c *Call) quiet() bool {
	return c.cancelled.Load() || c.request != nil && c.request.Err() != nil
}

// finish gives back what an answered call held, but for its slot: its
// places in line, its memory, its context, and its count in its session.
func (c *Call) finish() {
	c.srv.paths.release(c)
	c.releaseMemory()
	c.cancel()
	if c.sess != nil {
		c.sess.running.Done()
	}
}
