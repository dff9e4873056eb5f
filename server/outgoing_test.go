package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// confirmTool asks for confirmation and reports whether it may go on.
func confirmTool(t *testing.T, srv *Server) {
	rawTool(t, srv, ToolSpec{Name: "write", Description: "writes"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		if err := call.Confirm(ctx, `Overwrite "notes/a.txt" with 12 bytes?`); err != nil {
			return ErrorResult(err.Error())
		}
		return &CallToolResult{Content: []Content{TextContent("written")}}
	})
}

func initWith(c *pipeClient, version, caps string) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + caps + `,"clientInfo":{"name":"t","version":"1"}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func TestConfirmAsksTheUserThroughElicitation(t *testing.T) {
	cases := []struct {
		answer string
		want   string
	}{
		{`{"action":"accept"}`, "written"},
		{`{"action":"accept","content":{}}`, "written"},
		{`{"action":"decline"}`, "The user declined this change; nothing was changed. Ask the user before trying it again."},
		{`{"action":"cancel"}`, "The user dismissed the confirmation without accepting; nothing was changed."},
	}
	for _, tc := range cases {
		t.Run(tc.answer, func(t *testing.T) {
			srv := New(Options{ConfirmWrites: true})
			confirmTool(t, srv)
			c := serve(t, srv)
			initWith(c, "2025-11-25", `{"elicitation":{}}`)
			c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write"}}`)
			req := decode(t, c.recv())
			if req["method"] != "elicitation/create" {
				t.Fatalf("expected elicitation/create, got %v", req)
			}
			params := req["params"].(map[string]any)
			if params["message"] != `Overwrite "notes/a.txt" with 12 bytes?` || params["requestedSchema"] == nil {
				t.Fatalf("params: %v", params)
			}
			id, _ := json.Marshal(req["id"])
			c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + tc.answer + `}`)
			resp := decode(t, c.recv())
			text := resp["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
			if text != tc.want {
				t.Fatalf("got %q, want %q", text, tc.want)
			}
		})
	}
}

func TestConfirmRefusesAtOnceWhenTheClientCannotAsk(t *testing.T) {
	cases := map[string]struct{ version, caps string }{
		"no elicitation capability":     {"2025-11-25", `{}`},
		"a version without elicitation": {"2025-03-26", `{"elicitation":{}}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := New(Options{ConfirmWrites: true})
			confirmTool(t, srv)
			c := serve(t, srv)
			initWith(c, tc.version, tc.caps)
			c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write"}}`)
			want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"This server asks the user to confirm every change, but the client cannot ask the user (it did not declare elicitation); nothing was changed."}],"isError":true}}`
			if got := c.recv(); got != want {
				t.Fatalf("\n got  %s\n want %s", got, want)
			}
		})
	}
}

func TestConfirmGivesUpAfterItsTimeoutAndTellsTheClient(t *testing.T) {
	srv := New(Options{ConfirmWrites: true, ConfirmTimeout: 30 * time.Millisecond})
	confirmTool(t, srv)
	c := serve(t, srv)
	initWith(c, "2025-06-18", `{"elicitation":{}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write"}}`)
	req := decode(t, c.recv())
	if req["method"] != "elicitation/create" {
		t.Fatalf("got %v", req)
	}
	var cancelled, result string
	for range 2 {
		l := c.recv()
		if strings.Contains(l, "notifications/cancelled") {
			cancelled = l
		} else {
			result = l
		}
	}
	if !strings.Contains(cancelled, `"requestId":"`+req["id"].(string)+`"`) {
		t.Errorf("the client was not told to stop: %q", cancelled)
	}
	if !strings.Contains(result, `The user did not answer the confirmation within 30ms; nothing was changed.`) {
		t.Errorf("result: %s", result)
	}
}

func TestConfirmIsANoOpUnlessAsked(t *testing.T) {
	srv := New(Options{})
	confirmTool(t, srv)
	res, err := srv.CallTool(context.Background(), "write", nil)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	srv = New(Options{ConfirmWrites: true})
	confirmTool(t, srv)
	res, _ = srv.CallTool(context.Background(), "write", nil)
	if !res.IsError || !strings.Contains(res.Content[0].Text(), "nobody to ask") {
		t.Fatalf("%+v", res)
	}
}

func TestClientRootsAreFetchedBeforeCallsRun(t *testing.T) {
	var mu sync.Mutex
	var events []string
	srv := New(Options{Roots: func(ctx context.Context, paths []string, err error) {
		mu.Lock()
		events = append(events, "roots "+strings.Join(paths, ","))
		mu.Unlock()
	}})
	rawTool(t, srv, ToolSpec{Name: "look", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		mu.Lock()
		events = append(events, "call")
		mu.Unlock()
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	initWith(c, "2025-11-25", `{"roots":{"listChanged":true}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look"}}`)
	req := decode(t, c.recv())
	if req["method"] != "roots/list" {
		t.Fatalf("expected roots/list, got %v", req)
	}
	time.Sleep(20 * time.Millisecond) // the call must still be waiting
	id, _ := json.Marshal(req["id"])
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"roots":[{"uri":"file:///srv/work/a%20b","name":"a"},{"uri":"https://example.com/x"}]}}`)
	if got := c.recv(); !strings.Contains(got, `"id":1,"result"`) {
		t.Fatalf("got %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	req = decode(t, c.recv())
	if req["method"] != "roots/list" {
		t.Fatalf("expected a second roots/list, got %v", req)
	}
	id, _ = json.Marshal(req["id"])
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"roots":[]}}`)
	c.quiet()
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(events, "; "); got != "roots /srv/work/a b; call; roots " {
		t.Fatalf("events: %s", got)
	}
}

func TestNoRootsAreAskedOfAClientWithoutThem(t *testing.T) {
	asked := false
	srv := New(Options{Roots: func(ctx context.Context, paths []string, err error) { asked = true }})
	rawTool(t, srv, ToolSpec{Name: "look", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	initWith(c, "2025-11-25", `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look"}}`)
	if got := c.recv(); !strings.Contains(got, `"id":1,"result"`) {
		t.Fatalf("got %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	c.quiet()
	if asked {
		t.Fatal("roots were asked of a client that has none")
	}
}

func TestCallLimits(t *testing.T) {
	now := time.Unix(0, 0)
	srv := New(Options{MaxCalls: 5, CallsPerSecond: 2, MaxRepeats: -1, Now: func() time.Time { return now }})
	rawTool(t, srv, ToolSpec{Name: "look", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	c.initialize()
	steps := []struct {
		advance time.Duration
		want    string
	}{
		{0, "ok"}, {0, "ok"},
		{0, "Too many calls: this server runs at most 2 calls per second. Wait 500ms and try again."},
		{250 * time.Millisecond, "Too many calls: this server runs at most 2 calls per second. Wait 250ms and try again."},
		{250 * time.Millisecond, "ok"},
		{time.Second, "ok"}, {0, "ok"},
		{time.Hour, "This session has used all 5 tool calls it is allowed; no more calls will run. Finish with what you have."},
	}
	for i, st := range steps {
		now = now.Add(st.advance)
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"look"}}`, i))
		got := decode(t, c.recv())["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
		if got != st.want {
			t.Errorf("step %d: got %q, want %q", i, got, st.want)
		}
	}
}

func TestCallsWaitingForTheClientDoNotBlockTheReader(t *testing.T) {
	// One slot: a call waiting for a confirmation must not keep the
	// reader from reading the answer, even with another call queued.
	srv := New(Options{ConfirmWrites: true, MaxInFlight: 1})
	confirmTool(t, srv)
	rawTool(t, srv, ToolSpec{Name: "quick", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("quick")}}
	})
	c := serve(t, srv)
	initWith(c, "2025-11-25", `{"elicitation":{}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write"}}`)
	req := decode(t, c.recv())
	if req["method"] != "elicitation/create" {
		t.Fatalf("got %v", req)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick"}}`)
	id, _ := json.Marshal(req["id"])
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept"}}`)
	got := map[string]bool{}
	for range 2 {
		got[decode(t, c.recv())["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)] = true
	}
	if !got["quick"] || !got["written"] {
		t.Fatalf("got %v", got)
	}
}

func TestRootsThatNeverArriveAllowNothing(t *testing.T) {
	var mu sync.Mutex
	var got []error
	srv := New(Options{MaxInFlight: 1, RootsTimeout: 20 * time.Millisecond, Roots: func(ctx context.Context, paths []string, err error) {
		mu.Lock()
		got = append(got, err)
		mu.Unlock()
	}})
	rawTool(t, srv, ToolSpec{Name: "look", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	initWith(c, "2025-11-25", `{"roots":{}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look"}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"look"}}`)
	if req := decode(t, c.recv()); req["method"] != "roots/list" {
		t.Fatalf("got %v", req)
	}
	// The client never answers; the calls go on once the roots are taken
	// to be empty, and the reader was never stuck.
	for range 3 {
		l := c.recv()
		if strings.Contains(l, "notifications/cancelled") {
			continue
		}
		if !strings.Contains(l, `"result"`) {
			t.Fatalf("got %s", l)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || got[0] == nil {
		t.Fatalf("Roots got %v, want an error first", got)
	}
}
