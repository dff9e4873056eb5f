package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// This file is a small client for black-box tests, over servertest: it
// serves a Server over a pair of pipes, as the stdio transport does, and
// talks to it one line at a time through the exported API only.

// waitLimit bounds every wait for something the server should do soon; a
// test that hits it has failed.
const waitLimit = 3 * time.Second

// peer is the client end of one session.
type peer struct {
	*servertest.Client
	t *testing.T
}

// connect runs srv.Serve(ctx, ...) on pipes until the test ends.
func connect(t *testing.T, ctx context.Context, srv *server.Server) *peer {
	t.Helper()
	return &peer{Client: servertest.ConnectContext(t, ctx, srv), t: t}
}

func (p *peer) send(line string) {
	p.t.Helper()
	p.Send(line)
}

// recv returns the next line the server writes.
func (p *peer) recv() string {
	p.t.Helper()
	return p.Recv()
}

// recvResponse returns the next line, decoded as a response.
func (p *peer) recvResponse() response {
	p.t.Helper()
	return parseResponse(p.t, p.recv())
}

// handshake initializes the session.
func (p *peer) handshake() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := p.recvResponse(); string(r.ID) != "0" || r.Result == nil {
		p.t.Fatalf("initialize failed: %s", r.line)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// ping asks for a ping and expects its answer as the very next line: the
// server has read everything sent before it, and written nothing else
// meanwhile.
func (p *peer) ping() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":"probe","method":"ping"}`)
	if r := p.recvResponse(); string(r.ID) != `"probe"` || r.Error != nil {
		p.t.Fatalf("expected only the ping's answer, got %s", r.line)
	}
}

// callLine is a tools/call request; id and args are raw JSON.
func callLine(id, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// cancelLine is the notification that cancels the request id (raw JSON).
func cancelLine(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"test"}}`
}

// call sends a tools/call and returns the next line as its response.
func (p *peer) call(id, tool, args string) response {
	p.t.Helper()
	p.send(callLine(id, tool, args))
	r := p.recvResponse()
	if string(r.ID) != id {
		p.t.Fatalf("sent id %s, got a response to %s: %s", id, r.ID, r.line)
	}
	return r
}

// response is one JSON-RPC response as the client reads it.
type response struct {
	line   string
	ID     json.RawMessage `json:"id"` // exactly as it appears on the wire
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func parseResponse(t *testing.T, line string) response {
	t.Helper()
	r := response{line: line}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("the server wrote invalid JSON %q: %v", line, err)
	}
	if r.Result == nil && r.Error == nil {
		t.Fatalf("not a response: %s", line)
	}
	return r
}

// text is the text of a tool result, or "" for an error response.
func (r response) text() string {
	if r.Result == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range r.Result.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// ok reports whether r is a tool result that is not an error.
func (r response) ok() bool { return r.Result != nil && !r.Result.IsError }

// toolFailed reports whether r is a tool result with isError set.
func (r response) toolFailed() bool { return r.Result != nil && r.Result.IsError }

// sameJSON reports whether two JSON texts are the same byte for byte,
// leading and trailing space aside.
func sameJSON(a json.RawMessage, b string) bool {
	return bytes.Equal(bytes.TrimSpace(a), []byte(b))
}
