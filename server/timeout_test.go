package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestACallThatRunsOutOfTimeIsAnsweredAtOnce(t *testing.T) {
	srv := New(Options{ToolTimeout: 30 * time.Millisecond})
	release := make(chan struct{})
	rawTool(t, srv, ToolSpec{Name: "stubborn", Description: "ignores its context"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		<-release // never looks at ctx
		return &CallToolResult{Content: []Content{TextContent("too late")}}
	})
	rawTool(t, srv, ToolSpec{Name: "polite", Description: "honours its context", Timeout: 10 * time.Millisecond}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		<-ctx.Done()
		return ErrorResult(ctx.Err().Error())
	})
	c := serve(t, srv)
	t.Cleanup(func() { close(release) }) // runs before serve's own cleanup
	c.initialize()
	for _, tc := range []struct{ tool, limit string }{{"stubborn", "30ms"}, {"polite", "10ms"}} {
		start := time.Now()
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tc.tool + `"}}`)
		got := c.recv()
		want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"The call to ` + tc.tool + ` did not finish within ` + tc.limit +
			` and was stopped; nothing more will come of it. Try a smaller request, such as a narrower path or fewer files."}],"isError":true}}`
		if got != want {
			t.Fatalf("\n got  %s\n want %s", got, want)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("the answer took %v", took)
		}
	}
	c.quiet() // the late results are dropped
}

func TestCallToolHonoursTheTimeoutToo(t *testing.T) {
	srv := New(Options{ToolTimeout: 10 * time.Millisecond})
	rawTool(t, srv, ToolSpec{Name: "slow", Description: "d"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		<-ctx.Done()
		return ErrorResult("stopped")
	})
	res, err := srv.CallTool(context.Background(), "slow", nil)
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text(), "did not finish within 10ms") {
		t.Fatalf("%v %+v", err, res)
	}
}
