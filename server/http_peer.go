package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// httpPeer is the peer of one POST. The response ends the exchange.
// Notifications sent before it turn the reply into an SSE stream; after
// it, nothing more is written.
type httpPeer struct {
	w        http.ResponseWriter
	rc       *http.ResponseController
	chunks   *chunkPool // buffers for the lines written in pieces
	timeout  time.Duration
	streamOK bool // the client accepts text/event-stream
	modern   bool // the request is of MCP 2026-07-28: an error's status follows its code

	mu       sync.Mutex
	streamed bool // the reply is an SSE stream; its header is written
	done     bool // the response is written, or the handler is returning
	early    bool // answered while the call still runs on the handler's goroutine
	werr     error
	answered chan struct{} // closed when the response is written
	sink     *sink         // set when the response becomes a subscription's stream (http_listen.go)
	wwwAuth  string        // the challenge of an error its grant refused (grant.go): answered 403
	ack      []byte        // the stream's first event then
}

var errNoSession = errors.New("stateless HTTP: no session to carry a request to the client")

// ask implements peer: over stateless HTTP the server cannot ask the
// client anything, so every request fails at once.
func (p *httpPeer) ask(context.Context, string, any, any) error { return errNoSession }

// notify implements peer: the notification is an SSE event, the first of
// them turning the reply into a stream; a client that takes JSON only
// does not get it.
func (p *httpPeer) notify(msg []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.open(); err != nil {
		return err
	}
	if !p.streamOK {
		return nil
	}
	if !p.streamed {
		h := p.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		p.w.WriteHeader(http.StatusOK)
		p.streamed = true
	}
	return p.writeEvent(bytes.TrimSuffix(msg, []byte("\n")))
}

// respond implements peer: the response is the event that ends the
// stream, or the JSON reply, flushed at once (a call's goroutine may go
// on after its answer, a timeout's, and the client should not wait for
// it). A modern request's error gets the status its code calls for.
func (p *httpPeer) respond(msg []byte, code int64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.open(); err != nil {
		return err
	}
	p.done = true
	defer close(p.answered)
	msg = bytes.TrimSuffix(msg, []byte("\n"))
	if p.streamed {
		return p.writeEvent(msg)
	}
	_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
	p.closeIfEarly()
	status := http.StatusOK
	if p.modern && code != 0 {
		status = errorStatus(code)
	}
	if p.wwwAuth != "" {
		p.w.Header().Set("WWW-Authenticate", p.wwwAuth)
		status = http.StatusForbidden
	}
	writeJSON(p.w, status, msg)
	_ = p.rc.Flush()
	return nil
}

// challenge implements challenger: the error about to be answered is
// one of scope, answered 403 with the challenge in either era (MCP's
// authorization asks it of every HTTP response).
func (p *httpPeer) challenge(wwwAuthenticate string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wwwAuth = wwwAuthenticate
}

// sendLine implements peer. The line is always a response, and never an
// error: the result of a tools/call. It goes out as the SSE event that
// ends the stream, or as the JSON reply, written through one of the
// server's buffers.
func (p *httpPeer) sendLine(l *line) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.open(); err != nil {
		return err
	}
	p.done = true
	defer close(p.answered)
	buf := p.chunks.get()
	defer p.chunks.put(buf)
	_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
	if p.streamed {
		return p.flushed(l.writeTo(p.w, buf[:], "event: message\ndata: ", "\n\n"))
	}
	p.closeIfEarly()
	h := p.w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(l.len()-1)) // without the newline
	p.w.WriteHeader(http.StatusOK)
	if err := l.writeTo(p.w, buf[:], "", ""); err != nil {
		p.werr = fmt.Errorf("write to client: %w", err)
		return p.werr
	}
	_ = p.rc.Flush()
	return nil
}

// open reports whether the exchange takes a message still: the error of
// one that is over. p.mu is held.
func (p *httpPeer) open() error {
	if p.done {
		return errServed
	}
	return p.werr
}

// writeEvent writes one message as an SSE event and flushes it. p.mu is
// held.
func (p *httpPeer) writeEvent(msg []byte) error {
	_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
	b := make([]byte, 0, len(msg)+32)
	b = append(b, "event: message\ndata: "...)
	b = append(b, msg...)
	b = append(b, "\n\n"...)
	_, err := p.w.Write(b)
	return p.flushed(err)
}

// flushed ends the write of an SSE event, whose error is err: the event
// is flushed to the client, or the first error is kept as the peer's.
// p.mu is held.
func (p *httpPeer) flushed(err error) error {
	if err != nil {
		p.werr = fmt.Errorf("write to client: %w", err)
		return p.werr
	}
	if err := p.rc.Flush(); err != nil {
		p.werr = fmt.Errorf("flush to client: %w", err)
		return p.werr
	}
	return nil
}

// answerEarly implements earlyAnswerer: the call is answered while a
// goroutine of it still runs (Call.Go: its tool, past its deadline), and
// the handler's goroutine waits for it before it returns, so it cannot
// read the connection's next request. The response asks the client to close
// the connection, so that its next request goes over another one rather
// than waiting behind the tool.
func (p *httpPeer) answerEarly() {
	p.mu.Lock()
	p.early = true
	p.mu.Unlock()
}

// closeIfEarly asks the client to close the connection after this
// response if the call is answered early. p.mu is held.
func (p *httpPeer) closeIfEarly() {
	if p.early {
		p.w.Header().Set("Connection", "close")
	}
}

// close ends the exchange: nothing more is written.
func (p *httpPeer) close() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

// acceptsStream reports whether the Accept headers allow an SSE reply.
// No Accept header accepts anything.
func acceptsStream(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		if !strings.Contains(v, "/") {
			continue
		}
		if v == "application/json, text/event-stream" {
			return true // what MCP clients send, read without parsing
		}
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && (mt == "text/event-stream" || mt == "*/*" || mt == "text/*") {
				return true
			}
		}
	}
	return false
}

// writeJSON writes a complete JSON reply.
func writeJSON(w http.ResponseWriter, status int, msg []byte) {
	msg = bytes.TrimSuffix(msg, []byte("\n"))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(msg)))
	w.WriteHeader(status)
	_, _ = w.Write(msg)
}
