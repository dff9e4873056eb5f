package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

func TestTheLoopGuardStopsIdenticalCallsInARow(t *testing.T) {
	srv := New(Options{MaxRepeats: 2})
	rawTool(t, srv, ToolSpec{Name: "look", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	c.initialize()
	loop := "You have called look with the same arguments 3 times in a row; the result will not change. Use the answer you have, or change the arguments."
	steps := []struct{ args, want string }{
		{`{"path":"a","n":1}`, "ok"},
		{`{"n":1.0,"path":"a"}`, "ok"},    // the same call in another form
		{`{ "path":"a", "n":1e0 }`, loop}, // and a third time
		{`{"path":"b","n":1}`, "ok"},      // something else resets the count
		{`{"path":"a","n":1}`, "ok"},
		{`{"path":"a","n":2}`, "ok"},
	}
	for i, st := range steps {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"look","arguments":%s}}`, i, st.args))
		got := decode(t, c.recv())["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
		if got != st.want {
			t.Errorf("step %d (%s): got %q, want %q", i, st.args, got, st.want)
		}
	}
}

// FuzzSameJSONAgreesWithCanonicalJSON holds the loop guard's comparison
// to the canonical forms it replaces, on valid UTF-8 JSON texts whose
// numbers it compares by value.
func FuzzSameJSONAgreesWithCanonicalJSON(f *testing.F) {
	for _, tc := range [][2]string{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`}, {`{"n":1}`, `{"n":1.0}`}, {`{"n":1}`, `{"n":"1"}`}, {``, `{}`},
		{`{"l":[1,{"y":2,"x":1}]}`, `{"l":[1.00,{"x":1,"y":2}]}`}, {`{"a":1,"a":2}`, `{"a":2}`}, {`{"\u0061":"\/"}`, `{"a":"/"}`},
		{`{"path":"a.go","content":"x\ny"}`, `{"content":"x\u000ay","path":"a.go"}`}, {`[1,2]`, `[2,1]`}, {`"é"`, `"\u00e9"`},
		{`{"a":null}`, `{"a":false}`}, {`{"a":[]}`, `{"a":{}}`}, {`{"a":1e400}`, `{"a":1e401}`},
	} {
		f.Add(tc[0], tc[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, s := range []string{a, b} {
			if !utf8.ValidString(s) || (s != "" && !json.Valid([]byte(s))) || !smallNumbers(s) {
				return
			}
		}
		want := bytes.Equal(jsonwire.Canonical([]byte(a)), jsonwire.Canonical([]byte(b)))
		if got := sameJSON([]byte(a), []byte(b)); got != want {
			t.Fatalf("sameJSON(%s, %s) = %v; canonical forms equal: %v", a, b, got, want)
		}
	})
}

// smallNumbers reports whether every number in the JSON text s is one
// that sameJSON compares by value.
func smallNumbers(s string) bool {
	if s == "" {
		return true
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		if n, ok := tok.(json.Number); ok && !smallNumber([]byte(n)) {
			return false
		}
	}
}

// TestTheLoopGuardTellsLongArgumentsApartQuickly checks that two calls
// with different long arguments are not decoded whole to be compared.
func TestTheLoopGuardTellsLongArgumentsApartQuickly(t *testing.T) {
	long := strings.Repeat(`line\n\"quoted\"\t`, 1<<16)
	a := []byte(`{"path":"a.go","content":"` + long + `"}`)
	b := []byte(`{"path":"b.go","content":"` + long + `x"}`)
	if n := testing.AllocsPerRun(10, func() { sameJSON(a, b) }); n > 20 {
		t.Errorf("comparing %d bytes of arguments that differ in a path took %v allocations", len(a), n)
	}
	if sameJSON(a, b) {
		t.Error("different calls compare the same")
	}
	c := []byte(`{"content":"` + strings.ReplaceAll(long, `\n`, `\u000a`) + `","path":"a.go"}`)
	if !sameJSON(a, c) {
		t.Error("the same call written another way compares different")
	}
}
