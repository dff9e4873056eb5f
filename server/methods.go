package server

import (
	"fmt"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
)

// methodInfo says how the server answers one method: in which eras, and
// with which handler.
type methodInfo struct {
	name   string
	legacy bool // served in MCP 2025-11-25 and before
	modern bool // served in MCP 2026-07-28
	// early lets a legacy request come before the handshake is done.
	early  bool
	handle func(*Server, *request)
}

// methods is every method the server answers, the one table that stdio
// and HTTP, and both eras, dispatch by (serve). It is never written to.
var methods = [...]methodInfo{
	{name: "initialize", legacy: true, early: true, handle: (*Server).initialize},
	{name: "ping", legacy: true, early: true, handle: (*Server).ping},
	{name: "server/discover", modern: true, handle: (*Server).discover},
	{name: "tools/list", legacy: true, modern: true, handle: (*Server).listTools},
	{name: "tools/call", legacy: true, modern: true, handle: (*Server).startCall},
	{name: "logging/setLevel", legacy: true, handle: (*Server).setLevel},
	{name: "resources/list", legacy: true, modern: true, handle: (*Server).listResources},
	{name: "resources/templates/list", legacy: true, modern: true, handle: (*Server).listResourceTemplates},
	{name: "resources/read", legacy: true, modern: true, handle: (*Server).readResource},
	{name: "completion/complete", legacy: true, modern: true, handle: (*Server).complete},
	{name: "resources/subscribe", legacy: true, handle: (*Server).subscribe},
	{name: "resources/unsubscribe", legacy: true, handle: (*Server).unsubscribe},
	{name: "subscriptions/listen", modern: true, handle: (*Server).listen},
}

// method returns the entry of the method called name.
func method(name string) (*methodInfo, bool) {
	for i := range methods {
		if methods[i].name == name {
			return &methods[i], true
		}
	}
	return nil, false
}

// methodNames lists the methods s serves in one era, as a sentence does:
// "a, b and c". The resources methods are served once s has resources.
func (s *Server) methodNames(modern bool) string {
	var names []string
	for i := range methods {
		m := &methods[i]
		if !s.serves(m) {
			continue
		}
		if m.modern && modern || m.legacy && !modern {
			names = append(names, m.name)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// serve answers one request, whatever carried it, by the method table.
// A method the request's era does not serve is -32601, with a sentence
// that says what to send instead. It runs on the reader of a stdio
// session, in arrival order, and on the goroutine of an HTTP request.
func (s *Server) serve(r *request) {
	if ev := s.log.Debug(); ev.Enabled() {
		ev.RawJSON("id", clipJSON(r.env.id)).Str("method", clip(r.env.method)).Msg("request")
	}
	m, ok := method(r.env.method)
	if ok && !s.serves(m) {
		m, ok = nil, false
	}
	switch {
	case r.era.modern && ok && m.modern:
	case r.era.modern && ok:
		r.fail(jsonrpc2.CodeMethodNotFound, fmt.Sprintf(
			"Method not found: %s is not part of MCP %s; send %s", r.env.method, ModernVersion, s.orNames(true)))
		return
	case r.era.modern:
		r.fail(jsonrpc2.CodeMethodNotFound, fmt.Sprintf(
			"Method not found: %q; under MCP %s this server answers %s", shortenString(r.env.method, 80), ModernVersion, s.methodNames(true)))
		return
	case ok && m.legacy:
		if !m.early && r.sess != nil && !r.sess.initialized.Load() {
			r.fail(jsonrpc2.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: send initialize first; %s is accepted only after the initialize handshake", r.env.method))
			return
		}
	case ok:
		r.fail(jsonrpc2.CodeMethodNotFound, fmt.Sprintf(
			`Method not found: %s is part of MCP %s; send it with _meta {"%s":"%s","%s":{…}}, or send initialize for 2025-11-25 and earlier`,
			r.env.method, ModernVersion, metaProtocolVersion, ModernVersion, metaClientCapabilities))
		return
	default:
		r.fail(jsonrpc2.CodeMethodNotFound,
			fmt.Sprintf("Method not found: %q; this server answers %s", shortenString(r.env.method, 80), s.methodNames(false)))
		return
	}
	m.handle(s, r)
}

// serves reports whether s serves the method of m: the resources methods
// once it has resources, completion once a template completes,
// subscriptions once a resource can be watched, every other always.
func (s *Server) serves(m *methodInfo) bool {
	switch {
	case m.name == "resources/subscribe" || m.name == "resources/unsubscribe" || m.name == "subscriptions/listen":
		return s.resources.watches(s.opts.maxLevel())
	case strings.HasPrefix(m.name, "resources/"):
		return s.resources.any(s.opts.maxLevel())
	case m.name == "completion/complete":
		return s.resources.completes(s.opts.maxLevel())
	}
	return true
}

// orNames lists the methods served in one era as alternatives: "a, b or c".
func (s *Server) orNames(modern bool) string {
	all := s.methodNames(modern)
	if i := strings.LastIndex(all, " and "); i >= 0 {
		return all[:i] + " or " + all[i+len(" and "):]
	}
	return all
}

// ping answers ping.
func (s *Server) ping(r *request) { r.reply([]byte("{}")) }
