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
	// Principal is whom the call was served for over HTTP: the name an
	// authentication middleware gave ([WithPrincipal]; an OAuth token's
	// subject and client), "bearer token", or the client's address.
	// Empty for a stdio session. Never a token.
	Principal string
	// TraceParent and TraceState are the W3C trace context the client
	// sent in params._meta ("traceparent", "tracestate"), if any, so that
	// the call's span can join the client's trace.
	TraceParent, TraceState string
	// Start and End bound the call: from the moment the reader took it
	// up to its answer.
	Start, End time.Time
	// Status is "ok", "error", "timeout", "cancelled" or, for a request
	// refused before any tool ran, "invalid_params" or
	// "insufficient_scope".
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

// traceEvents builds the span of each call from the call events
// (events.go) and hands it to a Tracer when the call is answered.
type traceEvents struct{ t Tracer }

func (s *traceEvents) callEvent(e *callEvent) {
	c := e.call
	sp := c.span
	if sp == nil {
		return
	}
	switch e.kind {
	case eventStage:
		sp.Stages = append(sp.Stages, StageSpan{Name: e.stage, Start: e.begin, End: e.end, Error: shortenString(errText(e.err), maxSpanError)})
	case eventAnswered:
		sp.Tool = c.Tool
		sp.TraceParent, sp.TraceState = c.traceParent, c.traceState
		sp.End = time.Now()
		sp.Status = e.status
		switch {
		case e.status == "invalid_params":
			sp.Error = shortenString(e.text, maxSpanError)
		case e.status != "ok":
			sp.Error = shortenString(resultText(e.result), maxSpanError)
		}
		sp.Attempts = attemptsOf(c)
		_, sp.CacheHit = cacheOf(c)
		s.t.CallTraced(sp)
	}
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
