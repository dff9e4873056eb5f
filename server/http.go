package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// This file is the Streamable HTTP transport: one endpoint (mounted at
// /mcp by the command) that takes one JSON-RPC message per POST. It serves
// the legacy era (2025-11-25 and earlier) statelessly, as go-sdk's
// stateless mode does: no Mcp-Session-Id is minted, and every request is
// served on a session of its own, made for it and drained after its
// response. Where a legacy feature needs a session that outlives one POST
// (the server's own requests: roots, elicitation), it is refused at once:
// the request's peer cannot ask.
//
// The road of a request is the stdio road: parseEnvelope checks the body,
// the session (the core) dispatches it, and the response comes back
// through the peer, here an httpPeer writing to the POST's response.
//
// A request of the modern era (2026-07-28) is told apart after
// parseEnvelope, by its _meta (era.go), and its MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers must then agree with its body (400 with
// -32020); the session serves it as it does on stdio, and httpPeer.send
// gives its error responses the status their code calls for (-32601 →
// 404, other errors → 400; legacy answers 200). A request whose header
// says 2026-07-28 while its body names no version is a modern request
// without its _meta (400 with -32602), not a legacy one; a header and a
// body naming two versions are -32020, even when the body's is unknown;
// the same unknown version in both is -32022 with {supported, requested}.

// HTTPOptions configure [Server.HTTPHandler].
type HTTPOptions struct {
	// AllowedHosts are host names (or IP literals), besides the loopback
	// names localhost, 127.0.0.1 and ::1, that the Host and Origin headers
	// may name, with any port. Anything else is refused with 403, against
	// DNS rebinding. "*" allows every Host and Origin.
	AllowedHosts []string
	// Token, when not empty, must come with every request as
	// "Authorization: Bearer <Token>"; it is compared in constant time.
	Token string
	// MaxConcurrent bounds the requests served at once; beyond it a
	// request is answered 503 with Retry-After. Default 256.
	MaxConcurrent int
	// WriteTimeout bounds each write of a response (an SSE stream is many
	// writes), so that a client that stops reading cannot hold a call
	// forever. Default 30 seconds.
	WriteTimeout time.Duration
	// BodyTimeout bounds the reading of a request's body, so that a
	// client sending it slowly cannot hold a place. Default 30 seconds.
	BodyTimeout time.Duration
}

// HTTPHandler returns the handler of the Streamable HTTP endpoint. It
// answers POST only; the caller mounts it (at /mcp) and runs the
// http.Server, with its own timeouts. See the file comment for what is
// served.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 256
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 30 * time.Second
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = 30 * time.Second
	}
	h := &httpHandler{srv: s, opts: opts, sem: make(chan struct{}, opts.MaxConcurrent), hosts: map[string]bool{
		"localhost": true, "127.0.0.1": true, "::1": true,
	}}
	for _, name := range opts.AllowedHosts {
		name = strings.ToLower(strings.Trim(strings.TrimSpace(name), "[]"))
		switch name {
		case "":
		case "*":
			h.anyHost = true
		default:
			h.hosts[name] = true
		}
	}
	if opts.Token != "" {
		sum := sha256.Sum256([]byte(opts.Token))
		h.token = sum[:]
	}
	return h
}

type httpHandler struct {
	srv     *Server
	opts    HTTPOptions
	sem     chan struct{}
	hosts   map[string]bool
	anyHost bool
	token   []byte // sha256 of the token; nil when none is required

	// What holds per client across its requests, which are served on
	// sessions of their own: the limits of [Options.MaxCalls] and
	// [Options.CallsPerSecond], and the loop guard. A client is its token
	// when one is required, otherwise its address; beyond maxClients
	// clients, the others share one.
	clientMu sync.Mutex
	clients  map[string]*httpClient
}

// httpClient is the state one client keeps across its requests.
type httpClient struct {
	limiter *callLimiter
	guard   *loopGuard
}

const maxClients = 1 << 16

// clientOf returns the state of the client of r.
func (h *httpHandler) clientOf(r *http.Request) *httpClient {
	key := "token"
	if h.token == nil {
		key = r.RemoteAddr
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			key = host
		}
	}
	h.clientMu.Lock()
	defer h.clientMu.Unlock()
	if h.clients == nil {
		h.clients = make(map[string]*httpClient)
	}
	c := h.clients[key]
	if c == nil {
		if len(h.clients) >= maxClients {
			key = "overflow"
			if c = h.clients[key]; c != nil {
				return c
			}
		}
		c = &httpClient{limiter: newCallLimiter(&h.srv.opts), guard: &loopGuard{max: h.srv.opts.MaxRepeats}}
		h.clients[key] = c
	}
	return c
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hostAllowed(r.Host) {
		h.srv.log.Warn().Str("host", r.Host).Str("remote", r.RemoteAddr).Msg("refused a request for a host not allowed (DNS rebinding?)")
		httpRefuse(w, http.StatusForbidden, "Forbidden: the Host header names a host this server does not answer for")
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !h.originAllowed(origin) {
		h.srv.log.Warn().Str("origin", origin).Str("remote", r.RemoteAddr).Msg("refused a request from an origin not allowed")
		httpRefuse(w, http.StatusForbidden, "Forbidden: the Origin header names an origin this server does not answer")
		return
	}
	if h.token != nil && !h.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolserver"`)
		httpRefuse(w, http.StatusUnauthorized, "Unauthorized: send the token as \"Authorization: Bearer <token>\"")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpRefuse(w, http.StatusMethodNotAllowed, "Method Not Allowed: this endpoint takes one JSON-RPC message per POST; it opens no stream and keeps no session")
		return
	}
	select {
	case h.sem <- struct{}{}:
		defer func() { <-h.sem }()
	default:
		w.Header().Set("Retry-After", "1")
		httpRefuse(w, http.StatusServiceUnavailable, "Service Unavailable: too many requests at once; retry shortly")
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			httpRefuse(w, http.StatusUnsupportedMediaType, "Unsupported Media Type: send the message as application/json")
			return
		}
	}
	body, status, werr := h.readBody(w, r)
	if werr != nil {
		h.srv.log.Debug().Int64("code", werr.code).Str("reason", werr.message).Msg("refused a message")
		writeJSON(w, status, appendError(nil, werr.id, werr.code, werr.message, nil))
		return
	}
	env, werr := parseEnvelope(body)
	if werr != nil {
		h.srv.log.Debug().Int64("code", werr.code).Str("reason", werr.message).Msg("refused a message")
		writeJSON(w, http.StatusBadRequest, appendError(nil, werr.id, werr.code, werr.message, nil))
		return
	}
	header := strings.TrimSpace(r.Header.Get("MCP-Protocol-Version"))
	modern := false
	if env.kind == kindRequest {
		e, perr := readEra(env.meta)
		switch {
		case perr != nil && perr.code == codeUnsupportedVersion && header != "" && header != e.version:
			// The header and the body name different versions: that is
			// the mismatch, whichever of them the server speaks.
			writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, codeHeaderMismatch, fmt.Sprintf(
				"Header mismatch: the MCP-Protocol-Version header is %q, the body's _meta says %q; send the same version in both",
				shortenString(header, 40), shortenString(e.version, 40)), nil))
			return
		case perr != nil:
			var data any
			if perr.data != nil {
				data = perr.data
			}
			writeJSON(w, errorStatus(perr.code), appendError(nil, env.id, perr.code, perr.message, data))
			return
		case e.modern:
			if msg := modernHeaderMismatch(r.Header, env); msg != "" {
				writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, codeHeaderMismatch, "Header mismatch: "+msg, nil))
				return
			}
			modern = true
		case header == ModernVersion && e.version != "":
			writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, codeHeaderMismatch, fmt.Sprintf(
				"Header mismatch: the MCP-Protocol-Version header is %s, the body's _meta says %q; send the same version in both",
				ModernVersion, shortenString(e.version, 40)), nil))
			return
		case header == ModernVersion:
			// The header says 2026-07-28 and the body names no version: a
			// modern request without its _meta (-32602), not a legacy one.
			writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, jsonrpc2.CodeInvalidParams, fmt.Sprintf(
				`Invalid params: the MCP-Protocol-Version header says %s, so the request needs params._meta["%s"] (%q) and params._meta["%s"] (an object, may be {}); send initialize for 2025-11-25 and earlier`,
				ModernVersion, metaProtocolVersion, ModernVersion, metaClientCapabilities), nil))
			return
		case header != "" && !knownVersion(header):
			writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
				"Bad Request: MCP-Protocol-Version %q is not one this server speaks (%s)", shortenString(header, 40), strings.Join(supportedVersions(), ", ")), nil))
			return
		}
	} else if header != "" && !knownVersion(header) {
		writeJSON(w, http.StatusBadRequest, appendError(nil, nil, jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
			"Bad Request: MCP-Protocol-Version %q is not one this server speaks (%s)", shortenString(header, 40), strings.Join(supportedVersions(), ", ")), nil))
		return
	}
	switch env.kind {
	case kindNotification:
		// Stateless: a notification has no session to act on. In
		// particular notifications/cancelled cannot reach a call served by
		// another POST; closing that POST is how a client cancels it.
		h.srv.log.Debug().Str("method", env.method).Msg("accepted a notification")
		w.WriteHeader(http.StatusAccepted)
		return
	case kindResponse:
		// The server asks nothing over stateless HTTP, so no response can
		// be awaited.
		h.srv.log.Debug().RawJSON("id", env.id).Msg("ignored a response: the server sent no request over HTTP")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	h.serveRequest(w, r, env, modern)
}

// codeHeaderMismatch is the error of a modern request whose HTTP headers
// do not say what its body says.
const codeHeaderMismatch = -32020

// modernHeaderMismatch checks the headers a request of MCP 2026-07-28
// must carry over HTTP: MCP-Protocol-Version equal to its _meta,
// Mcp-Method equal to its method, and for tools/call Mcp-Name equal to
// the tool (plain, or as =?base64?…?=). It returns what does not match,
// or "".
func modernHeaderMismatch(h http.Header, env envelope) string {
	if v := strings.TrimSpace(h.Get("MCP-Protocol-Version")); v != ModernVersion {
		return fmt.Sprintf("the MCP-Protocol-Version header is %q; a request whose _meta says %s must say so in the header too", shortenString(v, 40), ModernVersion)
	}
	if m := strings.TrimSpace(h.Get("Mcp-Method")); m != env.method {
		return fmt.Sprintf("the Mcp-Method header is %q, the body's method %q; send the method in both", shortenString(m, 40), shortenString(env.method, 40))
	}
	if env.method != "tools/call" {
		return ""
	}
	var name string
	if env.name != nil {
		name, _ = decodeString(env.name)
	}
	got, ok := decodeMcpName(strings.TrimSpace(h.Get("Mcp-Name")))
	if !ok || got != name {
		return fmt.Sprintf("the Mcp-Name header does not name the tool the body calls (%q); send the tool's name in both", shortenString(name, 40))
	}
	return ""
}

// decodeMcpName reads an Mcp-Name header: the name as it is, or encoded
// as =?base64?…?= for names a header cannot carry.
func decodeMcpName(v string) (string, bool) {
	if b64, ok := strings.CutPrefix(v, "=?base64?"); ok {
		b64, ok = strings.CutSuffix(b64, "?=")
		if !ok {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	return v, v != ""
}

// errorStatus is the HTTP status of a modern request's JSON-RPC error:
// 404 for a method not found, 400 for the rest.
func errorStatus(code int64) int {
	if code == jsonrpc2.CodeMethodNotFound {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

// readBody reads the body of a POST, at most MaxMessageBytes of it. A
// body over the limit is 413, with the sentence stdio answers an
// over-long line with.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, *wireError) {
	limit := h.srv.opts.MaxMessageBytes
	tooLong := &wireError{code: jsonrpc2.CodeInvalidRequest, message: fmt.Sprintf(
		"Invalid Request: the message is longer than the limit of %d bytes (--max-message-bytes) and was discarded", limit)}
	if r.ContentLength > int64(limit) {
		return nil, http.StatusRequestEntityTooLarge, tooLong
	}
	n := 512
	if r.ContentLength > 0 {
		n = int(r.ContentLength)
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+1))
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, int64(limit)))
	// No deadline once the body is in: the server goes on reading the
	// connection to notice the client leaving, which cancels the call.
	_ = rc.SetReadDeadline(time.Time{})
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, http.StatusRequestEntityTooLarge, tooLong
	case err != nil:
		return nil, http.StatusBadRequest, &wireError{code: jsonrpc2.CodeParseError,
			message: "Parse error: the request body could not be read: " + err.Error()}
	}
	body := bytes.TrimSpace(buf.Bytes())
	if len(body) == 0 {
		return nil, http.StatusBadRequest, &wireError{code: jsonrpc2.CodeInvalidRequest,
			message: "Invalid Request: the body is empty; send one JSON-RPC message per POST"}
	}
	return body, 0, nil
}

// serveRequest serves one request on a session of its own and writes its
// response, after the notifications the call sent before it.
func (h *httpHandler) serveRequest(w http.ResponseWriter, r *http.Request, env envelope, modern bool) {
	ctx := r.Context()
	p := &httpPeer{
		w:        w,
		chunks:   &h.srv.chunks,
		rc:       http.NewResponseController(w),
		timeout:  h.opts.WriteTimeout,
		streamOK: acceptsStream(r.Header.Values("Accept")),
		modern:   modern,
		answered: make(chan struct{}),
	}
	sess := newSession(ctx, h.srv, p)
	statelessSession(sess, env.method)
	client := h.clientOf(r) // the limits and the loop guard hold across the client's requests
	sess.limiter, sess.guard = client.limiter, client.guard
	// The call runs here, on the request's own goroutine, which the
	// connection keeps for its next request: a worker of its own would
	// grow a fresh stack for every request. If the client goes away
	// meanwhile, the call is cancelled, as notifications/cancelled would
	// on stdio, and nothing more is written.
	sess.inline = true
	stop := context.AfterFunc(ctx, func() {
		p.close()
		sess.dispatch(cancelEnvelope(env.id))
	})
	sess.dispatch(env)
	select {
	case <-p.answered:
	case <-ctx.Done():
	}
	stop()
	sess.drain(h.srv.opts.ShutdownGrace)
	p.close()
}

// statelessSession readies a fresh session to serve one request without a
// handshake: it counts as initialized (unless the request is initialize
// itself, which is answered as usual) and has no client roots to wait for.
func statelessSession(sess *session, method string) {
	if method != "initialize" {
		sess.initialized.Store(true)
	}
	sess.roots.once.Do(func() { close(sess.roots.ready) })
}

// knownVersion reports whether an MCP-Protocol-Version header names a
// revision the server speaks. A request with 2026-07-28 in the header
// must say so in its _meta too (ServeHTTP).
func knownVersion(v string) bool {
	return v == ModernVersion || slices.Contains(protocolVersions[:], v)
}

// cancelEnvelope is the notifications/cancelled a client would send for
// the request with this id.
func cancelEnvelope(id []byte) envelope {
	params := make([]byte, 0, len(id)+64)
	params = append(params, `{"requestId":`...)
	params = append(params, id...)
	params = append(params, `,"reason":"the HTTP client disconnected"}`...)
	return envelope{kind: kindNotification, method: "notifications/cancelled", params: params}
}

// httpPeer is the peer of one POST. The first message that is not a
// notification is the response: it ends the exchange. Notifications sent
// before it turn the reply into an SSE stream; after it, nothing more is
// written.
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
	werr     error
	answered chan struct{} // closed when the response is written
}

var errNoSession = errors.New("stateless HTTP: no session to carry a request to the client")

// ask implements peer: over stateless HTTP the server cannot ask the
// client anything, so every request fails at once.
func (p *httpPeer) ask(context.Context, string, any, any) error { return errNoSession }

// send implements peer.
func (p *httpPeer) send(msg []byte) error {
	msg = bytes.TrimSuffix(msg, []byte("\n"))
	response := !isNotification(msg)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errServed
	}
	if p.werr != nil {
		return p.werr
	}
	if !response {
		if !p.streamOK {
			return nil // the client takes JSON only: the notification is dropped
		}
		if !p.streamed {
			h := p.w.Header()
			h.Set("Content-Type", "text/event-stream")
			h.Set("Cache-Control", "no-cache")
			h.Set("X-Accel-Buffering", "no")
			p.w.WriteHeader(http.StatusOK)
			p.streamed = true
		}
		return p.writeEvent(msg)
	}
	p.done = true
	defer close(p.answered)
	if p.streamed {
		return p.writeEvent(msg)
	}
	_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
	status := http.StatusOK
	if p.modern {
		var r struct {
			Error *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(msg, &r) == nil && r.Error != nil {
			status = errorStatus(r.Error.Code)
		}
	}
	writeJSON(p.w, status, msg)
	return nil
}

// sendLine implements peer. The line is always a response, and never an
// error: the result of a tools/call. It goes out as the SSE event that
// ends the stream, or as the JSON reply, written through one of the
// server's buffers.
func (p *httpPeer) sendLine(l *line) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errServed
	}
	if p.werr != nil {
		return p.werr
	}
	p.done = true
	defer close(p.answered)
	buf := p.chunks.get()
	defer p.chunks.put(buf)
	_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
	if p.streamed {
		return p.flushed(l.writeTo(p.w, buf[:], "event: message\ndata: ", "\n\n"))
	}
	h := p.w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(l.len()-1)) // without the newline
	p.w.WriteHeader(http.StatusOK)
	if err := l.writeTo(p.w, buf[:], "", ""); err != nil {
		p.werr = fmt.Errorf("write to client: %w", err)
		return p.werr
	}
	return nil
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

// close ends the exchange: nothing more is written.
func (p *httpPeer) close() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

// isNotification reports whether an outgoing message, as wire.go writes
// them, is a notification: it has a method and no id.
func isNotification(msg []byte) bool {
	return bytes.HasPrefix(msg, []byte(`{"jsonrpc":"2.0","method":`))
}

// acceptsStream reports whether the Accept headers allow an SSE reply.
// No Accept header accepts anything.
func acceptsStream(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
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

// httpRefuse answers a request refused before its body is read.
func httpRefuse(w http.ResponseWriter, status int, text string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text+"\n")
}

// hostAllowed reports whether a Host header (a name or address, with or
// without a port) is one the server answers for.
func (h *httpHandler) hostAllowed(hostport string) bool {
	if h.anyHost {
		return true
	}
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	return host != "" && h.hosts[host]
}

// originAllowed reports whether an Origin header names an allowed host.
// "null" and anything that is not a URL with a host are refused.
func (h *httpHandler) originAllowed(origin string) bool {
	if h.anyHost {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return h.hostAllowed(u.Host)
}

// authorized reports, in constant time, whether an Authorization header
// carries the token.
func (h *httpHandler) authorized(header string) bool {
	const scheme = "bearer "
	if len(header) < len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(header[len(scheme):])))
	return subtle.ConstantTimeCompare(sum[:], h.token) == 1
}
