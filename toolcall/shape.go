package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// verdict is what classify makes of one JSON object.
type verdict int

const (
	notCall verdict = iota // data, not a call: it stays in the text
	isCall                 // a usable call
	badCall                // shaped like a call, but unusable: retry
)

// classify decides whether the JSON object raw, found at byte at of the
// text, is a tool call. The shapes are
//
//	{"name": "f", "arguments": {...}}     also "tool" or "function" for the
//	                                      name, and "args", "parameters" or
//	                                      "input" for the arguments
//	{"function": {"name": "f", "arguments": ...}, "type": "function", "id": ...}
//
// Arguments may be an object, a string holding an object (as OpenAI sends
// them), or absent or null, meaning {}. Other members are ignored, except
// that an object with no arguments member must have nothing but the name,
// "id", "type", "call_id" and "index", and a name that could be a tool's
// (letters, digits, '_', '-', '.'): {"name": "Alice", "age": 30} is data.
// Tool definitions ("description" with "parameters", or an "inputSchema")
// are data too. A call with an empty name, or with arguments that are not
// an object, is badCall, with the reason.
func classify(raw []byte, at int) (Call, verdict, string) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return Call{}, notCall, ""
	}
	wrapped := false
	if f := obj["function"]; len(f) > 0 && f[0] == '{' {
		var inner map[string]json.RawMessage
		if json.Unmarshal(f, &inner) != nil || inner["name"] == nil {
			return Call{}, notCall, ""
		}
		obj, wrapped = inner, true
	}
	nameKey, name, ok := callName(obj)
	if !ok {
		return Call{}, notCall, ""
	}
	argsKey := ""
	for _, k := range [...]string{"arguments", "args", "parameters", "input"} {
		if _, ok := obj[k]; ok {
			argsKey = k
			break
		}
	}
	if isDefinition(obj, argsKey) {
		return Call{}, notCall, ""
	}
	if argsKey == "" && !wrapped && (!onlyCallMembers(obj, nameKey) || !isToolName(name)) {
		return Call{}, notCall, ""
	}
	if name == "" {
		if argsKey == "" {
			return Call{}, notCall, ""
		}
		return Call{}, badCall, fmt.Sprintf("the call at byte %d has an empty tool name", at)
	}
	args, what := normalizeArgs(obj[argsKey])
	if what != "" {
		return Call{}, badCall, fmt.Sprintf("the call to %q at byte %d has arguments that are %s, not a JSON object", name, at, what)
	}
	return Call{Name: name, Arguments: args}, isCall, ""
}

// callName returns the first of the members "name", "tool" and "function"
// that obj has, and its text; ok is false if there is none or it is not a
// string.
func callName(obj map[string]json.RawMessage) (key, name string, ok bool) {
	for _, k := range [...]string{"name", "tool", "function"} {
		v, found := obj[k]
		if !found {
			continue
		}
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &name) != nil {
			return k, "", false
		}
		return k, name, true
	}
	return "", "", false
}

// isDefinition reports whether obj describes a tool rather than calls one.
func isDefinition(obj map[string]json.RawMessage, argsKey string) bool {
	if _, ok := obj["inputSchema"]; ok {
		return true
	}
	if _, ok := obj["input_schema"]; ok {
		return true
	}
	_, described := obj["description"]
	return described && (argsKey == "" || argsKey == "parameters")
}

// onlyCallMembers reports whether obj has no members besides its name and
// the bookkeeping members of call formats.
func onlyCallMembers(obj map[string]json.RawMessage, nameKey string) bool {
	for k := range obj {
		switch k {
		case nameKey, "id", "type", "call_id", "index":
		default:
			return false
		}
	}
	return true
}

// isToolName reports whether s could name a tool: 1 to 128 ASCII letters,
// digits, '_', '-' or '.', as MCP allows.
func isToolName(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLangByte(c) || c == '+' {
			return false
		}
	}
	return true
}

// normalizeArgs returns a call's arguments as a compact JSON object, numbers
// kept digit for digit. An absent or null value, or a string of only
// spaces, is {}; a string holding a JSON object is decoded. Otherwise it
// returns a phrase saying what the value is.
func normalizeArgs(raw json.RawMessage) (json.RawMessage, string) {
	v := bytes.TrimSpace(raw)
	if len(v) == 0 || string(v) == "null" {
		return json.RawMessage("{}"), ""
	}
	switch v[0] {
	case '{':
		return compact(v), ""
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, "a string that cannot be decoded"
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return json.RawMessage("{}"), ""
		}
		if s[0] == '{' && json.Valid([]byte(s)) {
			return compact([]byte(s)), ""
		}
		return nil, "a JSON string that does not hold a JSON object"
	case '[':
		return nil, "a JSON array"
	case 't', 'f':
		return nil, "a boolean"
	}
	return nil, "a number"
}

// compact returns valid JSON v without insignificant spaces, in new memory.
func compact(v []byte) json.RawMessage {
	var b bytes.Buffer
	b.Grow(len(v))
	if json.Compact(&b, v) != nil {
		return append(json.RawMessage(nil), v...)
	}
	return b.Bytes()
}

// unwrapCalls reads an object that is not a call but holds a list of them
// under "tool_calls", as an OpenAI assistant message written out as text
// does ({"role": "assistant", "tool_calls": [...]}). The verdict is isCall
// when every element is a call, badCall (with the calls before it) when
// one is unusable, and notCall otherwise.
func unwrapCalls(raw []byte, at int) ([]Call, verdict, string) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil, notCall, ""
	}
	var elems []json.RawMessage
	if json.Unmarshal(obj["tool_calls"], &elems) != nil || len(elems) == 0 {
		return nil, notCall, ""
	}
	calls := make([]Call, 0, len(elems))
	for _, e := range elems {
		c, v, why := classify(e, at)
		switch v {
		case notCall:
			return nil, notCall, ""
		case badCall:
			return calls, badCall, why
		}
		calls = append(calls, c)
	}
	return calls, isCall, ""
}
