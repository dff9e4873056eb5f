package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

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

// A policy of your own can do what the server's timeout does: bound a
// call and answer the model at once when its time is up, even for a tool
// that ignores its context. It runs the rest of the chain with Call.Go,
// which keeps the call's place among the calls running until the tool
// returns, and returns whichever comes first: the tool's answer, or its
// own sentence at the deadline.
func ExamplePolicy_deadline() {
	deadline := func(d time.Duration) server.Policy {
		return func(next server.ToolHandler) server.ToolHandler {
			return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
				late := fmt.Errorf("%s took longer than %v and was stopped; try a smaller request", call.Tool, d)
				ctx, cancel := context.WithTimeoutCause(ctx, d, late)
				defer cancel()
				var res *server.CallToolResult
				var err error
				done := call.Go(func() { res, err = next(ctx, call) })
				select {
				case <-done:
				case <-ctx.Done():
					if context.Cause(ctx) == late {
						return nil, late // at once; what the tool returns later is dropped
					}
					<-done // cancelled by the client: the tool is told, and answers
				}
				return res, err
			}
		}
	}
	release := make(chan struct{})
	srv := server.New(server.Options{Policies: []server.Policy{deadline(50 * time.Millisecond)}})
	_ = server.AddTool(srv, server.ToolSpec{Name: "stubborn", Description: "Ignores its context.", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			<-release // whatever ctx says
			return Greeting{Text: "too late"}, nil
		})

	inR, in := io.Pipe()
	outR, out := io.Pipe()
	served := make(chan error)
	go func() { served <- srv.Serve(context.Background(), inR, out) }()
	lines := bufio.NewScanner(outR)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`)
	lines.Scan()
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","arguments":{"name":"Ada"}}}`)
	lines.Scan()
	fmt.Println(lines.Text()) // while the tool still waits for release
	close(release)
	in.Close()
	<-served
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"stubborn took longer than 50ms and was stopped; try a smaller request"}],"isError":true}}
}
