//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// The MCP session opening that toolbench sends, pipelined in one write.
// Ids are integers from 1: initialize is 1, tools/list is 2, calls follow.
const (
	protocolVersion = "2025-11-25"
	initializeLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` +
		protocolVersion + `","capabilities":{},"clientInfo":{"name":"toolbench","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsListLine   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	handshakeLines  = initializeLine + "\n" + initializedLine + "\n" + toolsListLine + "\n"

	idInitialize = 1
	idToolsList  = 2
	firstCallID  = 3
)

// requestFunc appends the request line (newline included) with the given id
// to dst and returns the extended slice.
type requestFunc func(dst []byte, id int64) []byte

// callTemplate builds tools/call request lines for one tool and one set of
// arguments without allocating: the bytes before and after the id are fixed.
type callTemplate struct {
	tool   string
	prefix string
	suffix string
}

// newCallTemplate checks that args is one JSON object and prepares the
// tools/call lines for tool. The arguments are compacted, so the request is
// always exactly one line.
func newCallTemplate(tool, args string) (callTemplate, error) {
	if tool == "" {
		return callTemplate{}, errors.New("empty tool name")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(args)); err != nil {
		return callTemplate{}, fmt.Errorf("arguments %q are not valid JSON: %v", args, err)
	}
	if compact.Len() == 0 || compact.Bytes()[0] != '{' {
		return callTemplate{}, fmt.Errorf("arguments %q are not a JSON object", args)
	}
	name, err := json.Marshal(tool)
	if err != nil {
		return callTemplate{}, err
	}
	return callTemplate{
		tool:   tool,
		prefix: `{"jsonrpc":"2.0","id":`,
		suffix: `,"method":"tools/call","params":{"name":` + string(name) +
			`,"arguments":` + compact.String() + "}}\n",
	}, nil
}

// appendLine is the template's requestFunc.
func (c callTemplate) appendLine(dst []byte, id int64) []byte {
	dst = append(dst, c.prefix...)
	dst = strconv.AppendInt(dst, id, 10)
	return append(dst, c.suffix...)
}

// appendPadLine appends a response-shaped line with the given id that is
// exactly size bytes long before its newline (or as short as such a line can
// be), so that the echo moves as many bytes as the server's big response:
// {"jsonrpc":"2.0","id":N,"result":{"pad":"xxx…"}}.
func appendPadLine(dst []byte, id int64, size int) []byte {
	start := len(dst)
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = strconv.AppendInt(dst, id, 10)
	dst = append(dst, `,"result":{"pad":"`...)
	const end = `"}}`
	if n := size - (len(dst) - start) - len(end); n > 0 {
		at := len(dst)
		dst = append(dst, make([]byte, n)...)
		pad := dst[at:]
		for i := range pad {
			pad[i] = 'x'
		}
	}
	return append(dst, end+"\n"...)
}

// answerID returns the raw id of an answer line. skip is true for a
// notification (a method and no id), which answers nothing; a line that has
// neither id nor method, such as an error response to a request whose id
// the server could not read, is an error.
func answerID(line []byte) (raw []byte, skip bool, err error) {
	if raw, ok := topLevelMember(line, "id"); ok {
		return raw, false, nil
	}
	if _, ok := topLevelMember(line, "method"); ok {
		return nil, true, nil
	}
	return nil, false, fmt.Errorf("answer without id: %s", snippet(line))
}

// topLevelMember returns the raw value of the member key of the JSON object
// in line, without decoding the rest. ok is false when the object has no
// such member or line is not a JSON object. It is cheap enough for the
// reader of the throughput run, where full decoding would steal CPU from the
// target.
func topLevelMember(line []byte, key string) (raw []byte, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != '"' {
			return nil, false
		}
		keyEnd := stringEnd(line, i)
		if keyEnd < 0 {
			return nil, false
		}
		name := line[i+1 : keyEnd-1]
		i = skipSpace(line, keyEnd)
		if i >= len(line) || line[i] != ':' {
			return nil, false
		}
		i = skipSpace(line, i+1)
		valEnd := valueEnd(line, i)
		if valEnd < 0 {
			return nil, false
		}
		if string(name) == key {
			return line[i:valEnd], true
		}
		i = skipSpace(line, valEnd)
		if i >= len(line) || line[i] != ',' {
			return nil, false
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// stringEnd returns the index just past the JSON string that starts with the
// quote at b[i], or -1.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		slashes := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			slashes++
		}
		if slashes%2 == 0 {
			return j + 1
		}
		j++
	}
}

// valueEnd returns the index just past the JSON value that starts at b[i],
// or -1. It checks nesting, not grammar.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && !isSpace(b[j]) {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// parseID decodes a raw JSON id that is a non-negative integer, without
// allocating.
func parseID(raw []byte) (int64, bool) {
	if len(raw) == 0 || len(raw) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// rpcResponse is the part of a JSON-RPC response that toolbench checks.
type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// checkResponse verifies that line is a successful response to request id of
// the given method: a JSON object with that id, no "error" member, a result
// and, for tools/call, no result.isError = true. It returns the result.
func checkResponse(line []byte, id int64, method string) (json.RawMessage, error) {
	var resp rpcResponse
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("response to %s id %d is not a JSON object (%v): %s", method, id, err, snippet(line))
	}
	if got, ok := parseID(bytes.TrimSpace(resp.ID)); !ok || got != id {
		return nil, fmt.Errorf("response to %s id %d carries id %s: %s", method, id, orNone(resp.ID), snippet(line))
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s id %d failed with JSON-RPC error %d: %s", method, id, resp.Error.Code, resp.Error.Message)
	}
	if len(resp.Result) == 0 || string(resp.Result) == "null" {
		hint := ""
		if _, ok := topLevelMember(line, "method"); ok {
			hint = " (that is a request, not a response: an echo? -check=false accepts it)"
		}
		return nil, fmt.Errorf("response to %s id %d has no result%s: %s", method, id, hint, snippet(line))
	}
	if method == "tools/call" {
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			return nil, fmt.Errorf("result of tools/call id %d is not a CallToolResult (%v): %s", id, err, snippet(line))
		}
		if res.IsError {
			msg := ""
			if len(res.Content) > 0 {
				msg = res.Content[0].Text
			}
			return nil, &toolError{id: id, msg: msg}
		}
	}
	return resp.Result, nil
}

// toolError is a tools/call answered with result.isError = true: the tool
// refused or failed, and msg is the first text it gave.
type toolError struct {
	id  int64
	msg string
}

func (e *toolError) Error() string {
	return fmt.Sprintf("tools/call id %d: the tool reported isError: %s", e.id, snippetString(e.msg))
}

// quickCheck verifies, without decoding, that line has a result and no
// error, and that the result is not a tool error (isError true): what
// checkResponse would find wrong with an answer that is large only when
// it succeeds.
func quickCheck(line []byte) error {
	if msg, failed := topLevelMember(line, "error"); failed {
		return fmt.Errorf("JSON-RPC error: %s", snippet(msg))
	}
	result, ok := topLevelMember(line, "result")
	if !ok {
		return fmt.Errorf("response without result: %s", snippet(line))
	}
	if v, ok := topLevelMember(result, "isError"); ok && string(v) == "true" {
		return fmt.Errorf("the tool reported isError: %s", snippet(result))
	}
	return nil
}

// checkID verifies only that line is a JSON object carrying id (-check=false).
func checkID(line []byte, id int64) error {
	raw, ok := topLevelMember(line, "id")
	if !ok {
		return fmt.Errorf("response for id %d has no id: %s", id, snippet(line))
	}
	if got, ok := parseID(raw); !ok || got != id {
		return fmt.Errorf("response for id %d carries id %s: %s", id, raw, snippet(line))
	}
	return nil
}

// toolNames returns the names in a tools/list result.
func toolNames(result json.RawMessage) ([]string, error) {
	var list struct {
		Tools *[]struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(result, &list); err != nil || list.Tools == nil {
		return nil, fmt.Errorf("tools/list result has no tools array: %s", snippet(result))
	}
	names := make([]string, len(*list.Tools))
	for i, t := range *list.Tools {
		names[i] = t.Name
	}
	return names, nil
}

func orNone(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}

// snippet shortens a line for an error message.
func snippet(b []byte) string { return snippetString(string(b)) }

func snippetString(s string) string {
	const limit = 300
	if len(s) > limit {
		return fmt.Sprintf("%s… (%d bytes)", s[:limit], len(s))
	}
	return s
}
