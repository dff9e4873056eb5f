package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/stdiotools/toolserver/internal/jsontext"
)

// This file writes the JSON-RPC messages the server sends. Each message is
// built in one buffer and written with one call, so the body of a large
// result is encoded once, straight into the output line.

// appendResult appends a success response line whose result is the
// JSON encoding of v, with HTML characters left unescaped.
func appendResult(b []byte, id json.RawMessage, v any) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b = buf.Bytes()
	b = b[:len(b)-1] // Encode ends with a newline
	return append(b, "}\n"...), nil
}

// appendRawResult appends a success response line with an already encoded
// result.
func appendRawResult(b []byte, id json.RawMessage, result []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, "}\n"...)
}

// appendError appends an error response line. A nil id is left out, as
// MCP 2025-11-25 prescribes when the request's id could not be read.
func appendError(b []byte, id json.RawMessage, code int64, msg string, data any) []byte {
	b = append(b, `{"jsonrpc":"2.0",`...)
	if id != nil {
		b = append(b, `"id":`...)
		b = append(b, id...)
		b = append(b, ',')
	}
	b = append(b, `"error":{"code":`...)
	b = strconv.AppendInt(b, code, 10)
	b = append(b, `,"message":`...)
	b = appendString(b, msg)
	if data != nil {
		if d, err := marshalNoEscape(data); err == nil {
			b = append(b, `,"data":`...)
			b = append(b, d...)
		}
	}
	return append(b, "}}\n"...)
}

// appendNotification appends a notification line.
func appendNotification(b []byte, method string, params any) ([]byte, error) {
	p, err := marshalNoEscape(params)
	if err != nil {
		return nil, err
	}
	b = append(b, `{"jsonrpc":"2.0","method":`...)
	b = appendString(b, method)
	b = append(b, `,"params":`...)
	b = append(b, p...)
	return append(b, "}\n"...), nil
}

// marshalNoEscape is json.Marshal without HTML escaping. It takes
// json.Marshal's output (one allocation; an Encoder costs three) and turns
// the escapes of <, > and & back into the characters, in place, when
// there are any.
func marshalNoEscape(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || !bytes.Contains(b, []byte(`\u00`)) {
		return b, err
	}
	return unescapeHTML(b), nil
}

// unescapeHTML replaces the escapes \u003c, \u003e and \u0026 that
// json.Marshal writes for <, > and &, in place. Escapes are read in
// pairs, so a literal backslash followed by "u003c" (written \\u003c)
// is left alone.
func unescapeHTML(b []byte) []byte {
	w := 0
	for r := 0; r < len(b); {
		c := b[r]
		if c != '\\' || r+1 >= len(b) {
			b[w] = c
			w, r = w+1, r+1
			continue
		}
		if b[r+1] == 'u' && r+6 <= len(b) && string(b[r+2:r+4]) == "00" {
			switch string(b[r+4 : r+6]) {
			case "3c":
				b[w], w, r = '<', w+1, r+6
				continue
			case "3e":
				b[w], w, r = '>', w+1, r+6
				continue
			case "26":
				b[w], w, r = '&', w+1, r+6
				continue
			}
		}
		b[w], b[w+1] = c, b[r+1]
		w, r = w+2, r+2
	}
	return b[:w]
}

// appendCallResult appends a tools/call response line for res. It writes
// the result itself rather than through encoding/json, so that a large text
// is escaped once, straight into the line, and never re-scanned.
func appendCallResult(b []byte, id json.RawMessage, res *CallToolResult) ([]byte, error) {
	if b == nil {
		// One allocation for the usual case: text escapes little, and
		// base64 adds a third.
		size := 128 + len(id)
		for _, c := range res.Content {
			size += len(c.text) + len(c.text)/16 + len(c.data)*4/3 + 64
		}
		if raw, ok := res.StructuredContent.(json.RawMessage); ok {
			size += len(raw)
		}
		b = make([]byte, 0, size)
	}
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":{"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = c.appendJSON(b); err != nil {
			return nil, err
		}
	}
	b = append(b, ']')
	if res.StructuredContent != nil && !res.IsError {
		b = append(b, `,"structuredContent":`...)
		if raw, ok := res.StructuredContent.(json.RawMessage); ok {
			if !json.Valid(raw) {
				return nil, errors.New("structuredContent is not valid JSON")
			}
			b = append(b, raw...)
		} else {
			sc, err := marshalNoEscape(res.StructuredContent)
			if err != nil {
				return nil, err
			}
			b = append(b, sc...)
		}
	}
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	if res.Meta != nil {
		m, err := marshalNoEscape(res.Meta)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"_meta":`...)
		b = append(b, m...)
	}
	return append(b, "}}\n"...), nil
}

// appendString appends s as a JSON string. Like encoding/json it replaces
// invalid UTF-8 with U+FFFD and escapes U+2028 and U+2029; unlike it, it
// leaves <, > and & alone, since nothing here ends up in HTML.
func appendString(b []byte, s string) []byte { return jsontext.AppendString(b, s, false) }
