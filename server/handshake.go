package server

import (
	"bytes"
	"encoding/json"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// The handshake is read and answered here without encoding/json's
// reflection, whose first use builds the caches of every type it meets:
// with the serverInfo encoded at New, that was 2% of a start's CPU before
// its first answer (perf), and four of its eleven stack growths. Only inputs
// that encoding/json reads the same way take the short path; the others,
// unusual or wrong, go to encoding/json, which stays the reference (a
// differential fuzz target holds the two together).

// decodeInitializeParams decodes the params of initialize as
// json.Unmarshal into an initializeParams does. ok is false when it
// cannot tell that they are the same: params that are not a plain JSON
// object (jsonwire.DecodeObject's terms), a member of the wrong type, or
// a key that matches a member only as encoding/json's case-insensitive
// matching does. The caller then asks encoding/json.
func decodeInitializeParams(raw []byte) (p initializeParams, ok bool) {
	obj, ok := jsonwire.DecodeObject(raw)
	if !ok || !plainKeys(obj, "protocolVersion", "capabilities", "clientInfo") {
		return p, false
	}
	switch v := obj["protocolVersion"].(type) {
	case string:
		p.ProtocolVersion = &v
	case nil:
	default:
		return p, false
	}
	switch caps := obj["capabilities"].(type) {
	case map[string]any:
		if !plainKeys(caps, "roots", "elicitation") {
			return p, false
		}
		switch roots := caps["roots"].(type) {
		case map[string]any:
			if !plainKeys(roots, "listChanged") {
				return p, false
			}
			p.Capabilities.Roots = &struct {
				ListChanged bool `json:"listChanged"`
			}{}
			switch lc := roots["listChanged"].(type) {
			case bool:
				p.Capabilities.Roots.ListChanged = lc
			case nil:
			default:
				return p, false
			}
		case nil:
		default:
			return p, false
		}
		if caps["elicitation"] != nil {
			p.Capabilities.Elicitation = &json.RawMessage{} // only its presence is read
		}
	case nil:
	default:
		return p, false
	}
	switch ci := obj["clientInfo"].(type) {
	case map[string]any:
		if !plainKeys(ci, "name", "version") {
			return p, false
		}
		var ok1, ok2 bool
		if p.ClientInfo.Name, ok1 = optionalString(ci["name"]); !ok1 {
			return p, false
		}
		if p.ClientInfo.Version, ok2 = optionalString(ci["version"]); !ok2 {
			return p, false
		}
	case nil:
	default:
		return p, false
	}
	return p, true
}

// plainKeys reports whether no key of obj matches one of names as
// encoding/json matches keys to struct fields without being equal to it.
func plainKeys(obj map[string]any, names ...string) bool {
	for k := range obj {
		for _, n := range names {
			if k != n && bytes.EqualFold([]byte(k), []byte(n)) {
				return false
			}
		}
	}
	return true
}

// optionalString returns v if it is a string, "" if it is null (absent),
// and ok false otherwise.
func optionalString(v any) (s string, ok bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case nil:
		return "", true
	}
	return "", false
}

// appendServerInfoObject appends si as encoding/json writes it without
// HTML escaping.
func appendServerInfoObject(b []byte, si serverInfo) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, si.Name)
	if si.Title != "" {
		b = append(b, `,"title":`...)
		b = appendString(b, si.Title)
	}
	b = append(b, `,"version":`...)
	b = appendString(b, si.Version)
	return append(b, '}')
}

// appendInitializeResult appends the result of initialize, as
// encoding/json writes an initializeResult without HTML escaping, given
// si, the encoded serverInfo. The capabilities are the server's only
// ones, in encoding/json's order of map keys.
func appendInitializeResult(b []byte, version string, si []byte, instructions string, resources, subscribe, completions bool) []byte {
	b = append(b, `{"protocolVersion":`...)
	b = appendString(b, version)
	b = append(b, `,"capabilities":{`...)
	if completions {
		b = append(b, `"completions":{},`...)
	}
	b = append(b, `"logging":{},`...)
	switch {
	case resources && subscribe:
		b = append(b, `"resources":{"subscribe":true},`...)
	case resources:
		b = append(b, `"resources":{},`...)
	}
	b = append(b, `"tools":{}},"serverInfo":`...)
	b = append(b, si...)
	if instructions != "" {
		b = append(b, `,"instructions":`...)
		b = appendString(b, instructions)
	}
	return append(b, '}')
}
