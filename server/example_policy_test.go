package server_test

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Policies of your own wrap every tool call, outside the server's. Here
// an audit log records each call and how it ended, and an authorization
// check refuses the tool "shout" without running it.
func ExampleOptions_policies() {
	var mu sync.Mutex
	var audit []string
	auditLog := func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			res, err := next(ctx, call)
			mu.Lock()
			defer mu.Unlock()
			audit = append(audit, fmt.Sprintf("%s %s failed=%v", call.Tool, call.Arguments(), err != nil || res.IsError))
			return res, err
		}
	}
	noShouting := func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			if call.Spec().Name == "shout" {
				return nil, fmt.Errorf("%s is not allowed for this user; use greet instead", call.Tool)
			}
			return next(ctx, call)
		}
	}
	srv := server.New(server.Options{Policies: []server.Policy{auditLog, noShouting}})
	for _, name := range []string{"greet", "shout"} {
		_ = server.AddTool(srv, server.ToolSpec{Name: name, Description: "Greets.", Level: security.Read},
			func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
				return Greeting{Text: "Hello, " + in.Name}, nil
			})
	}
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shout","arguments":{"name":"Ada"}}}`,
	}, "\n")
	var out strings.Builder
	_ = srv.Serve(context.Background(), strings.NewReader(requests), &out)
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		fmt.Println(l)
	}
	for _, a := range audit {
		fmt.Println(a)
	}
	// Unordered output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"text\":\"Hello, Ada\"}"}],"structuredContent":{"text":"Hello, Ada"}}}
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"shout is not allowed for this user; use greet instead"}],"isError":true}}
	// greet {"name":"Ada"} failed=false
	// shout {"name":"Ada"} failed=true
}
