package server

import (
	"context"
	"encoding/json"
	"reflect"
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
	read     *readRequest    // what a resources/read asks (resource_read.go); nil for a tool call
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
	grant  *Grant     // what its credentials allow (grant.go); nil for none
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

	// What the policies keep about the call, each under its own key
	// (Value, SetValue): the newest first, as in a context.
	values atomic.Pointer[valueNode]
	// goroutines are those the call runs besides its handler (Go): it
	// ends, and gives back what it holds, once they have returned.
	goroutines sync.WaitGroup
	running    atomic.Int32 // of goroutines, those still running
	// ran is set by the tool stage when it first runs (addtool.go): a
	// policy that runs it again (a retry) gets it without a second
	// validation, in the execute stage the first run began.
	ran      atomic.Bool
	reserved int64 // bytes of the memory budget it holds (budget.go); guarded by mu

	cancelled atomic.Bool // by the client: no response is due, nor progress or log message

	mu       sync.Mutex  // orders progress and events before the answer
	started  bool        // a worker took the call up
	stage    openStage   // the stage running now, or failed while a policy may run it again
	failed   atomic.Bool // stage holds a failure (failStage), which its success or the answer ends
	span     *CallSpan   // nil unless the server has a Tracer
	last     float64     // the last progress reported
	reported bool        // some progress was reported
	done     bool        // answered: nothing more is sent about the call
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

// Value returns what the call keeps under key, set with [Call.SetValue],
// or nil if it keeps nothing there.
func (c *Call) Value(key any) any {
	if c == nil {
		return nil
	}
	for n := c.values.Load(); n != nil; n = n.next {
		if n.key == key {
			return n.val
		}
	}
	return nil
}

// SetValue keeps val with the call under key, in place of what it kept
// there: the state of a policy about this one call, which lives as long
// as the call, after the policy has returned too. The built-in policies
// keep theirs so: the retry policy how many tries it made, which the
// result's _meta, the logs, the [Observer] and the [Tracer] read; the
// cache whether the answer came from it; the confirmation what
// [Call.Confirm] does. A policy of [Options.Policies] may keep its own,
// and a later policy or the tool read it.
//
// As with [context.WithValue], key must be comparable and should be of
// a type of the caller's own package, so that no one else's key equals
// it, and a value set again shadows the one before, which the call keeps
// too: keep a pointer to state that changes, rather than setting it
// again and again. SetValue and Value are safe for concurrent use.
func (c *Call) SetValue(key, val any) {
	if key == nil || !reflect.TypeOf(key).Comparable() {
		panic("server: Call.SetValue with a key that is not comparable")
	}
	n := &valueNode{key: key, val: val}
	for {
		n.next = c.values.Load()
		if c.values.CompareAndSwap(n.next, n) {
			return
		}
	}
}

// valueNode is one value a call keeps, before those kept earlier.
type valueNode struct {
	key, val any
	next     *valueNode
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
// The goroutines the call ran (Go) have returned.
func (c *Call) finish() {
	c.srv.paths.release(c)
	c.releaseMemory()
	c.cancel()
	if c.sess != nil {
		c.sess.running.Done()
	}
}
