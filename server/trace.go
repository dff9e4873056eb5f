package server

import (
	"encoding/json"
	"time"
)

// Tracer receives a record of every answered tool call, for tracing: one
// span per call with a child span per stage. Set it in [Options.Tracer];
// when it is nil the server records nothing and pays nothing.
//
// CallTraced runs on the call path, once per call, after the answer is
// known: it must be quick (queue the span, export it elsewhere) and safe
// for concurrent use. The span is the Tracer's to keep.
type Tracer interface {
	CallTraced(span *CallSpan)
}

// CallSpan is the record of one tools/call: when it began and ended, how
// it ended, and the stages it went through.
type CallSpan struct {
	// Tool is the tool's name; empty when the request named no known tool.
	Tool string
	// RequestID is the JSON-RPC id exactly as the client sent it.
	RequestID json.RawMessage
	// Session is the session's trace id, the "trace" of its log lines.
	Session string
	// TraceParent and TraceState are the W3C trace context the client
	// sent in params._meta ("traceparent", "tracestate"), if any, so that
	// the call's span can join the client's trace.
	TraceParent, TraceState string
	// Start and End bound the call: from the moment a worker took it up
	// to its answer.
	Start, End time.Time
	// Status is "ok", "error", "timeout", "cancelled" or, for a request
	// refused before any tool ran, "invalid_params".
	Status string
	// Error is the start of the text the model read when Status is not
	// "ok".
	Error string
	// Attempts is how many times the tool ran; CacheHit is set when the
	// answer came from the result cache or a call in flight.
	Attempts int
	CacheHit bool
	// Stages are the stages the call went through, in order: "parse",
	// then "wait" (for earlier writes to the same paths), "validate" and
	// "execute", as far as the call got.
	Stages []StageSpan
}

// StageSpan is one stage of a [CallSpan].
type StageSpan struct {
	// Name is the stage: "parse", "wait", "validate" or "execute".
	Name string
	// Start and End bound the stage.
	Start, End time.Time
	// Error is why the stage failed; empty when it succeeded.
	Error string
}

// maxSpanError bounds the error text kept in a span, in characters.
const maxSpanError = 200

// stageBegin opens a stage of the call's span. The stage is closed by
// [Call.stageEnd] or, if the call is answered first (a timeout), when the
// span is completed.
func (c *Call) stageBegin(name string) {
	if c.span == nil {
		return
	}
	now := time.Now()
	c.mu.Lock()
	if !c.done {
		c.span.Stages = append(c.span.Stages, StageSpan{Name: name, Start: now})
	}
	c.mu.Unlock()
}

// stageEnd closes the stage opened last, failed when err is not empty,
// unless the call has already been answered (a timed-out tool finishing
// late).
func (c *Call) stageEnd(err string) {
	if c.span == nil {
		return
	}
	now := time.Now()
	c.mu.Lock()
	if n := len(c.span.Stages); !c.done && n > 0 && c.span.Stages[n-1].End.IsZero() {
		st := &c.span.Stages[n-1]
		st.End, st.Error = now, shortenString(err, maxSpanError)
	}
	c.mu.Unlock()
}

// traceAnswer completes the span of an answered call and hands it to the
// tracer. It runs after [Call.finish], so no stage is added any more.
func (s *session) traceAnswer(call *Call, status string, res *CallToolResult) {
	sp := call.span
	if sp == nil {
		return
	}
	sp.End = time.Now()
	sp.Status = status
	if status != "ok" {
		sp.Error = shortenString(resultText(res), maxSpanError)
	}
	if n := len(sp.Stages); n > 0 && sp.Stages[n-1].End.IsZero() {
		// The call was answered while a stage ran: it ran out of time.
		sp.Stages[n-1].End, sp.Stages[n-1].Error = sp.End, sp.Error
	}
	sp.Attempts = max(int(call.attempts.Load()), 1)
	sp.CacheHit = call.cacheHit.Load()
	s.srv.opts.Tracer.CallTraced(sp)
}

// newSpan starts the span of a call taken up at start, or returns nil
// when the server has no tracer.
func (s *session) newSpan(id json.RawMessage, start time.Time) *CallSpan {
	if s.srv.opts.Tracer == nil {
		return nil
	}
	return &CallSpan{RequestID: id, Session: s.trace, Start: start}
}

// resultText is the text of a result's first text block.
func resultText(res *CallToolResult) string {
	for _, c := range res.Content {
		if c.kind == "text" {
			return c.text
		}
	}
	return ""
}

// errText is err's text, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
