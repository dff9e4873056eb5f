// Package toolcall is the agent's side of tool calling: it finds the tool
// calls in what a language model wrote, and reads JSON as it streams in.
//
// An agent loop asks the model, hands its output to [Extract], and goes by
// the [Result]'s Kind:
//
//	r := toolcall.Extract(output)
//	switch r.Kind {
//	case toolcall.Calls:      // run r.Calls in order, append the results, ask again
//	case toolcall.Final:      // r.Text is the answer
//	case toolcall.Incomplete: // r.Reason says why; ask once more, afresh
//	}
//
// # Finding calls
//
// A call is a JSON object in one of the shapes models write:
//
//	{"name": "read_file", "arguments": {"path": "a.txt"}}
//	{"tool": "read_file", "args": {"path": "a.txt"}}
//	{"type": "function", "id": "call_1", "function": {"name": "read_file", "arguments": "{\"path\": \"a.txt\"}"}}
//	{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.txt"}}
//
// that is, a name under "name", "tool" or "function" and arguments under
// "arguments", "args", "parameters" or "input" (looked up in that order),
// or the same inside a "function" object. Arguments may be an object or a
// JSON string holding one, which is decoded; absent or null arguments are
// {}. A list of calls under "tool_calls", as in an assistant message
// written out as JSON, counts as those calls. Calls may stand bare in the
// prose, in ``` or ~~~ fences, or in <tool_call> tags, and several may
// follow each other: glued together, one per line, in several fences, or
// as a JSON array of calls. All are returned, in order, with each number
// exactly as written.
//
// The decisions behind the edge cases:
//
//   - JSON that is not a call ({"answer": 42}, {"name": "Alice", "age":
//     30}, a tool definition with "description" and "parameters", a call
//     nested inside other data) stays part of the text. An object without
//     arguments is a call only if it holds nothing but a name that could be
//     a tool's and bookkeeping members ("id", "type", "call_id", "index").
//     An array is calls only if every element is one.
//   - A brace that starts no JSON, as in "use {x} in your template" or "the
//     set {1, 2", is text. An unclosed object or array is a cut-off call,
//     and the result Incomplete, only if what was read of it is valid JSON
//     with a "name", "tool" or "function" member where a call has one, as
//     in {"name": "read_file", "argum. A JSON object that has both a name
//     and arguments member before it stops being valid JSON is a garbled
//     call, also Incomplete.
//   - A call with an empty name, or with arguments that are neither an
//     object nor a string holding one ([1, 2], 7, "{\"a\": 1"), is
//     Incomplete rather than run with guessed arguments or passed off as an
//     answer; its Reason says what is wrong.
//   - Incomplete keeps the complete calls written before the cut in Calls,
//     but the agent should ask again rather than run them alone.
//   - Code fences for other languages (```python) are text, whatever they
//     hold.
//   - Empty or all-space output is Final with an empty Text and the Reason
//     "the text is empty": the only Final without text.
//
// Extract reads each byte of its input a bounded number of times, even for
// text built to make a brace scanner backtrack, and never panics.
//
// # Streaming JSON
//
// A [Parser] reads JSON in chunks of any size, as a model streams it, and
// reports each step as an [Event] with its JSON-pointer path: Begin and End
// of objects and arrays, Key, Value for complete scalars (exactly as
// written), and Partial for strings and numbers still arriving, so that an
// agent can show "reading /path=notes.t..." while a call streams in. Close
// reports where a cut-off stream stopped with an [IncompleteError]; input
// that can never be JSON fails at once with a [SyntaxError] giving the
// byte offset.
//
// The Parser accepts what encoding/json accepts, as fuzzing checks against
// [encoding/json.Valid], [encoding/json.Decoder] and its Token method with
// the input split at every point (at 17 points for inputs over 256 bytes)
// and written byte by byte: invalid UTF-8 and lone surrogates inside
// strings are accepted (and decode to U+FFFD, as encoding/json decodes
// them), nesting beyond 10,000 levels is refused, and a stream may hold
// several top-level values (see [Parser] for the one place where it is
// stricter than json.Decoder).
//
// # Checking arguments
//
// [CompileSchema] reads a tool's inputSchema as tools/list gives it. The
// resulting [Schema] checks a call's whole arguments with [Schema.Check],
// or, through a [Checker] fed a Parser's events, checks them while they
// stream: each [Mismatch] is reported as soon as the stream shows it, so
// that an agent can warn before the call ends and refuse it the moment
// its JSON closes. A Mismatch carries its path and reads as a sentence in
// English or Chinese (see [Mismatch.Message]). A Schema knows the keywords
// tool arguments use and leaves the others to the server: it finds fewer
// problems than a full validator, never more, as fuzzing checks against
// one.
package toolcall
