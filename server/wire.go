package server

import (
	"bytes"
	"encoding/json"
	"strconv"
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

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return b[:len(b)-1], nil
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := marshalNoEscape(s)
	return append(b, q...)
}
