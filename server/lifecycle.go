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

// initialize answers the handshake. It runs in the read loop, so nothing
// the client sends after it is seen before the session is ready.
func (s *session) initialize(env envelope) {
	if s.initialized.Load() {
		s.writeError(env.id, -32600, "Invalid Request: the session is already initialized; send initialize once per session")
		return
	}
	p, ok := decodeInitializeParams(env.params)
	if !ok {
		if err := json.Unmarshal(env.params, &p); err != nil || env.params == nil {
			s.invalidParams(env.id, "initialize needs params with protocolVersion, capabilities and clientInfo")
			return
		}
	}
	if p.ProtocolVersion == nil || *p.ProtocolVersion == "" {
		s.invalidParams(env.id, "initialize needs a protocolVersion such as %q", protocolVersions[0])
		return
	}
	version := protocolVersions[0]
	if slices.Contains(protocolVersions[:], *p.ProtocolVersion) {
		version = *p.ProtocolVersion
	}
	ci := clientInfo{Name: p.ClientInfo.Name, Version: p.ClientInfo.Version}
	if r := p.Capabilities.Roots; r != nil {
		ci.Roots, ci.RootsChanged = true, r.ListChanged
	}
	ci.Elicitation = p.Capabilities.Elicitation != nil

	s.mu.Lock()
	s.version, s.client = version, ci
	s.mu.Unlock()
	s.roots.wanted = ci.Roots && s.srv.opts.Roots != nil
	if !s.roots.wanted {
		s.roots.once.Do(func() { close(s.roots.ready) })
	}

	b := appendResultHead(nil, env.id)
	b = appendInitializeResult(b, version, s.srv.serverInfo, s.srv.opts.Instructions)
	s.initialized.Store(true)
	_ = s.out.send(append(b, "}\n"...))
	s.log.Info().Str("client", ci.Name).Str("client_version", ci.Version).
		Str("requested", *p.ProtocolVersion).Str("protocol", version).Msg("session initialized")
}
