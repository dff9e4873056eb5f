package server

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// This file holds the hand-written writers (wire.go, Content in result.go,
// appendTool in registry.go) to encoding/json, byte for byte: each fuzz
// target builds a value of the documented type from fuzzed parts and
// compares what the writer writes with what a json.Encoder with
// SetEscapeHTML(false) writes for that value. The JSON-RPC envelopes and
// MCP's content blocks, which have no Go type here, are mirrored as plain
// structs, so that encoding/json, not the code under test, decides every
// byte. Each target's comment names a bug planted to see it fail.

// encodingJSON is what encoding/json writes for v without HTML escaping.
// It sets up its own Encoder rather than calling jsonwire, so that the
// writers and the reference share nothing but encoding/json.
func encodingJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// rpcResult, rpcError and rpcNotification are JSON-RPC 2.0's messages.
type rpcResult struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
}

type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Error   rpcErrorObject  `json:"error"`
}

type rpcErrorObject struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type rpcNotification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// textBlock is MCP's TextContent; mediaBlock its ImageContent and
// AudioContent: the members this server sends, all of them required.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type mediaBlock struct {
	Type     string `json:"type"`
	Data     []byte `json:"data"` // encoding/json writes standard base64, as MCP wants
	MIMEType string `json:"mimeType"`
}

// mirrorBlock returns c as the plain struct MCP documents, so that the
// blocks are not checked against Content.MarshalJSON, which is the writer.
func mirrorBlock(c Content) any {
	if c.Type() == "text" {
		return textBlock{Type: "text", Text: c.Text()}
	}
	data := c.Data()
	if data == nil {
		data = []byte{} // "data" is a string: empty, not null
	}
	return mediaBlock{Type: c.Type(), Data: data, MIMEType: c.MIMEType()}
}

// mirroredResult is a CallToolResult with its blocks mirrored: the outer
// Content comes first and hides the embedded one; every other member is
// CallToolResult's own, with its tags.
type mirroredResult struct {
	Content []any `json:"content"`
	CallToolResult
}

// fuzzID returns a request id built from fuzzed parts: a number, a
// string, raw text as a client might have written it (when s is compact
// JSON), no id (nil) or an empty one.
func fuzzID(kind uint8, n int64, s string) json.RawMessage {
	switch kind % 5 {
	case 0:
		return strconv.AppendInt(nil, n, 10)
	case 1:
		b, _ := encodingJSON(s)
		return b
	case 2:
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(s)) == nil && buf.String() == s {
			return json.RawMessage(s)
		}
		return json.RawMessage(`"` + strconv.Itoa(len(s)) + `"`)
	case 3:
		return nil
	default:
		return json.RawMessage{}
	}
}

// sameLine fails unless the writer's line is encoding/json's text and a
// newline, or both failed.
func sameLine(t *testing.T, what string, got []byte, err error, want []byte, wantErr error) {
	t.Helper()
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: error %v, encoding/json's %v\ngot  %s\nwant %s", what, err, wantErr, got, want)
	}
	if err == nil && !bytes.Equal(got, append(want, '\n')) {
		t.Fatalf("%s:\ngot  %q\nwant %q", what, got, append(want, '\n'))
	}
}

// FuzzAppendCallResult checks appendCallResult against encoding/json of
// the whole response, {"jsonrpc":"2.0","id":…,"result":…}, with the
// result a CallToolResult of fuzzed blocks (text, image, audio),
// structuredContent (raw JSON text, valid or not, compact or not; a map;
// a struct), isError and _meta. The two departures CallToolResult
// documents are applied to the reference: a nil Content is [], and an
// error result has no structuredContent.
//
// sel picks the parts: 1 a text block, 2 an image block (4: audio
// instead), 8 a second text block, 16 an empty rather than nil Content,
// 32 isError, bits 6-7 the structuredContent (none, raw, map, struct),
// bits 8-9 the _meta (none, empty, one string, nested).
//
// Caught on the seeds: U+2028 left unescaped in jsonwire.AppendString,
// the blocks' "data" and "mimeType" swapped, isError written after
// _meta; and the two bugs the target found in the writer: raw
// structuredContent copied without compacting (a line break in it split
// the response line), and an empty _meta written as {} where
// encoding/json leaves it out.
func FuzzAppendCallResult(f *testing.F) {
	f.Add(uint16(1|2|8|1<<6|2<<8), uint8(0), int64(7), "<a href=\"x\">&amp;</a>\u2028\u2029", "second \xff\x00\x1f \"q\" \\", "image/png", "k<", "v>&",
		[]byte{0, 1, 2, 0xfb, 0xff}, []byte(`{"a":"<b>\u003c","n":[1,2.5e3,null]}`))
	f.Add(uint16(1<<6), uint8(1), int64(-1), "", "id \u2028", "", "", "",
		[]byte(nil), []byte("{ \"a\" :\n [1, \"<\u2028>\"] }\t"))
	f.Add(uint16(1|1<<8), uint8(0), int64(2), "empty _meta", "", "", "", "",
		[]byte(nil), []byte(nil))
	f.Add(uint16(1|2|4|32|2<<6|3<<8), uint8(2), int64(math.MaxInt64), "\t\n\r\b\f\x7f", `"x"`, "audio/wav; q=<1>", "\xed\xa0\x80", "é",
		[]byte("RIFF"), []byte(`"structured"`))
	f.Add(uint16(16|3<<6), uint8(0), int64(0), "plain", "", "", "path", "",
		[]byte{}, []byte(`{}`))
	f.Add(uint16(1|1<<6), uint8(0), int64(1), "invalid raw", "", "", "", "",
		[]byte(nil), []byte(`{"a":`))
	f.Fuzz(func(t *testing.T, sel uint16, idKind uint8, n int64, text, text2, mime, key, val string, data, raw []byte) {
		id := fuzzID(idKind%3, n, text2) // a call has an id
		var content []Content
		if sel&1 != 0 {
			content = append(content, TextContent(text))
		}
		if sel&2 != 0 {
			if sel&4 != 0 {
				content = append(content, AudioContent(data, mime))
			} else {
				content = append(content, ImageContent(data, mime))
			}
		}
		if sel&8 != 0 {
			content = append(content, TextContent(text2))
		}
		if sel&16 != 0 && content == nil {
			content = []Content{}
		}
		res := &CallToolResult{Content: content, IsError: sel&32 != 0}
		switch sel >> 6 & 3 {
		case 1:
			res.StructuredContent = json.RawMessage(raw)
		case 2:
			res.StructuredContent = map[string]any{key: val, "n": n, "list": []any{text, data, nil, true}}
		case 3:
			res.StructuredContent = struct {
				Path  string `json:"path"`
				Size  int64  `json:"size,omitempty"`
				Bytes []byte `json:"bytes,omitempty"`
			}{key, n, data}
		}
		switch sel >> 8 & 3 {
		case 1:
			res.Meta = map[string]any{}
		case 2:
			res.Meta = map[string]any{key: val}
		case 3:
			res.Meta = map[string]any{key: val, MetaExecution: map[string]any{"attempts": n, "ms": 12},
				MetaProblems: []map[string]string{{"path": text, "message": text2}}}
		}

		got, err := appendCallResult(nil, id, res)

		want := mirroredResult{Content: make([]any, 0, len(content)), CallToolResult: *res}
		for _, c := range content {
			want.Content = append(want.Content, mirrorBlock(c))
		}
		if want.IsError {
			want.StructuredContent = nil
		}
		ref, refErr := encodingJSON(rpcResult{JSONRPC: "2.0", ID: id, Result: want})
		sameLine(t, "appendCallResult", got, err, ref, refErr)

		// Appended to bytes already there, the same line follows them.
		if err == nil {
			prefix := []byte("prefix")
			if got2, _ := appendCallResult(prefix[:len(prefix):len(prefix)], id, res); !bytes.Equal(got2, append(prefix, got...)) {
				t.Fatalf("after a prefix:\ngot  %q\nwant %q", got2, append(prefix, got...))
			}
		}
	})
}

// FuzzAppendTool checks appendTool against encoding/json of the Tool,
// with fuzzed name, title, description and annotation title, each hint
// pointer nil, true or false, and schemas from fuzzed JSON text. appendTool
// copies the schemas as they are, so they are given as add leaves them:
// valid and compact (schemagen writes them so; add checks they are valid),
// an input schema always, an output schema or none.
//
// hints: 1 readOnlyHint, 2 openWorldHint, bits 2-3 destructiveHint and
// bits 4-5 idempotentHint (nil, true, false).
//
// Caught on the seeds: "title" written after "description", the
// annotations' title left in when empty, a nil destructiveHint written
// as false.
func FuzzAppendTool(f *testing.F) {
	f.Add("calc", "Calculator <exact>", "Adds & subtracts.\nU+2028: \u2028", "", uint8(1), []byte(`{"type":"object"}`), []byte(nil))
	f.Add("write_file", "", "\xff\x01\"", "Write \"it\" & go", uint8(2|1<<2|2<<4), []byte("{ \"type\": \"object\",\n \"properties\": {} }"), []byte(`{"type":"object","required":["a<b"]}`))
	f.Add("x", "t", "", "\u2029", uint8(3|2<<2|1<<4), []byte(`true`), []byte(`{"a":`))
	f.Fuzz(func(t *testing.T, name, title, desc, annTitle string, hints uint8, in, out []byte) {
		compact := func(raw []byte) json.RawMessage {
			var buf bytes.Buffer
			if json.Compact(&buf, raw) != nil {
				return nil
			}
			return buf.Bytes()
		}
		hint := func(v uint8) *bool {
			switch v & 3 {
			case 1:
				return new(true)
			case 2:
				return new(false)
			}
			return nil
		}
		tl := Tool{Name: name, Title: title, Description: desc, InputSchema: compact(in), OutputSchema: compact(out),
			Annotations: ToolAnnotations{Title: annTitle, ReadOnlyHint: hints&1 != 0, OpenWorldHint: hints&2 != 0,
				DestructiveHint: hint(hints >> 2), IdempotentHint: hint(hints >> 4)}}
		if tl.InputSchema == nil {
			tl.InputSchema = json.RawMessage(`{"type":"object"}`) // as add supplies it
		}
		want, err := encodingJSON(tl)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendTool(nil, &tl); !bytes.Equal(got, want) {
			t.Fatalf("appendTool:\ngot  %q\nwant %q", got, want)
		}
	})
}

// FuzzAppendError checks appendError against encoding/json of a JSON-RPC
// error response with a fuzzed id (a number, a string, raw text, none,
// empty), code, message and data (none, a string, a map holding a float
// that may be NaN, a list, raw text that may be invalid). Data that
// encoding/json cannot encode is left out of the reference too, as
// appendError documents.
//
// Caught on the seeds: the message's <, > and & escaped (AppendString
// with html set), "code" written after "message"; and what the target
// found in the writer: an empty, non-nil id written as "id":, (invalid
// JSON) where encoding/json leaves it out, and raw data's \u003c turned
// into < (the former json.Marshal-then-unescape way; an Encoder keeps it).
func FuzzAppendError(f *testing.F) {
	f.Add(uint8(0), int64(3), "s", int64(-32602), "Invalid params: <x> & \u2028", uint8(1), 1.5)
	f.Add(uint8(1), int64(0), "\"id\" <", int64(-32700), "Parse error \xff", uint8(2), math.NaN())
	f.Add(uint8(2), int64(0), `"\u003c"`, int64(1), "", uint8(4), 0.0)
	f.Add(uint8(3), int64(0), "{", int64(math.MinInt64), "no id", uint8(4), 0.0)
	f.Add(uint8(4), int64(0), "", int64(0), "empty id", uint8(3), math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, idKind uint8, n int64, s string, code int64, msg string, dataKind uint8, x float64) {
		id := fuzzID(idKind, n, s)
		var data any
		switch dataKind % 5 {
		case 1:
			data = s
		case 2:
			data = map[string]any{s: msg, "x": x}
		case 3:
			data = []string{msg, s}
		case 4:
			data = json.RawMessage(s)
		}
		got := appendError(nil, id, code, msg, data)

		want := rpcError{JSONRPC: "2.0", ID: id, Error: rpcErrorObject{Code: code, Message: msg, Data: data}}
		if _, err := encodingJSON(data); err != nil {
			want.Error.Data = nil
		}
		ref, err := encodingJSON(want)
		sameLine(t, "appendError", got, nil, ref, err)
	})
}

// FuzzAppendNotification checks appendNotification against encoding/json
// of a JSON-RPC notification, with a fuzzed method and the params the
// server sends (notifications/message, notifications/progress with a
// token as the client wrote it and numbers that may be NaN), none, or a
// map. Failures must agree with encoding/json's.
//
// Caught on the seeds: "params" written before "method", the method's
// invalid UTF-8 copied as it is.
func FuzzAppendNotification(f *testing.F) {
	f.Add("notifications/message", uint8(0), "warning", "tool <calc>", []byte(`"tok"`), 0.5, 1.0)
	f.Add("notifications/progress\xff", uint8(1), "", "half & half \u2028", []byte(`17`), 1.0, 2.0)
	f.Add("m", uint8(1), "", "", []byte(` "spaced" `), math.Inf(1), 0.0)
	f.Add("m", uint8(1), "", "", []byte(`{`), 0.0, 0.0)
	f.Add("", uint8(2), "", "", []byte(nil), 0.0, 0.0)
	f.Add("x", uint8(3), "<k>", "&v", []byte(nil), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, method string, kind uint8, a, s string, token []byte, progress, total float64) {
		var params any
		switch kind % 4 {
		case 0:
			params = messageParams{Level: a, Logger: s, Data: map[string]any{"event": s, a: progress}}
		case 1:
			params = progressParams{ProgressToken: token, Progress: progress, Total: total, Message: s}
		case 3:
			params = map[string]string{a: s}
		}
		got, err := appendNotification(nil, method, params)
		ref, refErr := encodingJSON(rpcNotification{JSONRPC: "2.0", Method: method, Params: params})
		sameLine(t, "appendNotification", got, err, ref, refErr)
	})
}

// FuzzAppendResult checks appendResult, and appendRawResult given
// encoding/json's text of the result, against encoding/json of a JSON-RPC
// success response with a fuzzed id and an initialize result of fuzzed
// strings.
//
// Caught on the seeds: the id written before "jsonrpc", the newline left
// out of appendRawResult.
func FuzzAppendResult(f *testing.F) {
	f.Add(uint8(0), int64(1), "toolserver", "Tools <for> you & me", "1.0\u2028")
	f.Add(uint8(1), int64(0), "\xff", "", "")
	f.Add(uint8(2), int64(0), `"\u0026"`, "x", "")
	f.Fuzz(func(t *testing.T, idKind uint8, n int64, name, instructions, version string) {
		id := fuzzID(idKind%3, n, name)
		v := initializeResult{ProtocolVersion: version, Capabilities: map[string]any{"tools": map[string]any{}, name: version},
			ServerInfo: serverInfo{Name: name, Version: version}, Instructions: instructions}
		got, err := appendResult(nil, id, v)
		ref, refErr := encodingJSON(rpcResult{JSONRPC: "2.0", ID: id, Result: v})
		sameLine(t, "appendResult", got, err, ref, refErr)
		result, _ := encodingJSON(v)
		sameLine(t, "appendRawResult", appendRawResult(nil, id, result), nil, ref, refErr)
	})
}

// FuzzAppendToolsPage holds a tools/list page to encoding/json of
// toolsPage, for pages of zero to three tools with fuzzed names and
// descriptions and any cursor. Planted and caught by the seeds: a comma
// left before the first tool, nextCursor written for the last page.
func FuzzAppendToolsPage(f *testing.F) {
	f.Add(uint8(0), "calc", "Adds <exactly> & more.", "")
	f.Add(uint8(2), "a", "d\u2028", "dG9vbHM6MQ")
	f.Add(uint8(3), "x\xff", "", "c\"ur<sor>")
	f.Fuzz(func(t *testing.T, n uint8, name, desc, next string) {
		var tools []*tool
		var want toolsPage
		want.Tools = []json.RawMessage{}
		for i := range int(n % 4) {
			info := Tool{Name: name + strconv.Itoa(i), Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}
			tl := &tool{info: info, listing: appendTool(nil, &info)}
			tools = append(tools, tl)
			want.Tools = append(want.Tools, tl.listing)
		}
		want.NextCursor = next
		exp, err := encodingJSON(want)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendToolsPage(nil, tools, next); !bytes.Equal(got, exp) {
			t.Fatalf("\n got  %s\n want %s", got, exp)
		}
	})
}
