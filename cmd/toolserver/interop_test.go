package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInteropWithTheOfficialGoSDK drives the real binary with the official
// Go MCP client, once with its default handshake (which probes
// server/discover first and falls back to initialize) and once pinned to
// 2025-06-18.
func TestInteropWithTheOfficialGoSDK(t *testing.T) {
	cases := []struct {
		name, pin, want string
	}{
		{"default handshake (discover, then 2026-07-28)", "", "2026-07-28"},
		{"pinned to 2025-11-25", "2025-11-25", "2025-11-25"},
		{"pinned to 2025-06-18", "2025-06-18", "2025-06-18"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, nil)
			transport := &mcp.CommandTransport{Command: exec.Command(binary, "--root", playground(t))}
			start := time.Now()
			cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: tc.pin})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the handshake took %v: the discover probe was not answered promptly", took)
			}
			init := cs.InitializeResult()
			if init.ProtocolVersion != tc.want || init.ServerInfo.Name != "toolserver" || init.Capabilities.Tools == nil {
				t.Fatalf("initialize result: %+v", init)
			}
			if tc.want != "2026-07-28" { // ping is not part of 2026-07-28
				if err := cs.Ping(ctx, nil); err != nil {
					t.Fatalf("ping: %v", err)
				}
			}

			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			var names []string
			for _, tl := range list.Tools {
				names = append(names, tl.Name)
				if tl.InputSchema == nil || tl.Description == "" || tl.Annotations == nil {
					t.Errorf("tool %s is incompletely described: %+v", tl.Name, tl)
				}
			}
			if !strings.Contains(strings.Join(names, ","), "calc") {
				t.Fatalf("tools: %v", names)
			}

			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calc", Arguments: map[string]any{"expr": "0.1+0.2"}})
			if err != nil || res.IsError {
				t.Fatalf("calc: %v %+v", err, res)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			if sc["value"] != "0.3" || sc["exact"] != true {
				t.Fatalf("structuredContent: %#v", res.StructuredContent)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; text != `{"value":"0.3","exact":true}` {
				t.Fatalf("text: %s", text)
			}

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "calc", Arguments: map[string]any{"expr": 12, "bogus": 1}})
			if err != nil || !res.IsError {
				t.Fatalf("bad arguments should be an error result: %v %+v", err, res)
			}
			want := "\"expr\" must be a string, got 12 (an integer)\nunknown argument \"bogus\"; allowed: \"expr\", \"precision\""
			if text := res.Content[0].(*mcp.TextContent).Text; text != want {
				t.Fatalf("error text:\n got  %q\n want %q", text, want)
			}

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "notes/todo.txt", "head": 1}})
			if err != nil || res.IsError {
				t.Fatalf("read_file: %v %+v", err, res)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "buy milk\n") {
				t.Fatalf("read_file text: %q", text)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "../secret"}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "leaves the root") {
				t.Fatalf("an escape should be an error result: %v %+v", err, res)
			}

			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
			if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
				t.Fatalf("unknown tool should be a protocol error naming it: %v", err)
			}

			if tc.want == "2026-07-28" {
				return // logging/setLevel is not part of 2026-07-28
			}
			//lint:ignore SA1019 logging is deprecated in 2026-07-28 but part of the versions this server speaks
			if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatalf("logging/setLevel: %v", err)
			}
		})
	}
}
