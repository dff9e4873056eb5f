package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestPeerServesReadsOverStatelessHTTP posts a legacy tools/call with no
// initialize before it, as toolbench's HTTP suite does, and gets the
// file's text back as one JSON answer; a path out of the root is a tool
// error.
func TestPeerServesReadsOverStatelessHTTP(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "1k.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ts := httptest.NewServer(httpHandler(newServer(root)))
	defer ts.Close()
	read := func(path string) (string, bool, http.Header) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` + path + `"}}}`
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var answer struct {
			ID     int `json:"id"`
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || resp.StatusCode != 200 || answer.ID != 7 || len(answer.Result.Content) != 1 {
			t.Fatalf("status %d, %+v, %v", resp.StatusCode, answer, err)
		}
		return answer.Result.Content[0].Text, answer.Result.IsError, resp.Header
	}
	text, isErr, h := read("1k.txt")
	if text != "hello\n" || isErr || !strings.HasPrefix(h.Get("Content-Type"), "application/json") || h.Get("Mcp-Session-Id") != "" {
		t.Errorf("read_file: %q, isError %v, headers %v", text, isErr, h)
	}
	if text, isErr, _ := read("../secret"); !isErr {
		t.Errorf("a path out of the root was read: %q", text)
	}
}
