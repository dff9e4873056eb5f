package server

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
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

func TestCanonicalJSON(t *testing.T) {
	cases := []struct{ a, b string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{`{"n":1}`, `{"n":1.0}`},
		{`{"n":100}`, `{"n":1e2}`},
		{`{"n":0.5}`, `{"n":5e-1}`},
		{`{"l":[1,{"y":2,"x":1}]}`, `{"l":[1.00,{"x":1,"y":2}]}`},
		{``, `{}`},
	}
	for _, tc := range cases {
		if a, b := canonicalJSON([]byte(tc.a)), canonicalJSON([]byte(tc.b)); string(a) != string(b) {
			t.Errorf("%s and %s differ: %s vs %s", tc.a, tc.b, a, b)
		}
	}
	if a, b := canonicalJSON([]byte(`{"n":1}`)), canonicalJSON([]byte(`{"n":"1"}`)); string(a) == string(b) {
		t.Error("a number and a string are the same")
	}
	if canonicalJSON([]byte(`{`)) != nil {
		t.Error("invalid JSON has a canonical form")
	}
}
