package main

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInteropConfirmedWriteWithTheOfficialGoSDK runs a write under
// --confirm-writes with the official Go SDK client, whose elicitation
// handler accepts: over stdio in 2026-07-28 (the result asks, and the
// client's multi-round-trip middleware answers and sends the call again)
// and in 2025-11-25 (the server asks with elicitation/create), and over
// HTTP in 2026-07-28.
func TestInteropConfirmedWriteWithTheOfficialGoSDK(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(playground(t))); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(key, []byte(strings.Repeat("k", 40)), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--root", root, "--confirm-writes", "--state-key-file", key}
	ts := httptest.NewServer(httpHandlerFor(t, append(args, "--http", "127.0.0.1:0")...))
	defer ts.Close()
	cases := []struct {
		name, pin string
		transport func() mcp.Transport
	}{
		{"stdio, 2026-07-28", "", func() mcp.Transport { return &mcp.CommandTransport{Command: exec.Command(binary, args...)} }},
		{"stdio, 2025-11-25", "2025-11-25", func() mcp.Transport { return &mcp.CommandTransport{Command: exec.Command(binary, args...)} }},
		{"HTTP, 2026-07-28", "", func() mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
		}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var asked atomic.Int32
			client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					return &mcp.ElicitResult{Action: "accept"}, nil
				},
			})
			cs, err := client.Connect(ctx, tc.transport(), &mcp.ClientSessionOptions{ProtocolVersion: tc.pin})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			name := "notes/confirmed" + string(rune('a'+i)) + ".txt"
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": name, "content": "yes"}})
			if err != nil || res.IsError {
				t.Fatalf("write_file: %v %+v", err, res)
			}
			if asked.Load() != 1 {
				t.Errorf("the user was asked %d times, want once", asked.Load())
			}
			if b, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(b) != "yes" {
				t.Fatalf("the file: %q %v", b, err)
			}
		})
	}
}
