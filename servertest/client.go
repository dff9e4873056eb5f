package servertest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/server"
)

// ProtocolVersion is the MCP revision [Start] asks for in the handshake.
const ProtocolVersion = "2025-11-25"

// Timeout is how long [Client.Recv] waits for a line before it fails the
// test.
const Timeout = 10 * time.Second

// Client is a test's connection to a server: lines go in, lines come out.
// Its methods fail the test on any error, so a test reads as a session.
type Client struct {
	t      testing.TB
	in     io.WriteCloser
	lines  chan string
	served chan struct{} // closed when Serve has returned, for a server in memory
	err    error         // what Serve returned, once served is closed
	nextID atomic.Int64
}

// Start serves srv in memory, does the initialize handshake (with no
// client capabilities) and returns the client. The session ends when the
// test does: its input is closed and Serve must return within [Timeout].
func Start(t testing.TB, srv *server.Server) *Client {
	t.Helper()
	c := Connect(t, srv)
	c.Initialize(`{}`)
	return c
}

// Connect serves srv in memory and returns the client without doing the
// handshake, for tests of the handshake itself.
func Connect(t testing.TB, srv *server.Server) *Client {
	t.Helper()
	return ConnectContext(t, context.Background(), srv)
}

// ConnectContext is [Connect] with the context Serve runs under:
// cancelling it stops the session as a signal stops the binary.
func ConnectContext(t testing.TB, ctx context.Context, srv *server.Server) *Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := Dial(t, inW, outR)
	c.served = make(chan struct{})
	go func() {
		c.err = srv.Serve(ctx, inR, outW)
		// What the client sends from now on fails instead of blocking,
		// and the output ends after the lines written so far.
		_ = inR.CloseWithError(io.ErrClosedPipe)
		_ = outW.Close()
		close(c.served)
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		select {
		case <-c.served:
			if c.err != nil {
				t.Errorf("Serve: %v", c.err)
			}
		case <-time.After(Timeout):
			t.Errorf("the server did not stop within %s after its input closed", Timeout)
		}
	})
	return c
}

// Served is closed when Serve has returned, for a server started by
// [Connect] or [Start]; [Client.Err] then tells what it returned. It is
// nil for a client made by [Dial].
func (c *Client) Served() <-chan struct{} { return c.served }

// Err returns what Serve returned, once [Client.Served] is closed.
func (c *Client) Err() error { return c.err }

// Dial returns a client that writes to w and reads from r, one JSON-RPC
// message per line: the stdin and stdout of a server run as a
// subprocess, for instance.
func Dial(t testing.TB, w io.WriteCloser, r io.Reader) *Client {
	c := &Client{t: t, in: w, lines: make(chan string, 1024)}
	go func() {
		defer close(c.lines)
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			l, err := br.ReadString('\n')
			if l != "" {
				c.lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

// Send writes one line, a JSON-RPC message, to the server.
func (c *Client) Send(line string) {
	c.t.Helper()
	if err := c.TrySend(line); err != nil {
		c.t.Fatalf("servertest: send: %v", err)
	}
}

// TrySend writes one line to the server and returns the error of the
// write: after Serve has returned, it fails rather than blocks.
func (c *Client) TrySend(line string) error {
	_, err := io.WriteString(c.in, line+"\n")
	return err
}

// Recv returns the next line the server wrote, without its newline. It
// fails the test if none comes within [Timeout], if the server closed its
// output, or if the line does not end in a newline.
func (c *Client) Recv() string {
	c.t.Helper()
	l, err := c.next()
	if err != nil {
		c.t.Fatalf("servertest: %v", err)
	}
	return l
}

func (c *Client) next() (string, error) {
	select {
	case l, ok := <-c.lines:
		if !ok {
			return "", io.EOF
		}
		if !strings.HasSuffix(l, "\n") {
			return "", fmt.Errorf("the server wrote a line without a newline: %q", l)
		}
		return strings.TrimSuffix(l, "\n"), nil
	case <-time.After(Timeout):
		return "", fmt.Errorf("no line from the server within %s", Timeout)
	}
}

// Rest returns every line the server writes until its output ends, as
// after its input was closed. It fails the test if the output does not
// end within [Timeout] of a line.
func (c *Client) Rest() []string {
	c.t.Helper()
	var rest []string
	for {
		l, err := c.next()
		if err == io.EOF {
			return rest
		}
		if err != nil {
			c.t.Fatalf("servertest: %v", err)
		}
		rest = append(rest, l)
	}
}

// Close closes the server's input, as a host does to end a session.
func (c *Client) Close() error { return c.in.Close() }

// Response is a JSON-RPC response as the client reads it.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// Request sends a request with a fresh integer id and returns its
// response. Lines the server writes meanwhile that are not the response
// (notifications) are skipped; a request of the server's own fails the
// test, since this client has no capabilities to answer it with.
func (c *Client) Request(method string, params any) Response {
	c.t.Helper()
	id := c.nextID.Add(1)
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatalf("servertest: encode %s: %v", method, err)
	}
	c.Send(string(b))
	want := strconv.FormatInt(id, 10)
	for {
		line := c.Recv()
		var r struct {
			Response
			Method string `json:"method"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			c.t.Fatalf("servertest: the server wrote invalid JSON: %s", line)
		}
		if r.Method != "" {
			if r.ID != nil {
				c.t.Fatalf("servertest: the server sent a request this client cannot answer: %s", line)
			}
			continue // a notification
		}
		if string(r.ID) == want {
			return r.Response
		}
		c.t.Fatalf("servertest: expected the response to id %s, got %s", want, line)
	}
}

// Initialize does the handshake with the given client capabilities (a
// JSON object) and returns the server's initialize result.
func (c *Client) Initialize(capabilities string) json.RawMessage {
	c.t.Helper()
	r := c.Request("initialize", map[string]any{
		"protocolVersion": ProtocolVersion,
		"capabilities":    json.RawMessage(capabilities),
		"clientInfo":      map[string]string{"name": "servertest", "version": "1"},
	})
	if r.Error != nil {
		c.t.Fatalf("servertest: initialize failed: %d %s", r.Error.Code, r.Error.Message)
	}
	c.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r.Result
}

// Tools returns every tool the server lists, following the pages.
func (c *Client) Tools() []server.Tool {
	c.t.Helper()
	var all []server.Tool
	var cursor *string
	for {
		var params any
		if cursor != nil {
			params = map[string]string{"cursor": *cursor}
		}
		r := c.Request("tools/list", params)
		if r.Error != nil {
			c.t.Fatalf("servertest: tools/list failed: %d %s", r.Error.Code, r.Error.Message)
		}
		var page struct {
			Tools      []server.Tool `json:"tools"`
			NextCursor *string       `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.Result, &page); err != nil {
			c.t.Fatalf("servertest: tools/list result: %v", err)
		}
		all = append(all, page.Tools...)
		if page.NextCursor == nil {
			return all
		}
		cursor = page.NextCursor
	}
}

// Result is a tools/call result as the client reads it.
type Result struct {
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     []byte `json:"data"`
		MIMEType string `json:"mimeType"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	Meta              map[string]any  `json:"_meta"`
}

// Text returns the text of every text block, joined by newlines.
func (r *Result) Text() string {
	var parts []string
	for _, b := range r.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// CallTool calls a tool with args (anything that encodes as a JSON object,
// or nil) and returns its result. A JSON-RPC error (an unknown tool, say)
// fails the test; use [Client.Request] to test those.
func (c *Client) CallTool(name string, args any) *Result {
	c.t.Helper()
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	r := c.Request("tools/call", params)
	if r.Error != nil {
		c.t.Fatalf("servertest: tools/call %s failed: %d %s", name, r.Error.Code, r.Error.Message)
	}
	var res Result
	if err := json.Unmarshal(r.Result, &res); err != nil {
		c.t.Fatalf("servertest: tools/call %s result: %v", name, err)
	}
	return &res
}
