package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// This file decides the era of each request. MCP 2026-07-28 (the modern
// era) is stateless: a request says its protocol version in its own
// params._meta and is served from that request alone, with no handshake;
// a request without one is of the legacy era (2025-11-25 and before),
// served by the session as it always was. One process serves both, and
// the two never share state: a modern request reads no capability, log
// level or roots of the session, and asks the client nothing.

// ModernVersion is the MCP revision served statelessly, per request.
const ModernVersion = "2026-07-28"

// The _meta keys of a modern request.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
)

// The error codes of the modern era.
const (
	codeMissingCapabilities = -32021 // a capability the request needs was not declared
	codeUnsupportedVersion  = -32022 // data: {supported, requested}
)

// era is what a request's _meta says about how to serve it.
type era struct {
	modern       bool
	version      string          // the protocolVersion _meta names, "" when none (set on errors too)
	capabilities json.RawMessage // the client's, for this request alone
	logLevel     LogLevel        // -1: send no log messages
}

// readEra reads the era of a request from params._meta, which the
// envelope found (nil when absent): modern when its protocolVersion is
// ModernVersion, legacy when it names a legacy version or none. Any other
// version is -32022; a modern request without clientCapabilities, or with
// a logLevel that is no level, is -32602.
func readEra(meta json.RawMessage) (era, *protocolError) {
	e := era{logLevel: -1}
	if meta == nil || meta[0] != '{' {
		return e, nil // the usual legacy request
	}
	var buf [8]member
	var version, caps, level []byte
	for _, m := range appendMembers(buf[:0], meta) {
		switch m.name {
		case metaProtocolVersion:
			version = m.value
		case metaClientCapabilities:
			caps = m.value
		case metaLogLevel:
			level = m.value
		}
	}
	if version == nil {
		return e, nil
	}
	v, ok := decodeString(version)
	e.version = v
	switch {
	case !ok:
		return e, &protocolError{code: jsonrpc2.CodeInvalidParams,
			message: fmt.Sprintf(`Invalid params: _meta["%s"] must be a string such as %q`, metaProtocolVersion, ModernVersion)}
	case v == ModernVersion:
	case slices.Contains(protocolVersions[:], v):
		return e, nil
	default:
		data, _ := jsonwire.Marshal(map[string]any{"supported": supportedVersions(), "requested": v})
		return e, &protocolError{code: codeUnsupportedVersion, data: data,
			message: fmt.Sprintf("Unsupported protocol version %q; this server speaks %s", shortenString(v, 40), strings.Join(supportedVersions(), ", "))}
	}
	e.modern = true
	if caps == nil || caps[0] != '{' {
		return e, &protocolError{code: jsonrpc2.CodeInvalidParams,
			message: fmt.Sprintf(`Invalid params: a %s request needs _meta["%s"], an object of the client's capabilities (it may be {})`, ModernVersion, metaClientCapabilities)}
	}
	e.capabilities = caps
	if level != nil {
		s, _ := decodeString(level)
		l, ok := parseLogLevel(s)
		if !ok {
			return e, &protocolError{code: jsonrpc2.CodeInvalidParams,
				message: fmt.Sprintf(`Invalid params: _meta["%s"] must be one of %s`, metaLogLevel, strings.Join(levelNames[:], ", "))}
		}
		e.logLevel = l
	}
	return e, nil
}

// supportedVersions are the revisions the server speaks, newest first.
func supportedVersions() []string {
	return append([]string{ModernVersion}, protocolVersions[:]...)
}

// protocolError is a JSON-RPC error with optional data.
type protocolError struct {
	code    int64
	message string
	data    json.RawMessage
}

// The caching hints of modern results: the tool list never changes while
// the server runs, and is the same for every client.
const (
	discoverTTLMillis = 3_600_000
	toolsTTLMillis    = 300_000
	cacheScope        = "public"
)

// discover answers server/discover: the versions, the capabilities (the
// tools alone: logging is deprecated), the instructions and how long a
// client may keep the answer.
func (s *Server) discover(r *request) {
	b := []byte(`{"resultType":"complete","supportedVersions":`)
	b, _ = jsonwire.Append(b, supportedVersions())
	b = append(b, `,"capabilities":{`...)
	if s.resources.completes(s.opts.maxLevel()) {
		b = append(b, `"completions":{},`...)
	}
	switch {
	case s.resources.watches(s.opts.maxLevel()):
		b = append(b, `"resources":{"subscribe":true},`...)
	case s.resources.any(s.opts.maxLevel()):
		b = append(b, `"resources":{},`...)
	}
	b = append(b, `"tools":{}}`...)
	if s.opts.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = appendString(b, s.opts.Instructions)
	}
	b = append(b, fmt.Sprintf(`,"ttlMs":%d,"cacheScope":%q,"_meta":{`, discoverTTLMillis, cacheScope)...)
	b = appendServerInfo(b, s.serverInfo, false)
	b = append(b, "}}"...)
	r.reply(b)
}
