package server

import "encoding/json"

// maxLogged is the most runes of anything a client sent (a method, an
// id, a header, a tool's name or arguments) that one field of a log line
// copies: a request may be as large as --max-message-bytes, and its log
// line must not be.
const maxLogged = 512

// clip returns s, or its first maxLogged runes and an ellipsis.
func clip(s string) string {
	if len(s) <= maxLogged {
		return s
	}
	return shortenString(s, maxLogged)
}

// maxLoggedItems is the most items of a list a client sent (its roots)
// that a log line copies.
const maxLoggedItems = 32

// clipAll returns the first maxLoggedItems of ss, each clipped.
func clipAll(ss []string) []string {
	out := make([]string, 0, min(len(ss), maxLoggedItems))
	for _, s := range ss[:min(len(ss), maxLoggedItems)] {
		out = append(out, clip(s))
	}
	return out
}

// clipJSON returns raw, a JSON text a client sent, as a log line may
// hold it: itself when short, otherwise a JSON string of its first
// maxLogged runes and an ellipsis.
func clipJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) <= maxLogged {
		return raw
	}
	return appendString(nil, shorten(raw, maxLogged))
}
