package otlp

import (
	"crypto/rand"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/stdiotools/toolserver/server"
)

// scopeName names the instrumentation scope of every span.
const scopeName = "github.com/stdiotools/toolserver/server"

// callSpans turns the record of one call into its spans: the call's span
// (kind SERVER), with one child span (kind INTERNAL) per stage. The call
// joins the client's trace when the client sent a valid traceparent, and
// starts a trace of its own otherwise.
//
// The names and attributes follow the OpenTelemetry semantic conventions
// for MCP: the span is "tools/call <tool>", with mcp.method.name,
// gen_ai.tool.name, gen_ai.operation.name, jsonrpc.request.id,
// network.transport and, when the call failed, error.type.
func callSpans(c *server.CallSpan) []span {
	root := span{
		kind:    kindServer,
		start:   c.Start,
		end:     c.End,
		sampled: true,
		name:    "tools/call",
	}
	if tid, pid, sampled, ok := parseTraceParent(c.TraceParent); ok {
		root.traceID, root.parentID, root.sampled, root.remoteParent = tid, pid, sampled, true
		root.traceState = c.TraceState
	} else {
		_, _ = rand.Read(root.traceID[:])
	}
	_, _ = rand.Read(root.spanID[:])
	if c.Tool != "" {
		root.name += " " + c.Tool
	}
	root.attrs = []attr{
		stringAttr("mcp.method.name", "tools/call"),
		stringAttr("gen_ai.operation.name", "execute_tool"),
		stringAttr("network.transport", "pipe"),
		stringAttr("jsonrpc.request.id", requestID(c.RequestID)),
		stringAttr("toolserver.session", c.Session),
		stringAttr("toolserver.status", c.Status),
		intAttr("toolserver.attempts", int64(c.Attempts)),
		boolAttr("toolserver.cache_hit", c.CacheHit),
	}
	if c.Tool != "" {
		root.attrs = append(root.attrs, stringAttr("gen_ai.tool.name", c.Tool))
	}
	if c.Status != "ok" {
		root.failed, root.errMsg = true, c.Error
		root.attrs = append(root.attrs, stringAttr("error.type", errorType(c.Status)))
	}
	spans := make([]span, 0, 1+len(c.Stages))
	spans = append(spans, root)
	for _, st := range c.Stages {
		s := span{
			traceID:  root.traceID,
			parentID: root.spanID,
			name:     st.Name,
			kind:     kindInternal,
			start:    st.Start,
			end:      st.End,
			sampled:  root.sampled,
		}
		_, _ = rand.Read(s.spanID[:])
		if st.Error != "" {
			s.failed, s.errMsg = true, st.Error
		}
		spans = append(spans, s)
	}
	return spans
}

// errorType is the error.type of a call that did not end well.
func errorType(status string) string {
	if status == "error" {
		return "tool_error"
	}
	return status
}

// requestID is a JSON-RPC id as an attribute: a string id without its
// quotes, a number as written.
func requestID(raw []byte) string {
	s := string(raw)
	if len(s) >= 2 && s[0] == '"' {
		if !strings.Contains(s, `\`) {
			return s[1 : len(s)-1]
		}
	}
	return s
}

// parseTraceParent reads a W3C traceparent header value,
// "00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>". All-zero ids
// and version ff are invalid; a later version may add fields after the
// flags.
func parseTraceParent(tp string) (trace [16]byte, parent [8]byte, sampled, ok bool) {
	if len(tp) < 55 || tp[2] != '-' || tp[35] != '-' || tp[52] != '-' {
		return trace, parent, false, false
	}
	version := tp[:2]
	if version == "ff" || !isLowerHex(version) || (version == "00" && len(tp) != 55) || (len(tp) > 55 && tp[55] != '-') {
		return trace, parent, false, false
	}
	if !isLowerHex(tp[3:35]) || !isLowerHex(tp[36:52]) || !isLowerHex(tp[53:55]) {
		return trace, parent, false, false
	}
	_, _ = hex.Decode(trace[:], []byte(tp[3:35]))
	_, _ = hex.Decode(parent[:], []byte(tp[36:52]))
	if trace == ([16]byte{}) || parent == ([8]byte{}) {
		return trace, parent, false, false
	}
	var flags [1]byte
	_, _ = hex.Decode(flags[:], []byte(tp[53:55]))
	return trace, parent, flags[0]&1 == 1, true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// appendRequest appends an ExportTraceServiceRequest holding spans, under
// the given resource and scope version.
func appendRequest(b []byte, resource map[string]string, scopeVersion string, spans []span) []byte {
	keys := make([]string, 0, len(resource))
	for k := range resource {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return appendMessage(b, 1, func(b []byte) []byte { // ResourceSpans
		b = appendMessage(b, 1, func(b []byte) []byte { // Resource
			for _, k := range keys {
				b = appendKeyValue(b, 1, stringAttr(k, resource[k]))
			}
			return b
		})
		return appendMessage(b, 2, func(b []byte) []byte { // ScopeSpans
			b = appendMessage(b, 1, func(b []byte) []byte { // InstrumentationScope
				b = appendStringField(b, 1, scopeName)
				return appendStringField(b, 2, scopeVersion)
			})
			for i := range spans {
				b = appendSpan(b, 2, &spans[i])
			}
			return b
		})
	})
}
