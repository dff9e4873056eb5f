package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// floor answers every POST with a fixed response holding the file's text,
// having read the body: the HTTP round trip alone, the least a server can
// take.
func floor(text string) http.Handler {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.ReplaceAll(text, "\n", `\n`) + `"}]}}`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(line)
	})
}

// BenchmarkHTTPRead1KiB measures the round trip over Streamable HTTP of a
// call that reads a 1 KiB file, side by side: toolserver's handler, and
// the official Go SDK's StreamableHTTPHandler (stateless, JSON answers)
// serving a tool that reads the same file, built only for this bench.
// Both get the same POST, a 2025-11-25 tools/call, from one client over
// loopback, one at a time; "floor" is a handler that only answers, for the
// round trip alone:
//
//	go test -run '^$' -bench HTTPRead1KiB -count 5 ./cmd/toolserver/
func BenchmarkHTTPRead1KiB(b *testing.B) {
	dir := b.TempDir()
	data := strings.Repeat("0123456789abcde\n", 64) // 1 KiB
	if err := os.WriteFile(filepath.Join(dir, "1k.txt"), []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
	ours := httpHandlerFor(b, "--root", dir, "--http", "127.0.0.1:0", "--log-level", "error", "--max-repeats", "-1")

	type readIn struct {
		Path string `json:"path"`
	}
	sdk := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcp.AddTool(sdk, &mcp.Tool{Name: "read_file", Description: "Reads a file."},
		func(ctx context.Context, req *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, any, error) {
			root, err := os.OpenRoot(dir)
			if err != nil {
				return nil, nil, err
			}
			defer root.Close()
			b, err := root.ReadFile(in.Path)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
		})
	theirs := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})

	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"1k.txt"}}}`
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{{"toolserver", ours}, {"go-sdk", theirs}, {"floor", floor(data)}} {
		b.Run(tc.name, func(b *testing.B) {
			mux := http.NewServeMux()
			mux.Handle("/mcp", tc.h)
			ts := httptest.NewServer(mux)
			defer ts.Close()
			client := ts.Client()
			post := func() {
				req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", "2025-11-25")
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !strings.Contains(string(got), "0123456789abcde") {
					b.Fatalf("%d %.300s", resp.StatusCode, got)
				}
			}
			post() // warm up, and check the answer
			b.ResetTimer()
			for range b.N {
				post()
			}
		})
	}
}
