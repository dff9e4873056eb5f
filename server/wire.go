package server

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// This file writes the JSON-RPC messages the server sends. Each message is
// built in one buffer and written with one call, so the body of a large
// result is encoded once, straight into the output line. The writers write
// by hand what encoding/json writes for the documented types without HTML
// escaping (package jsonwire), and wire_fuzz_test.go holds them to it byte
// for byte. The ids they copy are compact JSON, as envelope reads them.

// appendResult appends a success response line whose result is the
// JSON encoding of v, with HTML characters left unescaped.
func appendResult(b []byte, id json.RawMessage, v any) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b, err := jsonwire.Append(b, v)
	if err != nil {
		return nil, err
	}
	return append(b, "}\n"...), nil
}

// appendRawResult appends a success response line with an already encoded
// result.
func appendRawResult(b []byte, id json.RawMessage, result []byte) []byte {
	b = appendResultHead(b, id)
	b = append(b, result...)
	return append(b, "}\n"...)
}

// appendResultHead appends the start of a success response line, up to
// its result: what follows is the result, then "}\n".
func appendResultHead(b []byte, id json.RawMessage) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	return append(b, `,"result":`...)
}

// appendError appends an error response line. A nil id is left out, as
// MCP 2025-11-25 prescribes when the request's id could not be read. Data
// that cannot be encoded is left out too.
func appendError(b []byte, id json.RawMessage, code int64, msg string, data any) []byte {
	b = append(b, `{"jsonrpc":"2.0",`...)
	if len(id) > 0 {
		b = append(b, `"id":`...)
		b = append(b, id...)
		b = append(b, ',')
	}
	b = append(b, `"error":{"code":`...)
	b = strconv.AppendInt(b, code, 10)
	b = append(b, `,"message":`...)
	b = appendString(b, msg)
	if data != nil {
		if d, err := jsonwire.Append(append(b, `,"data":`...), data); err == nil {
			b = d
		}
	}
	return append(b, "}}\n"...)
}

// appendNotification appends a notification line.
func appendNotification(b []byte, method string, params any) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0","method":`...)
	b = appendString(b, method)
	b = append(b, `,"params":`...)
	b, err := jsonwire.Append(b, params)
	if err != nil {
		return nil, err
	}
	return append(b, "}\n"...), nil
}

// appendCallResult appends a tools/call response line for res. It writes
// the result itself rather than through encoding/json, so that a large text
// is escaped once, straight into the line, and never re-scanned. It
// writes what encoding/json writes for res, with the two departures
// [CallToolResult] documents: a nil Content as [], and no
// structuredContent in an error result.
func appendCallResult(b []byte, id json.RawMessage, res *CallToolResult) ([]byte, error) {
	return appendCallResultEra(b, id, res, nil)
}

// appendCallResultEra is appendCallResult for either era: with serverInfo
// (the encoded io.modelcontextprotocol/serverInfo object) it writes the
// result of MCP 2026-07-28, which starts with "resultType":"complete" and
// carries serverInfo in its _meta; without, the legacy result, byte for
// byte as before.
func appendCallResultEra(b []byte, id json.RawMessage, res *CallToolResult, serverInfo []byte) ([]byte, error) {
	if b == nil {
		b = make([]byte, 0, estimateCallResult(id, res))
	}
	l := line{frame: b}
	if err := l.addCallResult(id, res, serverInfo, 0); err != nil {
		return nil, err
	}
	return l.frame, nil
}

// encodeCallResult returns the response line of a tools/call: whole, in
// its frame, when it is small; otherwise in pieces (line.go), its texts,
// images and sounds of [partMin] bytes or more, and a long
// structuredContent of its own encoding, left in the result until the
// line is written.
func encodeCallResult(frames *framePool, id json.RawMessage, res *CallToolResult, serverInfo []byte) (line, error) {
	size := estimateCallResult(id, res)
	minPart := 0
	if size > splitAbove {
		size, minPart = 512+len(id)+len(serverInfo), partMin
	}
	l := line{frame: frames.get(size)}
	if err := l.addCallResult(id, res, serverInfo, minPart); err != nil {
		return line{}, err
	}
	return l, nil
}

// estimateCallResult returns about how long the response line of res is,
// to size its buffer in one allocation for the usual case: text escapes
// little, and base64 adds a third. A line break takes two bytes: a short
// text of short lines, such as a listing, has more of them than a
// sixteenth of its length, and the count costs less than growing the line
// (a long text of lines that short is rare).
func estimateCallResult(id json.RawMessage, res *CallToolResult) int {
	size := 128 + len(id)
	for _, c := range res.Content {
		escapes := len(c.text) / 16
		if len(c.text) <= 64<<10 {
			escapes = max(escapes, strings.Count(c.text, "\n"))
		}
		size += len(c.text) + escapes + len(c.data)*4/3 + 64
	}
	if raw, ok := res.StructuredContent.(json.RawMessage); ok {
		size += len(raw)
	}
	return size
}

// addCallResult appends the response line of res to the frame, with the
// values of minPart bytes or more as parts (none when minPart is 0).
func (l *line) addCallResult(id json.RawMessage, res *CallToolResult, serverInfo []byte, minPart int) error {
	b := l.frame
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":{`...)
	if serverInfo != nil {
		b = append(b, `"resultType":"complete",`...)
	}
	b = append(b, `"content":[`...)
	l.frame = b
	for i, c := range res.Content {
		if i > 0 {
			l.frame = append(l.frame, ',')
		}
		if err := c.addTo(l, minPart); err != nil {
			return err
		}
	}
	l.frame = append(l.frame, ']')
	if res.StructuredContent != nil && !res.IsError {
		l.frame = append(l.frame, `,"structuredContent":`...)
		var err error
		if raw, ok := res.StructuredContent.(json.RawMessage); ok && res.encoded {
			l.addRaw(raw, minPart)
		} else if ok {
			l.frame, err = jsonwire.AppendRaw(l.frame, raw)
		} else {
			l.frame, err = jsonwire.Append(l.frame, res.StructuredContent)
		}
		if err != nil {
			return err
		}
	}
	b = l.frame
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	if len(res.Meta) > 0 {
		b = append(b, `,"_meta":`...)
		var err error
		if b, err = jsonwire.Append(b, res.Meta); err != nil {
			return err
		}
		if serverInfo != nil {
			b = appendServerInfo(b[:len(b)-1], serverInfo, true) // into the object just written
			b = append(b, '}')
		}
	} else if serverInfo != nil {
		b = append(b, `,"_meta":{`...)
		b = appendServerInfo(b, serverInfo, false)
		b = append(b, '}')
	}
	l.frame = append(b, "}}\n"...)
	return nil
}

// metaServerInfo is the _meta key of the server's identity in every
// result of MCP 2026-07-28.
const metaServerInfo = "io.modelcontextprotocol/serverInfo"

// appendServerInfo appends the serverInfo member of a _meta object, after
// a comma when it follows other members.
func appendServerInfo(b, serverInfo []byte, comma bool) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, `"`+metaServerInfo+`":`...)
	return append(b, serverInfo...)
}

// appendString appends s as a JSON string. Like encoding/json it replaces
// invalid UTF-8 with U+FFFD and escapes U+2028 and U+2029; unlike it, it
// leaves <, > and & alone, since nothing here ends up in HTML.
func appendString(b []byte, s string) []byte { return jsonwire.AppendString(b, s, false) }
