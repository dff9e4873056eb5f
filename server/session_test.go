package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

func TestInitializeNegotiatesTheProtocolVersion(t *testing.T) {
	cases := []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"1900-01-01", "2025-11-25"},
		{"2026-07-28", "2025-11-25"},
	}
	for _, tc := range cases {
		t.Run("asked for "+tc.asked, func(t *testing.T) {
			c := serve(t, New(Options{Version: "1.2.3", Instructions: "Be careful."}))
			c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + tc.asked +
				`","capabilities":{"roots":{"listChanged":true},"extensions":{"io.modelcontextprotocol/tasks":{}},"whatever":1},"clientInfo":{"name":"t","version":"0"}}}`)
			want := `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"` + tc.want +
				`","capabilities":{"logging":{},"tools":{}},"serverInfo":{"name":"toolserver","title":"toolserver","version":"1.2.3"},"instructions":"Be careful."}}`
			if got := c.recv(); got != want {
				t.Fatalf("\n got  %s\n want %s", got, want)
			}
		})
	}
}

func TestInitializeRefusesMissingVersionAndSecondHandshake(t *testing.T) {
	c := serve(t, New(Options{}))
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: initialize needs a protocolVersion such as \"2025-11-25\""}}` {
		t.Fatal(got)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"initialize"}`)
	if got := c.recv(); !strings.Contains(got, `"code":-32602`) {
		t.Fatal(got)
	}
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: the session is already initialized; send initialize once per session"}}` {
		t.Fatal(got)
	}
}

func TestRequestsBeforeInitializeAreTurnedAway(t *testing.T) {
	c := serve(t, New(Options{}))
	for _, m := range []string{"tools/list", "tools/call", "logging/setLevel"} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"` + m + `"}`)
		want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: send initialize first; ` + m + ` is accepted only after the initialize handshake"}}`
		if got := c.recv(); got != want {
			t.Errorf("%s:\n got  %s\n want %s", m, got, want)
		}
	}
	// ping is answered at any time.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatal(got)
	}
}

func TestLegacyDiscoverAndUnknownMethodsGetMethodNotFound(t *testing.T) {
	c := serve(t, New(Options{}))
	c.send(`{"jsonrpc":"2.0","id":"d","method":"server/discover"}`)
	got := decode(t, c.recv())
	if e := got["error"].(map[string]any); e["code"].(float64) != -32601 || !strings.Contains(e["message"].(string), "send initialize") {
		t.Fatalf("discover: %v", got)
	}
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`)
	want := `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found: \"resources/list\"; this server answers initialize, ping, tools/list, tools/call and logging/setLevel"}}`
	if got := c.recv(); got != want {
		t.Fatalf("\n got  %s\n want %s", got, want)
	}
}

func TestToolsListPagesWithOpaqueCursors(t *testing.T) {
	srv := New(Options{PageSize: 2})
	for _, n := range []string{"c", "a", "b", "d", "e"} {
		rawTool(t, srv, ToolSpec{Name: n, Description: "tool " + n}, nil)
	}
	c := serve(t, srv)
	c.initialize()
	var names []string
	cursor := ""
	for page := 0; page < 10; page++ {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":%s}`, page+1, params))
		res := decode(t, c.recv())["result"].(map[string]any)
		for _, tl := range res["tools"].([]any) {
			names = append(names, tl.(map[string]any)["name"].(string))
		}
		next, ok := res["nextCursor"].(string)
		if !ok {
			break
		}
		cursor = next
	}
	if got := strings.Join(names, ","); got != "c,a,b,d,e" {
		t.Fatalf("tools came as %s, want registration order c,a,b,d,e", got)
	}
	for _, bad := range []string{"garbage", encodeCursor(0), encodeCursor(5), encodeCursor(-1), ""} {
		c.send(`{"jsonrpc":"2.0","id":"bad","method":"tools/list","params":{"cursor":"` + bad + `"}}`)
		if got := c.recv(); !strings.Contains(got, `"code":-32602`) || !strings.Contains(got, "nextCursor") {
			t.Errorf("cursor %q: %s", bad, got)
		}
	}
}

func TestToolsListDescribesEachToolHonestly(t *testing.T) {
	srv := New(Options{AllowAdmin: true})
	rawTool(t, srv, ToolSpec{Name: "look", Title: "Look", Description: "reads", Level: security.Read}, nil)
	rawTool(t, srv, ToolSpec{Name: "mkdir", Description: "creates", Level: security.Write, Idempotent: true}, nil)
	rawTool(t, srv, ToolSpec{Name: "rm", Description: "deletes", Level: security.Admin}, nil)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"tools":[` +
		`{"name":"look","title":"Look","description":"reads","inputSchema":{"type":"object"},"annotations":{"title":"Look","readOnlyHint":true,"openWorldHint":false}},` +
		`{"name":"mkdir","description":"creates","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}},` +
		`{"name":"rm","description":"deletes","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":false}}]}}`
	if got := c.recv(); got != want {
		t.Fatalf("\n got  %s\n want %s", got, want)
	}
}

func TestLevelsDecideWhatIsListedAndServed(t *testing.T) {
	cases := []struct {
		name   string
		opts   Options
		listed string
		refuse map[string]string
	}{
		{"by default admin tools are hidden", Options{}, "look,mkdir",
			map[string]string{"rm": `tool \"rm\" is not available: it needs the admin level and this server serves only read and write tools; available tools: look, mkdir`}},
		{"read-only serves read tools alone", Options{ReadOnly: true}, "look",
			map[string]string{"mkdir": `tool \"mkdir\" is not available: it needs the write level and this server serves only read tools; available tools: look`,
				"rm": `tool \"rm\" is not available: it needs the admin level and this server serves only read tools; available tools: look`}},
		{"allow-admin serves everything", Options{AllowAdmin: true}, "look,mkdir,rm", nil},
		{"read-only wins over allow-admin", Options{ReadOnly: true, AllowAdmin: true}, "look", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(tc.opts)
			ok := func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
				return &CallToolResult{Content: []Content{TextContent("ran")}}
			}
			rawTool(t, srv, ToolSpec{Name: "look", Description: "reads", Level: security.Read}, ok)
			rawTool(t, srv, ToolSpec{Name: "mkdir", Description: "creates", Level: security.Write}, ok)
			rawTool(t, srv, ToolSpec{Name: "rm", Description: "deletes", Level: security.Admin}, ok)
			var listed []string
			for _, tl := range srv.Tools() {
				listed = append(listed, tl.Name)
			}
			if got := strings.Join(listed, ","); got != tc.listed {
				t.Errorf("listed %s, want %s", got, tc.listed)
			}
			c := serve(t, srv)
			c.initialize()
			c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			if got := c.recv(); strings.Count(got, `"name":`) != len(listed) {
				t.Errorf("tools/list disagrees with Tools(): %s", got)
			}
			for name, want := range tc.refuse {
				c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + name + `"}}`)
				if got := c.recv(); got != `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: `+want+`"}}` {
					t.Errorf("%s: %s", name, got)
				}
			}
		})
	}
}

func TestBadToolDefinitionsAreRefusedAtRegistration(t *testing.T) {
	srv := New(Options{})
	cases := []struct {
		spec ToolSpec
		want string
	}{
		{ToolSpec{Name: "", Description: "d"}, `tool name "" is invalid`},
		{ToolSpec{Name: "has space", Description: "d"}, `tool name "has space" is invalid`},
		{ToolSpec{Name: strings.Repeat("x", 129), Description: "d"}, `is invalid: use 1 to 128`},
		{ToolSpec{Name: "slash/name", Description: "d"}, `tool name "slash/name" is invalid`},
		{ToolSpec{Name: "nodesc"}, `tool "nodesc" has no description`},
		{ToolSpec{Name: "lvl", Description: "d", Level: 7}, `unknown level`},
	}
	for _, tc := range cases {
		err := srv.tools.add(&tool{spec: tc.spec})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.spec, err, tc.want)
		}
	}
	if err := srv.tools.add(&tool{spec: ToolSpec{Name: "ok.name-1_x", Description: "d"}}); err != nil {
		t.Fatal(err)
	}
	if err := srv.tools.add(&tool{spec: ToolSpec{Name: "ok.name-1_x", Description: "d"}}); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("duplicate: %v", err)
	}
}

func TestToolsCallProtocolErrors(t *testing.T) {
	srv := New(Options{})
	rawTool(t, srv, ToolSpec{Name: "echo", Description: "echoes"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent(string(args))}}
	})
	rawTool(t, srv, ToolSpec{Name: "other", Description: "o"}, nil)
	c := serve(t, srv)
	c.initialize()
	cases := []struct{ params, want string }{
		{``, `Invalid params: tools/call needs params with \"name\", the tool to run, and \"arguments\"`},
		{`{}`, `Invalid params: tools/call needs \"name\", the tool to run; available tools: echo, other`},
		{`{"name":"nope"}`, `Invalid params: unknown tool \"nope\"; available tools: echo, other`},
		{`{"name":5}`, `Invalid params: \"name\" must be a string, got a number`},
		{`{"name":"echo","arguments":"x"}`, `Invalid params: \"arguments\" must be a JSON object, got a string`},
		{`{"name":"echo","arguments":[1]}`, `Invalid params: \"arguments\" must be a JSON object, got an array`},
	}
	for i, tc := range cases {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call"`, i)
		if tc.params != "" {
			req += `,"params":` + tc.params
		}
		c.send(req + "}")
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"%s"}}`, i, tc.want)
		if got := c.recv(); got != want {
			t.Errorf("params %s:\n got  %s\n want %s", tc.params, got, want)
		}
	}
	// Absent and null arguments both mean no arguments.
	for _, p := range []string{`{"name":"echo"}`, `{"name":"echo","arguments":null}`} {
		c.send(`{"jsonrpc":"2.0","id":"ok","method":"tools/call","params":` + p + `}`)
		if got := c.recv(); got != `{"jsonrpc":"2.0","id":"ok","result":{"content":[{"type":"text","text":""}]}}` {
			t.Errorf("%s: %s", p, got)
		}
	}
}

func TestAPanickingToolBecomesAnErrorResult(t *testing.T) {
	srv := New(Options{})
	rawTool(t, srv, ToolSpec{Name: "boom", Description: "panics"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		panic("tool bug")
	})
	rawTool(t, srv, ToolSpec{Name: "nothing", Description: "returns nil"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return nil
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"boom"}}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"The tool boom failed with an internal error; the details are in the server log. Try again, or use another way."}],"isError":true}}`
	if got := c.recv(); got != want {
		t.Fatalf("\n got  %s\n want %s", got, want)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nothing"}}`)
	if got := c.recv(); !strings.Contains(got, `"isError":true`) {
		t.Fatal(got)
	}
	c.quiet()
}

func TestAResultThatCannotBeEncodedBecomesAnErrorResult(t *testing.T) {
	srv := New(Options{})
	rawTool(t, srv, ToolSpec{Name: "nan", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("x")}, StructuredContent: map[string]any{"v": nanValue()}}
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nan"}}`)
	if got := c.recv(); !strings.Contains(got, `could not be encoded as JSON`) || !strings.Contains(got, `"isError":true`) {
		t.Fatal(got)
	}
}

// slowTool blocks until released or cancelled, reporting progress as it
// goes.
type slowTool struct {
	started  chan string
	release  chan struct{}
	mu       sync.Mutex
	finished []string
}

func newSlowTool(t *testing.T, srv *Server) *slowTool {
	st := &slowTool{started: make(chan string, 100), release: make(chan struct{})}
	rawTool(t, srv, ToolSpec{Name: "slow", Description: "waits"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		st.started <- string(call.ID)
		call.Progress(1, 3, "started")
		call.Progress(1, 3, "not increasing: dropped")
		call.Progress(0.5, 3, "decreasing: dropped")
		select {
		case <-ctx.Done():
			st.mu.Lock()
			st.finished = append(st.finished, string(call.ID)+":cancelled")
			st.mu.Unlock()
			return ErrorResult("cancelled")
		case <-st.release:
		}
		call.Progress(2, 3, "")
		st.mu.Lock()
		st.finished = append(st.finished, string(call.ID)+":done")
		st.mu.Unlock()
		return &CallToolResult{Content: []Content{TextContent("done " + string(call.ID))}}
	})
	return st
}

func TestCancellationStopsTheCallAndSuppressesItsResponse(t *testing.T) {
	srv := New(Options{})
	st := newSlowTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow"}}`)
	c.send(`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"slow"}}`)
	<-st.started
	<-st.started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a","reason":"user pressed stop"}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"zzz"}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`)
	deadline := time.Now().Add(5 * time.Second)
	for {
		st.mu.Lock()
		n := len(st.finished)
		st.mu.Unlock()
		if n == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(st.release)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":"b","result":{"content":[{"type":"text","text":"done \"b\""}]}}` {
		t.Fatalf("got %s", got)
	}
	c.quiet() // nothing for "a"
	st.mu.Lock()
	defer st.mu.Unlock()
	if strings.Join(st.finished, " ") != `"a":cancelled "b":done` {
		t.Fatalf("finished: %v", st.finished)
	}
	// A cancel for a finished call is ignored.
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}`)
	c.quiet()
}

func TestProgressIsStrictlyIncreasingAndEndsBeforeTheResponse(t *testing.T) {
	srv := New(Options{})
	st := newSlowTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"tok-1"}}}`)
	<-st.started
	first := c.recv()
	close(st.release)
	lines := []string{first, c.recv(), c.recv()}
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-1","progress":1,"total":3,"message":"started"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-1","progress":2,"total":3}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done 1"}]}}`,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got  %s\n want %s", i, lines[i], want[i])
		}
	}
	c.quiet()
}

func TestNoProgressWithoutAToken(t *testing.T) {
	srv := New(Options{})
	st := newSlowTool(t, srv)
	close(st.release)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}`)
	if got := c.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":7,"result"`) {
		t.Fatalf("got %s", got)
	}
}

func TestProgressAfterTheResponseIsDropped(t *testing.T) {
	srv := New(Options{})
	late := make(chan *Call, 1)
	rawTool(t, srv, ToolSpec{Name: "late", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		late <- call
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"late","_meta":{"progressToken":5}}}`)
	c.recv()
	if (<-late).Progress(10, 0, "too late") {
		t.Fatal("progress after the response was sent")
	}
	c.quiet()
}

func TestLoggingSetLevelFiltersMessages(t *testing.T) {
	srv := New(Options{})
	rawTool(t, srv, ToolSpec{Name: "chatty", Description: "logs"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		call.Log(LevelDebug, "debug detail")
		call.Log(LevelWarning, map[string]any{"disk": "almost full"})
		return &CallToolResult{Content: []Content{TextContent("ok")}}
	})
	c := serve(t, srv)
	c.initialize()
	// Before setLevel nothing is sent.
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"chatty"}}`)
	if got := c.recv(); !strings.Contains(got, `"id":1,"result"`) {
		t.Fatal(got)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatal(got)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty"}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"chatty","data":{"disk":"almost full"}}}` {
		t.Fatal(got)
	}
	c.recv()
	for _, p := range []string{`{"level":"loud"}`, `{}`, `{"level":3}`} {
		c.send(`{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":` + p + `}`)
		if got := c.recv(); !strings.Contains(got, `"code":-32602`) || !strings.Contains(got, "debug, info, notice") {
			t.Errorf("%s: %s", p, got)
		}
	}
}

func TestADuplicateIDInFlightIsRefused(t *testing.T) {
	srv := New(Options{})
	st := newSlowTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow"}}`)
	<-st.started
	c.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow"}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: id 9 belongs to a call still in progress; use a new id for each request"}}` {
		t.Fatal(got)
	}
	close(st.release)
	c.recv()
}

func TestCallsRunConcurrentlyUpToTheLimit(t *testing.T) {
	srv := New(Options{MaxInFlight: 3})
	st := newSlowTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	// The reader stops taking lines while every slot is busy, so the
	// client's writes block: send from another goroutine.
	go func() {
		for i := range 5 {
			fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow"}}`+"\n", i)
		}
	}()
	for range 3 {
		<-st.started
	}
	select {
	case id := <-st.started:
		t.Fatalf("call %s started beyond the limit of 3", id)
	case <-time.After(50 * time.Millisecond):
	}
	close(st.release)
	seen := map[string]bool{}
	for range 5 {
		seen[decode(t, c.recv())["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)] = true
	}
	if len(seen) != 5 {
		t.Fatalf("responses: %v", seen)
	}
}

func TestShutdownWaitsForCallsThenCancelsAfterGrace(t *testing.T) {
	srv := New(Options{ShutdownGrace: 50 * time.Millisecond})
	st := newSlowTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	<-st.started
	c.in.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	c.done <- nil // for the cleanup
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"cancelled"}],"isError":true}}` {
		t.Fatalf("got %s", got)
	}
}

func TestShutdownLetsAFastCallFinish(t *testing.T) {
	srv := New(Options{ShutdownGrace: 5 * time.Second})
	st := newSlowTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	<-st.started
	c.in.Close()
	time.Sleep(10 * time.Millisecond)
	close(st.release)
	if got := c.recv(); !strings.Contains(got, `"text":"done 1"`) {
		t.Fatalf("got %s", got)
	}
}

func TestCallToolRunsTheSameChecksOutsideASession(t *testing.T) {
	srv := New(Options{})
	rawTool(t, srv, ToolSpec{Name: "echo", Description: "echoes"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		call.Progress(1, 1, "no session: ignored")
		call.Log(LevelError, "no session: ignored")
		return &CallToolResult{Content: []Content{TextContent(string(args))}}
	})
	res, err := srv.CallTool(context.Background(), "echo", json.RawMessage(`{"a":1}`))
	if err != nil || res.Content[0].Text() != `{"a":1}` {
		t.Fatalf("%v %v", res, err)
	}
	if _, err := srv.CallTool(context.Background(), "nope", nil); err == nil || !strings.Contains(err.Error(), `unknown tool "nope"; available tools: echo`) {
		t.Fatal(err)
	}
	if _, err := srv.CallTool(context.Background(), "echo", json.RawMessage(`[1]`)); err == nil || !strings.Contains(err.Error(), "must be a JSON object") {
		t.Fatal(err)
	}
}

func TestLogReportsWhetherTheMessageWasSent(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}%s}`
	cases := []struct {
		name     string
		setLevel string // a legacy session's logging/setLevel; "" for none
		call     string
		want     string // what Log returned for a debug and a warning message
	}{
		{"a legacy session that set no level", "", `{"name":"chatty"}`, "false false"},
		{"a legacy session at info", "info", `{"name":"chatty"}`, "false true"},
		{"a modern request without a logLevel", "", `{"name":"chatty",` + fmt.Sprintf(meta, "") + `}`, "false false"},
		{"a modern request at info", "", `{"name":"chatty",` + fmt.Sprintf(meta, `,"io.modelcontextprotocol/logLevel":"info"`) + `}`, "false true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(Options{})
			rawTool(t, srv, ToolSpec{Name: "chatty", Description: "logs"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
				debug, warning := call.Log(LevelDebug, "debug detail"), call.Log(LevelWarning, "warning")
				return &CallToolResult{Content: []Content{TextContent(fmt.Sprint(debug, warning))}}
			})
			c := serve(t, srv)
			if !strings.Contains(tc.call, "_meta") {
				c.initialize()
			}
			if tc.setLevel != "" {
				c.send(`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"` + tc.setLevel + `"}}`)
				c.recv()
			}
			c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + tc.call + `}`)
			got := c.recv()
			for strings.Contains(got, `"method":"notifications/message"`) {
				got = c.recv()
			}
			if !strings.Contains(got, `"text":"`+tc.want+`"`) {
				t.Fatalf("got %s, want Log to have returned %s", got, tc.want)
			}
		})
	}
}
