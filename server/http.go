package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// This file is the Streamable HTTP transport: one endpoint (mounted at
// /mcp by the command) that takes one JSON-RPC message per POST. It serves
// both eras statelessly, as go-sdk's stateless mode does: no
// Mcp-Session-Id is minted, and every request is served from itself
// alone, in the server's process scope (scope.go), with nothing of a
// session. Where a legacy feature needs a session that outlives one POST
// (the server's own requests: roots, elicitation), it is refused at once.
//
// A request goes through the wrappers of http_guard.go (the Host, the
// Origin, the token), then the endpoint: the method and media type, the
// body (http_body.go), read before the request takes one of the
// MaxConcurrent places, so that a client sending slowly holds none; then
// parseEnvelope checks the message, its era is read once, and the
// server's method table (methods.go) serves it, as it serves a stdio
// line. The answer comes back through an httpPeer (http_peer.go) writing
// to the POST's response.
//
// A request of the modern era (2026-07-28) is told apart after
// parseEnvelope, by its _meta (era.go), and its MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers must then agree with its body (400 with
// -32020); its error responses get the status their code calls for
// (-32601 → 404, other errors → 400; legacy answers 200). A request whose
// header says 2026-07-28 while its body names no version is a modern
// request without its _meta (400 with -32602), not a legacy one; a header
// and a body naming two versions are -32020, even when the body's is
// unknown; the same unknown version in both is -32022 with {supported,
// requested}.

// HTTPOptions configure [Server.HTTPHandler].
type HTTPOptions struct {
	// AllowedHosts are host names (or IP literals, bracketed or not),
	// besides the loopback names localhost, 127.0.0.1 and ::1, that the
	// Host and Origin headers may name, with any port. Anything else is
	// refused with 403, against DNS rebinding. "*" allows every Host and
	// Origin.
	AllowedHosts []string
	// Token, when not empty, must come with every request as
	// "Authorization: Bearer <Token>"; it is compared in constant time.
	// Every request that carries it is served for one principal (see
	// [WithPrincipal]).
	Token string
	// MaxConcurrent bounds the requests served at once, once their bodies
	// are read; beyond it a request is answered 503 with Retry-After.
	// Default 256.
	MaxConcurrent int
	// WriteTimeout bounds each write of a response (an SSE stream is many
	// writes), so that a client that stops reading cannot hold a call
	// forever. Default 30 seconds.
	WriteTimeout time.Duration
	// BodyTimeout bounds the reading of a request's body. A body that has
	// not arrived in time is answered 400 and its connection closed.
	// Default 10 seconds.
	BodyTimeout time.Duration
	// IdentityHeader, with TrustedProxies, is the header in which a
	// gateway in front, one that checked the client's credentials, names
	// the client: a request from one of TrustedProxies that carries it
	// is served for that principal ([WithPrincipal]), its limits and loop
	// guard its own. From any other address the header is ignored.
	IdentityHeader string
	// TrustedProxies are the addresses IdentityHeader is taken from.
	TrustedProxies []netip.Prefix
}

// HTTPHandler returns the handler of the Streamable HTTP endpoint. It
// answers POST only; the caller mounts it (at /mcp) and runs the
// http.Server, with its own timeouts. See the file comment for what is
// served.
//
// Without [HTTPOptions.Token] or a principal set by a middleware in front
// of it ([WithPrincipal]), requests are counted against their client's
// address (the host of the connection's remote address, whatever its
// port) for the limits and the loop guard.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 256
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 30 * time.Second
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = 10 * time.Second
	}
	var h http.Handler = &endpoint{srv: s, opts: opts, places: make(chan struct{}, opts.MaxConcurrent)}
	if opts.IdentityHeader != "" && len(opts.TrustedProxies) > 0 {
		h = trustIdentity(opts.IdentityHeader, opts.TrustedProxies, h)
	}
	if opts.Token != "" {
		h = requireToken(opts.Token, h)
	}
	hosts := newHostSet(opts.AllowedHosts)
	h = checkOrigin(hosts, s.log, h)
	return checkHost(hosts, s.log, h)
}

// endpoint serves the POSTs that the guards let through.
type endpoint struct {
	srv    *Server
	opts   HTTPOptions
	places chan struct{} // one per request served at once
}

// ServeHTTP serves one POST: its method and media type, its body, a
// place among the requests served at once, its envelope and era, then
// the request itself (serveRequest).
func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpRefuse(w, http.StatusMethodNotAllowed, "Method Not Allowed: this endpoint takes one JSON-RPC message per POST; it opens no stream and keeps no session")
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			httpRefuse(w, http.StatusUnsupportedMediaType, "Unsupported Media Type: send the message as application/json")
			return
		}
	}
	if len(r.TransferEncoding) > 0 {
		// net/http drops a Content-Length sent beside Transfer-Encoding
		// before a handler sees it; RFC 9112 §6.1 wants the connection
		// of such a request closed after the response, so that what a
		// proxy took for the next request is never read as one. Any
		// request with a transfer coding is answered so.
		w.Header().Set("Connection", "close")
	}
	body, status, werr := e.readBody(w, r)
	if werr != nil {
		e.srv.log.Debug().Int64("code", werr.code).Str("reason", werr.message).Msg("refused a message")
		writeJSON(w, status, appendError(nil, werr.id, werr.code, werr.message, nil))
		return
	}
	select {
	case e.places <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "1")
		httpRefuse(w, http.StatusServiceUnavailable, "Service Unavailable: too many requests at once; retry shortly")
		return
	}
	release := sync.OnceFunc(func() { <-e.places })
	defer release()
	env, werr := parseEnvelope(body)
	if werr != nil {
		e.srv.log.Debug().Int64("code", werr.code).Str("reason", clip(werr.message)).Msg("refused a message")
		writeJSON(w, http.StatusBadRequest, appendError(nil, werr.id, werr.code, werr.message, nil))
		return
	}
	header := strings.TrimSpace(r.Header.Get("MCP-Protocol-Version"))
	switch env.kind {
	case kindNotification, kindResponse:
		if header != "" && !knownVersion(header) {
			writeJSON(w, http.StatusBadRequest, appendError(nil, nil, jsonrpc2.CodeInvalidRequest, unknownHeader(header), nil))
			return
		}
		// Stateless: a notification has no session to act on. In
		// particular notifications/cancelled cannot reach a call served by
		// another POST; closing that POST is how a client cancels it. And
		// the server asks nothing over HTTP, so no response is awaited.
		e.srv.log.Debug().Str("method", clip(env.method)).Msg("accepted a message that needs no answer")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	ea, ok := readHTTPEra(w, r.Header, header, env)
	if !ok {
		return
	}
	if env.method == "subscriptions/listen" && ea.modern && !acceptsStream(r.Header.Values("Accept")) {
		writeJSON(w, http.StatusNotAcceptable, appendError(nil, env.id, jsonrpc2.CodeInvalidRequest,
			"Not Acceptable: subscriptions/listen is answered with a stream of events; send Accept: text/event-stream", nil))
		return
	}
	e.serveRequest(w, r, env, ea, release)
}

// readHTTPEra reads the era of a request, once, from its _meta and its
// MCP-Protocol-Version header (header), and checks that the two agree. A
// request refused here is answered here, and ok is false.
func readHTTPEra(w http.ResponseWriter, h http.Header, header string, env envelope) (era, bool) {
	e, perr := readEra(env.meta)
	switch {
	case perr != nil && perr.code == codeUnsupportedVersion && header != "" && header != e.version:
		// The header and the body name different versions: that is the
		// mismatch, whichever of them the server speaks.
		writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, codeHeaderMismatch, fmt.Sprintf(
			"Header mismatch: the MCP-Protocol-Version header is %q, the body's _meta says %q; send the same version in both",
			shortenString(header, 40), shortenString(e.version, 40)), nil))
	case perr != nil:
		var data any
		if perr.data != nil {
			data = perr.data
		}
		writeJSON(w, errorStatus(perr.code), appendError(nil, env.id, perr.code, perr.message, data))
	case e.modern:
		if msg := modernHeaderMismatch(h, env); msg != "" {
			writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, codeHeaderMismatch, "Header mismatch: "+msg, nil))
			return e, false
		}
		return e, true
	case header == ModernVersion && e.version != "":
		writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, codeHeaderMismatch, fmt.Sprintf(
			"Header mismatch: the MCP-Protocol-Version header is %s, the body's _meta says %q; send the same version in both",
			ModernVersion, shortenString(e.version, 40)), nil))
	case header == ModernVersion:
		// The header says 2026-07-28 and the body names no version: a
		// modern request without its _meta (-32602), not a legacy one.
		writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, jsonrpc2.CodeInvalidParams, fmt.Sprintf(
			`Invalid params: the MCP-Protocol-Version header says %s, so the request needs params._meta["%s"] (%q) and params._meta["%s"] (an object, may be {}); send initialize for 2025-11-25 and earlier`,
			ModernVersion, metaProtocolVersion, ModernVersion, metaClientCapabilities), nil))
	case header != "" && !knownVersion(header):
		writeJSON(w, http.StatusBadRequest, appendError(nil, env.id, jsonrpc2.CodeInvalidRequest, unknownHeader(header), nil))
	default:
		return e, true
	}
	return e, false
}

// unknownHeader is the refusal of an MCP-Protocol-Version header that
// names no revision the server speaks.
func unknownHeader(header string) string {
	return fmt.Sprintf("Bad Request: MCP-Protocol-Version %q is not one this server speaks (%s)",
		shortenString(header, 40), strings.Join(supportedVersions(), ", "))
}

// serveRequest serves one request and waits for its response, written
// after the notifications the call sent before it. The request carries
// only what is its own: its era, its id, the request's context (which
// ends when the client leaves, cancelling a call at once) and the peer
// its progress goes to.
func (e *endpoint) serveRequest(w http.ResponseWriter, r *http.Request, env envelope, ea era, release func()) {
	ctx := r.Context()
	p := &httpPeer{
		w:        w,
		chunks:   &e.srv.chunks,
		rc:       http.NewResponseController(w),
		timeout:  e.opts.WriteTimeout,
		streamOK: acceptsStream(r.Header.Values("Accept")),
		modern:   ea.modern,
		answered: make(chan struct{}),
	}
	e.srv.serve(&request{env: env, era: ea, out: p, ctx: ctx, who: e.principal(r), grant: grantOf(r.Context())})
	select {
	case <-p.answered:
	case <-ctx.Done():
	}
	p.close()
	if p.sink != nil {
		// The request became a subscription's stream: it holds no place
		// among the requests served at once from here on.
		release()
		p.stream(ctx, e.srv)
	}
}

// principal returns the principal of r: the one a guard or middleware
// named in its context, or else its client's address.
func (e *endpoint) principal(r *http.Request) *principal {
	key, ok := principalOf(r.Context())
	if ok {
		key = "id " + key
	} else {
		host := r.RemoteAddr
		if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			host = h
		}
		key = "address " + host
	}
	return e.srv.principals.get(key, &e.srv.opts)
}

// knownVersion reports whether an MCP-Protocol-Version header names a
// revision the server speaks. A request with 2026-07-28 in the header
// must say so in its _meta too (readHTTPEra).
func knownVersion(v string) bool {
	return v == ModernVersion || slices.Contains(protocolVersions[:], v)
}

// codeHeaderMismatch is the error of a modern request whose HTTP headers
// do not say what its body says.
const codeHeaderMismatch = -32020

// modernHeaderMismatch checks the headers a request of MCP 2026-07-28
// must carry over HTTP: MCP-Protocol-Version equal to its _meta,
// Mcp-Method equal to its method, and Mcp-Name equal to the tool of a
// tools/call or the URI of a resources/read (plain, or as =?base64?…?=).
// It returns what does not match, or "".
func modernHeaderMismatch(h http.Header, env envelope) string {
	if v := strings.TrimSpace(h.Get("MCP-Protocol-Version")); v != ModernVersion {
		return fmt.Sprintf("the MCP-Protocol-Version header is %q; a request whose _meta says %s must say so in the header too", shortenString(v, 40), ModernVersion)
	}
	if m := strings.TrimSpace(h.Get("Mcp-Method")); m != env.method {
		return fmt.Sprintf("the Mcp-Method header is %q, the body's method %q; send the method in both", shortenString(m, 40), shortenString(env.method, 40))
	}
	var name, what string
	switch env.method {
	case "tools/call":
		if env.name != nil {
			name, _ = decodeString(env.name)
		}
		what = "the tool the body calls"
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(env.params, &p) // a body without a URI is refused as such
		name, what = p.URI, "the URI the body reads"
	default:
		return ""
	}
	got, ok := decodeMcpName(strings.TrimSpace(h.Get("Mcp-Name")))
	if !ok || got != name {
		return fmt.Sprintf("the Mcp-Name header does not name %s (%q); send it in both", what, shortenString(name, 40))
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
