//go:build !windows

package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// fakeHTTP is the mode of fakeEnv in which the test binary is a fake
// Streamable HTTP server (fakeHTTPServer).
const fakeHTTP = "http"

// fakeHTTPServer serves read_file of fakeFileTool, in the folder named by
// fakeRootEnv, at http://ADDR/mcp for "-http ADDR" in args (other
// arguments are ignored), one JSON answer per POST, until SIGTERM. A POST
// without the headers a Streamable HTTP client sends is answered 400, so
// that a test sees toolbench send them.
func fakeHTTPServer(args []string) error {
	var addr string
	for i, a := range args { // the other arguments stand for a server's other flags
		if a == "-http" && i+1 < len(args) {
			addr = args[i+1]
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	root := os.Getenv(fakeRootEnv)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "application/json" || !strings.Contains(r.Header.Get("Accept"), "text/event-stream") ||
			r.Header.Get("MCP-Protocol-Version") != protocolVersion || r.ProtoMajor != 1 {
			http.Error(w, "missing headers", http.StatusBadRequest)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Method != "tools/call" || req.Params.Name != "read_file" {
			http.Error(w, "want a tools/call of read_file", http.StatusBadRequest)
			return
		}
		text, isErr := fakeFileTool(root, req.Params.Name, req.Params.Arguments)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(fakeResponse{JSONRPC: "2.0", ID: req.ID,
			Result: map[string]any{"content": []map[string]any{{"type": "text", "text": text}}, "isError": isErr}})
	})
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Handler: mux}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	if err := hs.Shutdown(context.Background()); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
