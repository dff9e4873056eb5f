package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPeerServesReadsAndListings talks to the peer over the SDK's
// in-memory transport: it lists its two tools, reads a file, lists a
// folder in toolserver's text, and refuses a path that leaves the root.
func TestPeerServesReadsAndListings(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "many", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"1k.txt": "hello\n", "many/a.txt": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	serverT, clientT := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- run(ctx, dir, serverT) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, clientT, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"list_directory", "read_file"}) {
		t.Errorf("tools %q", names)
	}
	text := func(name, path string) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": path}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	if got, isErr := text("read_file", "1k.txt"); got != "hello\n" || isErr {
		t.Errorf("read_file: %q", got)
	}
	if got, isErr := text("list_directory", "many"); got != "a.txt\nsub/\nmany: 1 directory, 1 file.\n" || isErr {
		t.Errorf("list_directory: %q", got)
	}
	if got, isErr := text("read_file", "../secret"); !isErr {
		t.Errorf("a path out of the root was read: %q", got)
	}
	cs.Close()
	if err := <-done; err != nil {
		t.Logf("server ended with %v", err)
	}
}
