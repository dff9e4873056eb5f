package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// fuzzMaxMessageBytes is the line limit of the fuzzed sessions: small, so
// that the fuzzer reaches it.
const fuzzMaxMessageBytes = 256

var serveSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"tools/list","params":{"cursor":"x"}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
	`{"jsonrpc":"2.0","id":{"a":"}"},"method":"ping"}`,
	`  {"id" : 1 , "jsonrpc" : "2.0" , "method" : "p\u0069ng" }  `,
	`"x"`, `null`, `{}`, `{"a":[{"b":"]}"}]}`,
}

// FuzzServe feeds the fuzz input, split into lines, to a fresh session and
// checks the output against an expectation computed for each line on its
// own, with encoding/json and the rules of JSON-RPC 2.0 and MCP, never
// with the server's parser:
//
//   - a line over the size limit: one -32600 error without id;
//   - a blank line (white space only): nothing;
//   - not UTF-8 or not JSON: one -32700 error without id;
//   - valid JSON but not an object (a batch, a scalar): one -32600 without id;
//   - an object where a JSON-RPC member (jsonrpc, id, method, params,
//     result, error) appears twice: one -32600 without id, since which of
//     them counts is undefined (RFC 8259 §4);
//   - an "id" that is not a string or a non-negative integer without
//     fraction or exponent (null, 1.5, 1e3, -1, true, {}, []): one -32600
//     without id, as MCP 2025-11-25 says when the id cannot be used;
//   - a response from the client (no method, exactly one of result and
//     error, a usable id): nothing;
//   - a notification (no id, a string method, params an object, null or
//     absent): nothing;
//   - any other line with a usable id: exactly one response carrying that
//     id byte for byte, as sent (escapes included); -32600 if jsonrpc is
//     not "2.0", method is missing or not a string, or result/error ride
//     on a request; -32602 if params is not an object (or null); for
//     well-formed requests ping answers {}, unknown methods -32601, and
//     tools/list, tools/call and logging/setLevel before any initialize
//     -32600;
//   - any other line without a usable id: one error without id.
//
// The one slack: a tools/call that a later notifications/cancelled names
// may go unanswered (MCP: the response should not be sent), depending on
// timing. Lines with the same id are counted as a multiset, so a
// tools/call reusing the id of one still in flight (answered -32600 with
// that id) fits too. Output lines that are notifications must have no id
// (the session has no roots callback and no confirmations, so the server
// sends no requests of its own).
//
// Planted bugs this caught (each reverted):
//   - appendError leaving out the id of every -32600 error: the seed
//     corpus fails (a -32600 without id too many, the ones with id 1
//     missing).
//   - stream.ReadObject dropping refused lines that start with '['
//     (batches unanswered): the seed corpus fails, 11 responses for 12.
//   - idKey taking negative integers as ids: the seed corpus fails, "a
//     response with an id no request may carry" (-14).
//   - readLine letting through lines one byte over the limit (len(line) >
//     s.max+1): plain fuzzing found a 257-byte line in under 30 s (a
//     -32700 where -32600 was due); the padPing seed now catches it at
//     once.
func FuzzServe(f *testing.F) {
	f.Add([]byte(strings.Join(serveSeeds, "\n")))
	f.Add([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":1}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"dG9vbHM6MQ"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":"\u0078","method":"logging/setLevel","params":{"level":"debug"}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"method":"nope","params":[1]}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/x","params":[1]}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/x","params":null}` + "\n" +
		`{"jsonrpc":"2.0","id":8,"method":"ping","params":{},"params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":9,"method":"ping","result":1}` + "\n" +
		`{"jsonrpc":"1.0","id":10,"method":"ping"}` + "\n" +
		`{"id":11,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":12}` + "\n" +
		`{"jsonrpc":"2.0","id":13,"result":1,"error":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":-14,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":15,"method":7}` + "\n" +
		`{"jsonrpc":"2.0","id":15,"method":"server/discover"}` + "\n" +
		`{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}` + "\n" +
		`[]` + "\n" + " \t\r" + "\n" + "\v" + "\n" +
		`{"jsonrpc":"2.0","id":16,"method":"ping","pad":"` + strings.Repeat("x", fuzzMaxMessageBytes) + `"}` + "\n" +
		`{"jsonrpc":"2.0","id":17,"method":"ping"}` + "\r\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"progressToken":"p"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}` + "\n" +
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"tools/call"}` + "\n"))
	// Lines of exactly the limit (with a CRLF ending) and one byte over it.
	f.Add([]byte(padPing(1, fuzzMaxMessageBytes) + "\r\n" + padPing(2, fuzzMaxMessageBytes+1) + "\n" +
		padPing(3, fuzzMaxMessageBytes) + "\r"))
	f.Fuzz(func(t *testing.T, input []byte) {
		srv := server.New(server.Options{MaxMessageBytes: fuzzMaxMessageBytes, PageSize: 1})
		type echoIn struct {
			A int `json:"a" default:"0"`
		}
		type echoOut struct {
			A int `json:"a"`
		}
		for _, n := range []string{"echo", "other"} {
			err := server.AddTool(srv, server.ToolSpec{Name: n, Description: "d", Level: security.Read},
				func(ctx context.Context, call *server.Call, in echoIn) (echoOut, error) {
					call.Progress(1, 2, "half")
					return echoOut(in), nil
				})
			if err != nil {
				t.Fatal(err)
			}
		}
		var out bytes.Buffer
		if err := srv.Serve(context.Background(), bytes.NewReader(input), &out); err != nil {
			t.Fatal(err)
		}
		checkSession(t, input, out.Bytes())
	})
}

// padPing returns a ping with the given id, padded to n bytes.
func padPing(id, n int) string {
	s := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","pad":""}`, id)
	return s[:len(s)-2] + strings.Repeat("x", n-len(s)) + `"}`
}

// expect is what one input line must produce.
type expect struct {
	line     int
	none     bool   // no response at all
	id       string // raw id the response carries; "" for none
	outcome  string // "result", "result {}", "error N", or "any"
	optional bool   // may go unanswered (a cancelled tools/call)
}

// reply is one response the server wrote.
type reply struct {
	id      string // raw id, "" when absent
	outcome string // "result" or "error N"
	result  []byte
}

// checkSession compares the server's output with the expectations of the
// input's lines.
func checkSession(t *testing.T, input, output []byte) {
	t.Helper()
	lines := strings.Split(string(input), "\n")
	exps := expectations(lines)

	if len(output) > 0 && output[len(output)-1] != '\n' {
		t.Fatalf("output does not end with a newline: %q", output)
	}
	var replies []reply
	for _, l := range strings.SplitAfter(string(output), "\n") {
		if l == "" {
			continue
		}
		if r, ok := parseOutput(t, []byte(strings.TrimSuffix(l, "\n"))); ok {
			replies = append(replies, r)
		}
	}

	// Group both sides by raw id ("" is the group of responses without id).
	want := map[string][]expect{}
	mandatory, optional := 0, 0
	for _, e := range exps {
		if e.none {
			continue
		}
		want[e.id] = append(want[e.id], e)
		if e.optional {
			optional++
		} else {
			mandatory++
		}
	}
	got := map[string][]reply{}
	for _, r := range replies {
		got[r.id] = append(got[r.id], r)
	}
	if len(replies) < mandatory || len(replies) > mandatory+optional {
		t.Fatalf("%d responses, want %d (+%d that may be cancelled)\ninput lines:\n%s\noutput:\n%s",
			len(replies), mandatory, optional, quoteLines(lines), output)
	}
	ids := make([]string, 0, len(want)+len(got))
	for id := range want {
		ids = append(ids, id)
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		if msg := matchGroup(want[id], got[id]); msg != "" {
			name := "id " + id
			if id == "" {
				name = "no id"
			}
			t.Fatalf("responses with %s: %s\ninput lines:\n%s\noutput:\n%s", name, msg, quoteLines(lines), output)
		}
	}
}

// matchGroup checks that the responses sharing one id can be assigned to
// the lines expecting that id: every mandatory line gets exactly one
// response of its outcome, optional lines at most one, and no response is
// left over. It returns "" when they can.
func matchGroup(want []expect, got []reply) string {
	describe := func() string {
		var w, g []string
		for _, e := range want {
			s := fmt.Sprintf("line %d: %s", e.line+1, e.outcome)
			if e.optional {
				s += " (optional)"
			}
			w = append(w, s)
		}
		for _, r := range got {
			g = append(g, r.outcome)
		}
		return fmt.Sprintf("want [%s], got [%s]", strings.Join(w, "; "), strings.Join(g, "; "))
	}
	left := map[string]int{} // outcomes not yet assigned
	results := 0             // of which successes whose result is {}
	for _, r := range got {
		left[r.outcome]++
		if r.outcome == "result" && string(r.result) == "{}" {
			results++
		}
	}
	take := func(outcome string) bool {
		if outcome == "result {}" {
			if results == 0 {
				return false
			}
			results--
			outcome = "result"
		}
		if left[outcome] == 0 {
			return false
		}
		left[outcome]--
		return true
	}
	// Mandatory lines with a definite outcome first; "result {}" before
	// "result", so that a bare result never takes the {} a ping needs.
	sorted := append([]expect(nil), want...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].outcome == "result {}" && sorted[j].outcome != "result {}" })
	mandAny, optAny := 0, 0
	optSpecific := map[string]int{}
	for _, e := range sorted {
		switch {
		case e.outcome == "any" && e.optional:
			optAny++
		case e.outcome == "any":
			mandAny++
		case e.optional:
			optSpecific[e.outcome]++
		default:
			if !take(e.outcome) {
				return describe()
			}
		}
	}
	// What is left goes to optional lines of its outcome, the rest to
	// lines that accept anything; the mandatory ones of those must all be
	// filled.
	remaining, excess := 0, 0
	for o, n := range left {
		remaining += n
		excess += max(0, n-optSpecific[o])
	}
	if excess > mandAny+optAny || remaining < mandAny {
		return describe()
	}
	return ""
}

// parseOutput checks one output line: a single JSON-RPC 2.0 message,
// without duplicate members. It returns the response, or ok false for a
// notification.
func parseOutput(t *testing.T, l []byte) (reply, bool) {
	t.Helper()
	if !utf8.Valid(l) || !json.Valid(l) || len(l) == 0 || l[0] != '{' {
		t.Fatalf("output line is not one JSON object: %q", l)
	}
	ms, err := topMembers(l)
	if err != nil {
		t.Fatalf("output line %q: %v", l, err)
	}
	m := map[string]json.RawMessage{}
	for _, mb := range ms {
		if _, dup := m[mb.name]; dup {
			t.Fatalf("output line repeats %q: %s", mb.name, l)
		}
		m[mb.name] = mb.value
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("output line without \"jsonrpc\":\"2.0\": %s", l)
	}
	if method, ok := m["method"]; ok {
		var name string
		if json.Unmarshal(method, &name) != nil || !strings.HasPrefix(name, "notifications/") {
			t.Fatalf("the server sent a request or a bad method: %s", l)
		}
		if _, ok := m["id"]; ok {
			t.Fatalf("notification with an id: %s", l)
		}
		if m["result"] != nil || m["error"] != nil {
			t.Fatalf("notification with result or error: %s", l)
		}
		return reply{}, false
	}
	var r reply
	if id, ok := m["id"]; ok {
		if !usableID(id) {
			t.Fatalf("response with an id no request may carry: %s", l)
		}
		r.id = string(id)
	}
	res, hasRes := m["result"]
	e, hasErr := m["error"]
	switch {
	case hasRes == hasErr:
		t.Fatalf("response needs exactly one of result and error: %s", l)
	case hasRes:
		r.outcome = "result"
		var c bytes.Buffer
		if err := json.Compact(&c, res); err != nil {
			t.Fatal(err)
		}
		r.result = c.Bytes()
	default:
		var eo struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if err := json.Unmarshal(e, &eo); err != nil || eo.Code == nil || eo.Message == nil || *eo.Message == "" {
			t.Fatalf("error without an integer code and a message: %s", l)
		}
		if _, err := eo.Code.Int64(); err != nil {
			t.Fatalf("error code is not an integer: %s", l)
		}
		r.outcome = "error " + eo.Code.String()
	}
	return r, true
}

// expectations computes, from the input lines alone, what each must
// produce.
func expectations(lines []string) []expect {
	exps := make([]lineExpect, len(lines))
	initSeen := false // an initialize request came before this line
	type callLine struct {
		idx int
		id  json.RawMessage
	}
	var calls []callLine // tools/call requests after an initialize
	for i, s := range lines {
		e := classify([]byte(s), initSeen)
		e.line = i
		exps[i] = e
		if e.method == "initialize" {
			initSeen = true
		}
		if e.method == "tools/call" && initSeen {
			calls = append(calls, callLine{i, json.RawMessage(e.id)})
		}
		if e.cancels != nil {
			for _, c := range calls {
				for _, rid := range e.cancels {
					if mayName(rid, c.id) {
						exps[c.idx].optional = true
						exps[c.idx].outcome = "any"
					}
				}
			}
		}
	}
	out := make([]expect, len(exps))
	for i, e := range exps {
		out[i] = e.expect
	}
	return out
}

// lineExpect is an expectation with what later lines need to know.
type lineExpect struct {
	expect
	method  string            // of a well-formed request
	cancels []json.RawMessage // requestIds of a notifications/cancelled
}

// classify works out what one line must produce. initSeen tells whether
// an initialize request came before it.
func classify(line []byte, initSeen bool) lineExpect {
	none := lineExpect{expect: expect{none: true}}
	noID := func(code int) lineExpect {
		return lineExpect{expect: expect{outcome: fmt.Sprintf("error %d", code)}}
	}
	line = bytes.TrimSuffix(line, []byte("\r")) // CRLF line endings are accepted
	if len(line) > fuzzMaxMessageBytes {
		return noID(-32600)
	}
	if blank(line) {
		return none
	}
	if !utf8.Valid(line) || !json.Valid(line) {
		return noID(-32700)
	}
	if bytes.TrimSpace(line)[0] != '{' {
		return noID(-32600) // a batch or a scalar
	}
	ms, err := topMembers(line)
	if err != nil {
		panic(err) // valid JSON: cannot happen
	}
	raw := map[string]json.RawMessage{}
	for _, m := range ms {
		switch m.name {
		case "jsonrpc", "id", "method", "params", "result", "error":
			if _, dup := raw[m.name]; dup {
				return noID(-32600)
			}
			raw[m.name] = m.value
		}
	}
	idRaw, hasID := raw["id"]
	if hasID && !usableID(idRaw) {
		return noID(-32600)
	}
	withID := func(outcome string) lineExpect {
		if !hasID {
			return lineExpect{expect: expect{outcome: outcome}}
		}
		return lineExpect{expect: expect{id: string(idRaw), outcome: outcome}}
	}
	var version string
	if v, ok := raw["jsonrpc"]; !ok || json.Unmarshal(v, &version) != nil || version != "2.0" {
		return withID("error -32600")
	}
	methodRaw, hasMethod := raw["method"]
	_, hasResult := raw["result"]
	_, hasError := raw["error"]
	if !hasMethod {
		if hasResult != hasError && hasID {
			return none // a response to a request of the server's
		}
		return withID("error -32600")
	}
	var method string
	if json.Unmarshal(methodRaw, &method) != nil {
		return withID("error -32600") // method is not a string
	}
	if hasResult || hasError {
		return withID("error -32600")
	}
	params, hasParams := raw["params"]
	if hasParams && string(params) == "null" {
		hasParams = false // null params mean none, as typed clients send them
	}
	if hasParams && params[0] != '{' {
		return withID("error -32602")
	}
	if !hasID {
		e := none
		if method == "notifications/cancelled" && hasParams {
			pm, _ := topMembers(params)
			for _, m := range pm {
				// encoding/json matches field names without regard to case
				if strings.EqualFold(m.name, "requestId") {
					e.cancels = append(e.cancels, m.value)
				}
			}
		}
		return e
	}
	e := withID("any")
	e.method = method
	switch method {
	case "ping":
		e.outcome = "result {}"
	case "initialize":
	case "tools/list", "tools/call", "logging/setLevel":
		if !initSeen {
			e.outcome = "error -32600"
		}
	default:
		e.outcome = "error -32601"
	}
	return e
}

// usableID reports whether a raw id is one MCP allows: a string, or a
// non-negative integer written without fraction or exponent.
func usableID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return true
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// mayName reports whether a cancellation's requestId could name the
// request with id: the same string, or possibly the same number. It errs
// on the side of yes.
func mayName(requestID, id json.RawMessage) bool {
	if len(requestID) == 0 {
		return false
	}
	if requestID[0] == '"' || id[0] == '"' {
		var a, b string
		return json.Unmarshal(requestID, &a) == nil && json.Unmarshal(id, &b) == nil && a == b
	}
	if requestID[0] == '-' || (requestID[0] >= '0' && requestID[0] <= '9') {
		return !usableID(requestID) || bytes.Equal(requestID, id) // 1.0 or 1e0 may count as 1
	}
	return false
}

// blank reports whether a line has nothing but white space. Besides
// JSON's four white space characters this counts \v, \f, U+0085 and
// U+00A0 (unicode.IsSpace): a line of those is no message either.
func blank(line []byte) bool {
	for _, r := range string(line) {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// jsonMember is one top-level member of a JSON object, duplicates kept.
type jsonMember struct {
	name  string
	value json.RawMessage
}

// topMembers lists the members of a valid JSON object in order, with
// encoding/json's decoder; values are raw and trimmed of white space.
func topMembers(obj []byte) ([]jsonMember, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not an object: %v", err)
	}
	var out []jsonMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("member name %v", tok)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, jsonMember{name, json.RawMessage(bytes.TrimSpace(v))})
	}
	return out, nil
}

func quoteLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%3d %q\n", i+1, l)
	}
	return b.String()
}
