// Command sdkpeer is the bench's go-sdk peer: a small MCP server over
// stdio, built on the official Go SDK (github.com/modelcontextprotocol/go-sdk),
// that serves the reads and the listing toolserver is measured on, the way
// a new user of the SDK would write them:
//
//	read_file {path}       the file's text
//	list_directory {path}  one entry a line, then the counts, in the text
//	                       toolserver gives (package listing)
//
// Paths are relative to -root and opened through an os.Root, so that the
// peer pays for a sandbox as toolserver does.
//
// With -http ADDR it serves the same tools over Streamable HTTP at
// http://ADDR/mcp instead, through the SDK's StreamableHTTPHandler in
// stateless mode with JSON answers (no session, no SSE stream): one
// JSON-RPC message per POST, as toolserver's --http serves them. It stops
// on SIGINT or SIGTERM, letting the requests in flight finish.
//
// It exists only for toolbench's suites (-suite peers on stdio, -suite
// http over HTTP). It is the one program of the bench module that links
// the SDK (toolserver's module uses it in tests only, and no program of
// it links the SDK); toolbench does not link it either, and runs this
// program as a separate binary that the user builds, from the root of
// the repository:
//
//	go -C bench build -o /tmp/bench-sdk ./internal/sdkpeer
//	/tmp/bench-sdk -root DIR
//	/tmp/bench-sdk -root DIR -http 127.0.0.1:8091
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stdiotools/toolserver/bench/internal/listing"
)

func main() {
	root := flag.String("root", ".", "the folder the tools work in")
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp (stateless, JSON answers) instead of stdio, such as 127.0.0.1:8091")
	flag.Parse()
	var err error
	if *addr == "" {
		err = run(context.Background(), *root, &mcp.StdioTransport{})
	} else {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err = serveHTTP(ctx, *root, *addr)
		stop()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkpeer:", err)
		os.Exit(1)
	}
}

// run serves the tools on dir over t until the client goes away.
func run(ctx context.Context, dir string, t mcp.Transport) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return newServer(root).Run(ctx, t)
}

// serveHTTP serves the tools on dir over Streamable HTTP at
// http://addr/mcp until ctx ends, then lets the requests in flight finish.
func serveHTTP(ctx context.Context, dir, addr string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", httpHandler(newServer(root)))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// httpHandler serves s statelessly, one JSON answer per POST, as
// toolserver's --http does.
func httpHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// PathArgs are the arguments of both tools.
type PathArgs struct {
	Path string `json:"path" jsonschema:"the file or folder, relative to the root"`
}

// newServer returns the server with its two tools on root.
func newServer(root *os.Root) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdkpeer", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Reads a file and returns its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in PathArgs) (*mcp.CallToolResult, any, error) {
			b, err := root.ReadFile(in.Path)
			if err != nil {
				return nil, nil, err
			}
			return textResult(string(b)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_directory", Description: "Lists a folder, one entry a line."},
		func(_ context.Context, _ *mcp.CallToolRequest, in PathArgs) (*mcp.CallToolResult, any, error) {
			f, err := root.Open(in.Path)
			if err != nil {
				return nil, nil, err
			}
			defer f.Close()
			entries, err := f.ReadDir(-1)
			if err != nil {
				return nil, nil, err
			}
			slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
			return textResult(string(listing.Append(nil, in.Path, entries))), nil, nil
		})
	return s
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
