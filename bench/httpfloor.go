//go:build !windows

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// httpFloorMain is the hidden "toolbench httpfloor -addr ADDR -text FILE"
// subcommand: the floor of a Streamable HTTP round trip. It serves
// httpFloorHandler at http://ADDR/mcp, prints that URL on stdout once it
// listens (ADDR may have port 0), and stops on SIGINT or SIGTERM, letting
// the requests in flight finish.
func httpFloorMain(args []string) error {
	fs := flag.NewFlagSet("toolbench httpfloor", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "the address to listen on")
	textFile := fs.String("text", "", "the file whose text every answer carries")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *textFile == "" {
		return errors.New("give -text FILE")
	}
	text, err := os.ReadFile(*textFile)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", httpFloorHandler(text))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), exitGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// httpFloorHandler is the least a Streamable HTTP server does to answer a
// read: it reads the request's body to the end and answers 200 with a
// fixed JSON body, a tools/call result of one text content holding text
// (escaped as a server escapes it), {"jsonrpc":"2.0","id":1,"result":
// {"content":[{"type":"text","text":"…"}]}}, the shape go-sdk answers in.
// It parses nothing and touches no file: what it costs is net/http's
// round trip over loopback, which every server built on net/http pays.
func httpFloorHandler(text []byte) http.Handler {
	body := appendJSONString([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":`), text)
	body = append(body, `}]}}`...)
	length := strconv.Itoa(len(body))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", length)
		_, _ = w.Write(body)
	})
}
