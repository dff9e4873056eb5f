package server

import (
	"encoding/json"
	"slices"
)

// protocolVersions are the MCP revisions the server negotiates, newest
// first. A client asking for another one is answered with the newest.
var protocolVersions = [...]string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// ProtocolVersions returns the MCP revisions the server negotiates, newest
// first.
func ProtocolVersions() []string { return slices.Clone(protocolVersions[:]) }

// clientInfo is what the client said about itself in initialize.
type clientInfo struct {
	Name         string
	Version      string
	Roots        bool // the client can answer roots/list
	RootsChanged bool // and sends notifications/roots/list_changed
	Elicitation  bool // the client can answer elicitation/create
}

type initializeParams struct {
	ProtocolVersion *string `json:"protocolVersion"`
	Capabilities    struct {
		Roots *struct {
			ListChanged bool `json:"listChanged"`
		} `json:"roots"`
		Elicitation *json.RawMessage `json:"elicitation"`
	} `json:"capabilities"`
	ClientInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// initialize answers the handshake. On a session it runs in the read
// loop, so nothing the client sends after it is seen before the session
// is ready. A request without a session (stateless HTTP) is answered as
// usual, and nothing of it is kept: each of its requests stands alone.
func (s *Server) initialize(r *request) {
	sess := r.sess
	if sess != nil && sess.initialized.Load() {
		r.fail(-32600, "Invalid Request: the session is already initialized; send initialize once per session")
		return
	}
	p, ok := decodeInitializeParams(r.env.params)
	if !ok {
		if err := json.Unmarshal(r.env.params, &p); err != nil || r.env.params == nil {
			r.invalidParams("initialize needs params with protocolVersion, capabilities and clientInfo")
			return
		}
	}
	if p.ProtocolVersion == nil || *p.ProtocolVersion == "" {
		r.invalidParams("initialize needs a protocolVersion such as %q", protocolVersions[0])
		return
	}
	version := protocolVersions[0]
	if slices.Contains(protocolVersions[:], *p.ProtocolVersion) {
		version = *p.ProtocolVersion
	}
	ci := clientInfo{Name: p.ClientInfo.Name, Version: p.ClientInfo.Version}
	if rc := p.Capabilities.Roots; rc != nil {
		ci.Roots, ci.RootsChanged = true, rc.ListChanged
	}
	ci.Elicitation = p.Capabilities.Elicitation != nil

	if sess != nil {
		sess.mu.Lock()
		sess.version, sess.client = version, ci
		sess.mu.Unlock()
		sess.roots.wanted = ci.Roots && s.opts.Roots != nil
		if !sess.roots.wanted {
			sess.roots.once.Do(func() { close(sess.roots.ready) })
		}
	}

	b := appendResultHead(nil, r.env.id)
	max := s.opts.maxLevel()
	// Subscriptions need a session to send their changes to: a stdio
	// one, never stateless HTTP's.
	subscribe := sess != nil && s.resources.watches(max)
	b = appendInitializeResult(b, version, s.serverInfo, s.opts.Instructions, s.resources.any(max), subscribe, s.resources.completes(max))
	if sess != nil {
		sess.initialized.Store(true)
	}
	_ = r.out.respond(append(b, "}\n"...), 0)
	s.log.Info().Str("client", clip(ci.Name)).Str("client_version", clip(ci.Version)).
		Str("requested", clip(*p.ProtocolVersion)).Str("protocol", version).Msg("session initialized")
}
