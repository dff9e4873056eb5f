package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// session under test: a Server served over pipes, driven line by line.
type pipeClient struct {
	t     *testing.T
	in    *io.PipeWriter
	out   *bufio.Reader
	lines chan string
	done  chan error
}

func serve(t *testing.T, srv *Server) *pipeClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeClient{t: t, in: inW, out: bufio.NewReader(outR), lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.lines)
		for {
			l, err := c.out.ReadString('\n')
			if err != nil {
				return
			}
			c.lines <- l
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop after its input closed")
		}
	})
	return c
}

func (c *pipeClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// recv returns the next line the server wrote, without its newline.
func (c *pipeClient) recv() string {
	c.t.Helper()
	return c.recvWithin(5 * time.Second)
}

// recvWithin is recv for a request whose work grows with its size, given
// d: long enough for a loaded machine under the race detector, which the
// test must not time.
func (c *pipeClient) recvWithin(d time.Duration) string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server closed its output")
		}
		if !strings.HasSuffix(l, "\n") {
			c.t.Fatalf("line without newline: %q", l)
		}
		return strings.TrimSuffix(l, "\n")
	case <-time.After(d):
		c.t.Fatalf("no response within %v", d)
		return ""
	}
}

// quiet asserts that the server writes nothing more for a moment.
func (c *pipeClient) quiet() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"quiet-probe","method":"ping"}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":"quiet-probe","result":{}}` {
		c.t.Fatalf("expected only the probe's answer, got %s", got)
	}
}

func (c *pipeClient) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	got := decode(c.t, c.recv())
	if got["result"] == nil {
		c.t.Fatalf("initialize failed: %v", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func decode(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("server wrote invalid JSON %q: %v", line, err)
	}
	return m
}

// handlerFunc runs one call of a tool with its raw arguments.
type handlerFunc func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult

// rawTool registers a tool with a fixed schema and a handler over raw
// arguments, for tests of the protocol alone.
func rawTool(t *testing.T, srv *Server, spec ToolSpec, run handlerFunc) {
	t.Helper()
	tl := &tool{spec: spec, handler: func(ctx context.Context, c *Call) (*CallToolResult, error) {
		return run(ctx, c, c.args), nil
	}}
	tl.info.InputSchema = json.RawMessage(`{"type":"object"}`)
	if err := srv.tools.add(tl); err != nil {
		t.Fatal(err)
	}
}

func nopLogger() zerolog.Logger { return zerolog.Nop() }

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}
