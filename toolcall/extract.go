package toolcall

import (
	"encoding/json"
	"strings"
)

// Call is one tool call found in a model's output.
type Call struct {
	// Name is the tool's name as the model wrote it. Extract does not know
	// which tools exist: look it up before running anything.
	Name string
	// Arguments is always a compact JSON object: {} when the model gave
	// none or null, the decoded object when it gave a JSON string holding
	// one. Numbers are kept exactly as written, 12345678901234567890
	// included.
	Arguments json.RawMessage
}

// Result is what [Extract] found in a model's output.
type Result struct {
	// Kind says whether the output is a final answer, calls to run, or a
	// call that was cut off.
	Kind Kind
	// Calls holds the calls in the order they were written: at least one
	// for Calls; for Incomplete, the complete ones before the cut.
	Calls []Call
	// Text is the prose outside the calls, trimmed, with the fences and
	// <tool_call> tags that held only calls taken out: for Final, the
	// whole trimmed output, empty only if the output was empty.
	Text string
	// Partial is, for Incomplete, the raw text of the call that was cut
	// off or is unusable.
	Partial string
	// Reason is, for Incomplete, a short English sentence saying why, such
	// as "the JSON object starting at byte 12 ends before it is closed".
	// For Final it says why the output is empty or why JSON in it was not
	// taken for a call ("the JSON object at byte 7 is not a tool call"),
	// and is empty otherwise.
	Reason string
}

// Extract finds the tool calls in a model's output: bare, in ``` or ~~~
// fences, or in <tool_call> tags, with any prose around and between them.
// It returns every call in order, and leaves JSON that is no call, and
// braces that start no JSON, in the text. The package documentation lists
// the shapes it accepts and how it decides the edge cases: which unclosed
// braces are cut-off calls, and which calls are unusable.
func Extract(text string) Result {
	text = strings.TrimPrefix(text, "\ufeff") // a byte order mark is no text
	if strings.TrimSpace(text) == "" {
		return Result{Kind: Final, Reason: "the text is empty"}
	}
	x := newExtractor(text)
	x.run()
	r := Result{Calls: x.calls, Text: x.prose()}
	switch {
	case x.incomplete:
		r.Kind, r.Partial, r.Reason = Incomplete, x.partial, x.reason
	case len(x.calls) > 0:
		r.Kind = Calls
	default:
		r.Kind, r.Reason = Final, x.rejected
	}
	return r
}
