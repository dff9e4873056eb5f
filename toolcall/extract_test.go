package toolcall

import (
	"fmt"
	"strings"
	"testing"
)

// callText shows calls as name(arguments), one after another.
func callText(calls []Call) string {
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = fmt.Sprintf("%s(%s)", c.Name, c.Arguments)
	}
	return strings.Join(parts, " ")
}

// extractCase is one row of an Extract table: the kind, the calls as
// callText shows them, the text, the partial call and a piece of the
// reason that Extract must return.
type extractCase struct {
	name    string
	input   string
	kind    Kind
	calls   string
	text    string
	partial string
	reason  string
}

func runExtractCases(t *testing.T, tests []extractCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Extract(tt.input)
			if r.Kind != tt.kind || callText(r.Calls) != tt.calls || r.Text != tt.text || r.Partial != tt.partial {
				t.Errorf("Extract(%q)\n got %s [%s] text %q partial %q reason %q\nwant %s [%s] text %q partial %q",
					tt.input, r.Kind, callText(r.Calls), r.Text, r.Partial, r.Reason, tt.kind, tt.calls, tt.text, tt.partial)
			}
			if !strings.Contains(r.Reason, tt.reason) || (tt.reason == "") != (r.Reason == "") {
				t.Errorf("reason %q, want one with %q", r.Reason, tt.reason)
			}
		})
	}
}

// TestExtractSeedCases reproduces the eight inputs of the seed article on
// hand-written agent loops (seeds/000), with what Extract does better:
// both glued calls are returned, and a cut-off call asks for a retry
// instead of passing for a final answer.
func TestExtractSeedCases(t *testing.T) {
	const calc = `calc({"expr":"1+1"})`
	runExtractCases(t, []extractCase{
		{name: "bare JSON is a call", input: `{"tool":"calc","args":{"expr":"1+1"}}`, kind: Calls, calls: calc},
		{name: "JSON in a json fence is a call", input: "```json\n{\"tool\":\"calc\",\"args\":{\"expr\":\"1+1\"}}\n```", kind: Calls, calls: calc},
		{name: "pleasantries before the JSON become the text", input: "好的，我来帮你算一下。\n{\"tool\":\"calc\",\"args\":{\"expr\":\"1+1\"}}",
			kind: Calls, calls: calc, text: "好的，我来帮你算一下。"},
		{name: "a closing brace inside an argument does not end the call", input: `{"tool":"calc","args":{"expr":"{1+1}"}}`,
			kind: Calls, calls: `calc({"expr":"{1+1}"})`},
		{name: "escaped quotes inside an argument do not end the string", input: `{"tool":"calc","args":{"expr":"1+1","note":"他说\"随便\""}}`,
			kind: Calls, calls: `calc({"expr":"1+1","note":"他说\"随便\""})`},
		{name: "two glued JSON objects are both calls, in order", input: `{"tool":"calc","args":{"expr":"1"}}{"tool":"calc","args":{"expr":"2"}}`,
			kind: Calls, calls: `calc({"expr":"1"}) calc({"expr":"2"})`},
		{name: "cut-off JSON is incomplete, not a final answer", input: `{"tool":"calc","args":{"expr":"1+`,
			kind: Incomplete, partial: `{"tool":"calc","args":{"expr":"1+`, reason: "starting at byte 0 ends before it is closed"},
		{name: "plain text is the final answer", input: "1+1 等于 2。\n", kind: Final, text: "1+1 等于 2。"},
	})
}

func TestExtractFormats(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "a bare fence holds a call", input: "```\n{\"name\":\"read_file\",\"arguments\":{\"path\":\"a\"}}\n```",
			kind: Calls, calls: `read_file({"path":"a"})`},
		{name: "a JSON fence in capitals holds a call", input: "Reading.\n```JSON\n{\"name\":\"read_file\",\"arguments\":{\"path\":\"a\"}}\n```\nDone.",
			kind: Calls, calls: `read_file({"path":"a"})`, text: "Reading.\nDone."},
		{name: "a tool_call fence holds a call", input: "```tool_call\n{\"name\":\"now\"}\n```", kind: Calls, calls: `now({})`},
		{name: "a tilde fence holds a call", input: "~~~json\n{\"name\":\"now\",\"arguments\":{}}\n~~~", kind: Calls, calls: `now({})`},
		{name: "a fence closed at the end of the call's line still closes", input: "```json\n{\"name\":\"now\",\"arguments\":{}}```\nthen more",
			kind: Calls, calls: `now({})`, text: "then more"},
		{name: "a fence in another language is text even if it holds a call shape",
			input: "Call it like this:\n```python\nrun({\"name\": \"rm\", \"arguments\": {}})\n```",
			kind:  Final, text: "Call it like this:\n```python\nrun({\"name\": \"rm\", \"arguments\": {}})\n```"},
		{name: "Windows line endings are white space", input: "Sure.\r\n```json\r\n{\"name\":\"now\",\r\n \"arguments\":{}}\r\n```\r\n",
			kind: Calls, calls: `now({})`, text: "Sure."},
		{name: "the words <tool_call> inside a call's string are text",
			input: `{"name":"write","arguments":{"text":"wrap it in <tool_call> tags"}}`,
			kind:  Calls, calls: `write({"text":"wrap it in <tool_call> tags"})`},
		{name: "a closing tag inside a call's string does not end the element",
			input: `<tool_call>{"name":"write","arguments":{"text":"end with </tool_call>"}}</tool_call>`,
			kind:  Calls, calls: `write({"text":"end with </tool_call>"})`},
		{name: "a byte order mark is no text", input: "\ufeff{\"name\":\"f\",\"arguments\":{}}", kind: Calls, calls: `f({})`},
		{name: "tool_call tags around a call go with it", input: "<tool_call>\n{\"name\":\"now\",\"arguments\":{}}\n</tool_call>",
			kind: Calls, calls: `now({})`},
		{name: "a fence that holds prose besides the call keeps the prose", input: "```\nfirst:\n{\"name\":\"now\",\"arguments\":{}}\n```",
			kind: Calls, calls: `now({})`, text: "```\nfirst:\n```"},
		{name: "backticks inside a call's string argument are not a fence",
			input: `{"name":"write_file","arguments":{"path":"a.md","content":"` + "```go\\nx := 1\\n```" + `"}}`,
			kind:  Calls, calls: `write_file({"path":"a.md","content":"` + "```go\\nx := 1\\n```" + `"})`},
		{name: "a fenced call whose argument holds a fence is read whole",
			input: "```json\n{\"name\":\"write_file\",\"arguments\":{\"content\":\"```go\\n```\"}}\n```",
			kind:  Calls, calls: "write_file({\"content\":\"```go\\n```\"})"},
	})
}

func TestExtractShapes(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "name and arguments is a call", input: `{"name":"f","arguments":{"a":1}}`, kind: Calls, calls: `f({"a":1})`},
		{name: "parameters and input carry arguments too", input: `{"name":"f","parameters":{"a":1}} {"type":"tool_use","id":"toolu_1","name":"g","input":{"b":2}}`,
			kind: Calls, calls: `f({"a":1}) g({"b":2})`},
		{name: "the OpenAI shape with a string of arguments is decoded",
			input: `{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"北京\", \"days\": 3}"}}`,
			kind:  Calls, calls: `get_weather({"city":"北京","days":3})`},
		{name: "function as a plain name is a call", input: `{"function":"now","arguments":{}}`, kind: Calls, calls: `now({})`},
		{name: "absent, null and empty-string arguments are an empty object",
			input: `{"name":"a"} {"name":"b","arguments":null} {"name":"c","arguments":"  "}`,
			kind:  Calls, calls: `a({}) b({}) c({})`},
		{name: "big integers and exact decimals are kept byte for byte",
			input: `{"name":"f","arguments":{"id":12345678901234567890,"x":1.000000000000000000001,"e":-0.0E+400}}`,
			kind:  Calls, calls: `f({"id":12345678901234567890,"x":1.000000000000000000001,"e":-0.0E+400})`},
		{name: "big integers inside string arguments are kept too",
			input: `{"name":"f","arguments":"{\"id\":12345678901234567890}"}`,
			kind:  Calls, calls: `f({"id":12345678901234567890})`},
		{name: "braces, brackets and escaped quotes in strings do not confuse the scan",
			input: `Run: {"name":"sh","arguments":{"cmd":"echo \"}]\" '{' [\\\"x","dir":"C:\\dir\\"}} ok`,
			kind:  Calls, calls: `sh({"cmd":"echo \"}]\" '{' [\\\"x","dir":"C:\\dir\\"})`, text: "Run:\nok"},
		{name: "escapes in arguments stay as written", input: `{"name":"f","arguments":{"s":"\u4f60\n"}}`, kind: Calls, calls: `f({"s":"\u4f60\n"})`},
		{name: "extra members beside name and arguments are ignored", input: `{"thought":"need the file","tool":"read","args":{"p":1}}`,
			kind: Calls, calls: `read({"p":1})`},
		{name: "an assistant message written out holds its calls under tool_calls",
			input: `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{\"x\":1}"}},{"id":"c2","type":"function","function":{"name":"b","arguments":"{}"}}]}`,
			kind:  Calls, calls: `a({"x":1}) b({})`},
		{name: "a call that also has tool_calls is one call",
			input: `{"name":"a","arguments":{},"tool_calls":[{"name":"b","arguments":{}}]}`,
			kind:  Calls, calls: `a({})`},
		{name: "a call that also has tool_calls is one call in a fence too",
			input: "```json\n{\"name\":\"a\",\"arguments\":{},\"tool_calls\":[{\"name\":\"\",\"arguments\":{}}]}\n```",
			kind:  Calls, calls: `a({})`},
		{name: "a cut-off list under tool_calls asks for a retry",
			input: `{"tool_calls":[{"id":"1","type":"function","function":{"name":"a","arguments":"{}"}}`,
			kind:  Incomplete, partial: `{"tool_calls":[{"id":"1","type":"function","function":{"name":"a","arguments":"{}"}}`, reason: "ends before it is closed"},
		{name: "tool_calls that are not all calls are data",
			input: `{"tool_calls":[{"name":"a","arguments":{}},{"answer":42}]}`,
			kind:  Final, text: `{"tool_calls":[{"name":"a","arguments":{}},{"answer":42}]}`, reason: "not a tool call"},
		{name: "an unusable call under tool_calls asks for a retry, keeping the calls before it",
			input: `{"tool_calls":[{"name":"a","arguments":{}},{"name":"b","arguments":[1]}]}`,
			kind:  Incomplete, calls: `a({})`, partial: `{"tool_calls":[{"name":"a","arguments":{}},{"name":"b","arguments":[1]}]}`, reason: "not a JSON object"},
	})
}

func TestExtractSeveralCalls(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "one call per line are all returned", input: "{\"name\":\"a\",\"arguments\":{}}\n{\"name\":\"b\",\"arguments\":{}}\n",
			kind: Calls, calls: `a({}) b({})`},
		{name: "calls in several fences are all returned, with the prose between",
			input: "First:\n```json\n{\"name\":\"a\",\"arguments\":{}}\n```\nThen:\n```json\n{\"name\":\"b\",\"arguments\":{}}\n```",
			kind:  Calls, calls: `a({}) b({})`, text: "First:\nThen:"},
		{name: "an array of calls is all its calls", input: `[{"name":"a","arguments":{"x":1}}, {"type":"function","function":{"name":"b","arguments":"{}"}}]`,
			kind: Calls, calls: `a({"x":1}) b({})`},
		{name: "an array with something that is no call is text", input: `[{"name":"a","arguments":{}}, 3]`,
			kind: Final, text: `[{"name":"a","arguments":{}}, 3]`, reason: "the JSON array at byte 0 is not a list of tool calls"},
		{name: "prose, a glued pair and prose keep their order", input: `Reading both. {"name":"a"}{"name":"b"} Back soon.`,
			kind: Calls, calls: `a({}) b({})`, text: "Reading both.\nBack soon."},
	})
}

func TestExtractIncomplete(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "a call cut inside a key after its name is incomplete", input: `Let me look. {"name": "read_file", "argum`,
			kind: Incomplete, text: "Let me look.", partial: `{"name": "read_file", "argum`, reason: "JSON object starting at byte 13 ends before it is closed"},
		{name: "a call cut after a complete one keeps the complete one", input: "{\"name\":\"a\",\"arguments\":{}}\n{\"name\":\"b\",\"arguments\":{\"x\":[1,",
			kind: Incomplete, calls: `a({})`, partial: `{"name":"b","arguments":{"x":[1,`, reason: "byte 28"},
		{name: "an unclosed fence with a cut-off call is incomplete", input: "```json\n{\"name\":\"write\",\"arguments\":{\"text\":\"abc",
			kind: Incomplete, partial: `{"name":"write","arguments":{"text":"abc`, reason: "ends before it is closed"},
		{name: "an unclosed fence with a whole call is a call", input: "```json\n{\"name\":\"now\",\"arguments\":{}}\n",
			kind: Calls, calls: `now({})`},
		{name: "a closed fence around a cut-off call is incomplete", input: "```json\n{\"name\":\"a\",\"argu\n```\nsorry",
			kind: Incomplete, text: "sorry", partial: `{"name":"a","argu`, reason: "byte 8"},
		{name: "a cut-off array of calls keeps its complete calls", input: `[{"name":"a","arguments":{}}, {"name":"b","argu`,
			kind: Incomplete, calls: `a({})`, partial: `{"name":"b","argu`, reason: "JSON array starting at byte 0"},
		{name: "the OpenAI shape cut inside the function is incomplete", input: `{"type":"function","function":{"name":"a","arg`,
			kind: Incomplete, partial: `{"type":"function","function":{"name":"a","arg`, reason: "ends before it is closed"},
		{name: "arguments that are an array are unusable", input: `{"name":"calc","arguments":[1,2]}`,
			kind: Incomplete, partial: `{"name":"calc","arguments":[1,2]}`, reason: `the call to "calc" at byte 0 has arguments that are a JSON array`},
		{name: "a string of arguments that holds no object is unusable", input: `{"name":"calc","arguments":"{\"expr\": \"1+"}`,
			kind: Incomplete, partial: `{"name":"calc","arguments":"{\"expr\": \"1+"}`, reason: "a JSON string that does not hold a JSON object"},
		{name: "a number for arguments is unusable", input: `{"tool":"calc","args":7}`,
			kind: Incomplete, partial: `{"tool":"calc","args":7}`, reason: "are a number"},
		{name: "an empty tool name is unusable", input: `{"name":"","arguments":{}}`,
			kind: Incomplete, partial: `{"name":"","arguments":{}}`, reason: "empty tool name"},
		{name: "a garbled call with a name and arguments is incomplete, not an answer",
			input: "{\"name\":\"a\",\"arguments\":{\"x\":1}\nOops, let me fix that.",
			kind:  Incomplete, text: "Oops, let me fix that.", partial: `{"name":"a","arguments":{"x":1}`,
			reason: "the tool call starting at byte 0 is not valid JSON: invalid character 'O' after object key:value pair at byte 32"},
		{name: "a garbled OpenAI call is incomplete", input: `{"function":{"name":"a","arguments":{'x':1}}}`,
			kind: Incomplete, text: `'x':1}}}`, partial: `{"function":{"name":"a","arguments":{`, reason: "looking for beginning of object key string at byte 37"},
		{name: "an unusable call in an array stops at it, after the calls before it",
			input: `[{"name":"a","arguments":{}},{"name":"b","arguments":true},{"name":"c","arguments":{}}]`,
			kind:  Incomplete, calls: `a({})`, partial: `{"name":"b","arguments":true}`, reason: "are a boolean"},
	})
}

func TestExtractFinal(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "empty output is final with no text and a reason", input: "", kind: Final, reason: "the text is empty"},
		{name: "white space alone is final with no text", input: " \r\n\t", kind: Final, reason: "the text is empty"},
		{name: "a brace that starts no JSON is text", input: "Write {not json} here.", kind: Final, text: "Write {not json} here."},
		{name: "a template placeholder is text", input: "use {x} in your template", kind: Final, text: "use {x} in your template"},
		{name: "an unclosed brace of prose is text", input: "the set {1, 2", kind: Final, text: "the set {1, 2"},
		{name: "an unclosed object without a call name is text", input: `The result was {"answer": 42, "unit": "m`,
			kind: Final, text: `The result was {"answer": 42, "unit": "m`},
		{name: "JSON that is no call is part of the answer", input: `The answer is {"answer": 42}.`,
			kind: Final, text: `The answer is {"answer": 42}.`, reason: "the JSON object at byte 14 is not a tool call"},
		{name: "a person's name is not a tool call", input: `{"name":"Alice","age":30}`,
			kind: Final, text: `{"name":"Alice","age":30}`, reason: "not a tool call"},
		{name: "a name with spaces alone is not a tool call", input: `{"name":"Alice Smith"}`,
			kind: Final, text: `{"name":"Alice Smith"}`, reason: "not a tool call"},
		{name: "a tool definition is not a call",
			input: `{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}`,
			kind:  Final, text: `{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}`, reason: "not a tool call"},
		{name: "an MCP tool listing is not a call", input: `{"name":"f","inputSchema":{"type":"object"},"arguments":{}}`,
			kind: Final, text: `{"name":"f","inputSchema":{"type":"object"},"arguments":{}}`, reason: "not a tool call"},
		{name: "a call nested in data is data", input: `{"result":{"name":"a","arguments":{}}}`,
			kind: Final, text: `{"result":{"name":"a","arguments":{}}}`, reason: "not a tool call"},
		{name: "markdown links and citations are text", input: "See [the docs](https://x.y) and [1].",
			kind: Final, text: "See [the docs](https://x.y) and [1].", reason: "the JSON array at byte 32 is not a list of tool calls"},
		{name: "a garbled object with a name but no arguments is text", input: `post(json={"name": "bob", "age": 3,})`,
			kind: Final, text: `post(json={"name": "bob", "age": 3,})`},
		{name: "a name that is not a string is not a call", input: `{"name":{"first":"A"},"arguments":{}}`,
			kind: Final, text: `{"name":{"first":"A"},"arguments":{}}`, reason: "not a tool call"},
	})
}

func TestExtractFindsACallAfterBracesThatAreProse(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "a brace in a quoted phrase before the call", input: `He typed "{" and then {"name":"a","arguments":{}}`,
			kind: Calls, calls: `a({})`, text: `He typed "{" and then`},
		{name: "an unclosed key before the call", input: `odd {"x and {"name":"a","arguments":{}}`,
			kind: Calls, calls: `a({})`, text: `odd {"x and`},
		{name: "a markdown link before the call", input: `See [docs](u). {"name":"a","arguments":{}}`,
			kind: Calls, calls: `a({})`, text: "See [docs](u)."},
	})
}

func TestExtractReadsEachByteABoundedNumberOfTimes(t *testing.T) {
	tests := []struct{ name, text string }{
		{"nested brackets before a stray byte", strings.Repeat("[", 9000) + "x"},
		{"more brackets than the depth limit", strings.Repeat("[", 25000)},
		{"nested objects before a stray byte", strings.Repeat(`{"a":`, 5000) + "x"},
		{"brackets inside a string", `{"a":"` + strings.Repeat("[", 20000) + `" x`},
		{"brackets inside many strings", strings.Repeat(`["[[",`, 5000) + "x"},
		{"brackets inside many keys", strings.Repeat(`{"[[":`, 5000) + "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newExtractor(tt.text)
			x.run()
			if x.work > 4*len(tt.text) {
				t.Errorf("read %d bytes of a %d-byte text", x.work, len(tt.text))
			}
		})
	}
}

// TestExtractTellsFormatExamplesFromGarbledCalls pins down a trade-off: a
// garbled call is worth a retry, so an object that has a name and an
// arguments member before it stops being JSON counts as one, even when it
// is a format example with a placeholder for the arguments.
func TestExtractTellsFormatExamplesFromGarbledCalls(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "a placeholder before the arguments member leaves the example as text",
			input: `Reply with {"name": ..., "arguments": ...} to call a tool.`,
			kind:  Final, text: `Reply with {"name": ..., "arguments": ...} to call a tool.`},
		{name: "a placeholder inside the arguments is taken for a garbled call",
			input: `Reply with {"name": "tool", "arguments": {...}} to call a tool.`,
			kind:  Incomplete, text: `Reply with` + "\n" + `...}} to call a tool.`, partial: `{"name": "tool", "arguments": {`,
			reason: "looking for beginning of object key string at byte 42"},
	})
}

func TestExtractReturnsTheCallsBeforeAGarbledOne(t *testing.T) {
	runExtractCases(t, []extractCase{
		{name: "in an array", input: `[{"name":"a","arguments":{}}, {"name":"b","arguments":{}} x]`,
			kind: Incomplete, calls: `a({}) b({})`, text: "x]", partial: `[{"name":"a","arguments":{}}, {"name":"b","arguments":{}}`,
			reason: "invalid character 'x' after array element at byte 58"},
	})
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Final: "final", Calls: "calls", Incomplete: "incomplete", 7: "Kind(7)"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(k), got, want)
		}
	}
}
