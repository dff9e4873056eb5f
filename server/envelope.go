package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// msgKind tells what an incoming line turned out to be.
type msgKind int

const (
	kindRequest msgKind = iota + 1
	kindNotification
	kindResponse
)

// envelope is one incoming JSON-RPC message after the framing checks.
// Its byte slices point into the line it was parsed from.
type envelope struct {
	kind   msgKind
	id     json.RawMessage // exactly as sent; nil for notifications
	key    string          // id normalized for lookups: "s"+string or "n"+digits
	method string
	params json.RawMessage // nil when absent
	result json.RawMessage
	err    json.RawMessage

	// The members of params that the era and a tools/call are read from,
	// found in the same walk that finds where params ends (nil when
	// absent), so that a long argument is crossed once here rather than
	// once more for each of them.
	name, arguments, meta, inputResponses, requestState json.RawMessage
	// The members of arguments, when it is an object of at most
	// len(args) members: argsRead says so.
	args     [8]member
	nargs    int
	argsRead bool
}

// argMembers returns the members of params.arguments the walk found, or
// nil when it did not keep them.
func (env *envelope) argMembers() []member {
	if !env.argsRead {
		return nil
	}
	return env.args[:env.nargs]
}

// wireError is a JSON-RPC error the stream answers by itself.
type wireError struct {
	code    int64
	message string
	id      json.RawMessage // nil when the id could not be read
	data    json.RawMessage // the error's data, if any
}

func (e *wireError) Error() string { return e.message }

// member is one top-level name/value pair of a JSON object.
type member struct {
	name  string
	value []byte
}

// parseEnvelope checks one line against JSON-RPC 2.0 as MCP uses it. It
// never panics; every refusal comes back as a wireError with a sentence
// that tells the client what to fix.
//
// The line is crossed twice: by utf8.Valid, which passes over ASCII text
// a word at a time, and by the walk that finds the members, which checks
// on the way that the line is one JSON object (see walkObject). Only a
// line that fails is read again, by lineError, to say what is wrong with
// it.
func parseEnvelope(line []byte) (envelope, *wireError) {
	var env envelope
	var top topMembers
	i := jsonwire.SkipSpace(line, 0)
	ok := i < len(line) && line[i] == '{' && utf8.Valid(line)
	if ok {
		var end int
		end, ok = walkObject(line, i, 1, func(name string, v int) (int, bool) { return top.read(&env, line, name, v) })
		ok = ok && jsonwire.SkipSpace(line, end) == len(line)
	}
	if !ok {
		return envelope{}, lineError(line)
	}
	if top.twice != "" {
		return envelope{}, &wireError{code: jsonrpc2.CodeInvalidRequest,
			message: fmt.Sprintf("Invalid Request: member %q appears twice; send it once", top.twice)}
	}
	jsonrpcRaw, idRaw, methodRaw := top.jsonrpc, top.id, top.method

	// Read the id first so that every later refusal can carry it.
	var idErr string
	if idRaw != nil {
		env.key, idErr = idKey(idRaw)
		if idErr == "" {
			env.id = idRaw
		}
	}
	fail := func(msg string) (envelope, *wireError) {
		return envelope{}, &wireError{code: jsonrpc2.CodeInvalidRequest, message: "Invalid Request: " + msg, id: env.id}
	}
	if jsonrpcRaw == nil {
		return fail(`the "jsonrpc" member is missing; add "jsonrpc":"2.0"`)
	}
	if s, ok := viewString(jsonrpcRaw); !ok || s != "2.0" {
		return fail(fmt.Sprintf(`"jsonrpc" must be "2.0", got %s`, shorten(jsonrpcRaw, 24)))
	}
	if idErr != "" {
		return fail(idErr)
	}

	if methodRaw == nil {
		if env.result == nil && env.err == nil {
			return fail(`the "method" member is missing; every request needs a method name`)
		}
		if env.result != nil && env.err != nil {
			return fail(`a response must not carry both "result" and "error"`)
		}
		if env.id == nil {
			return fail(`a response must carry the id of the request it answers`)
		}
		env.kind = kindResponse
		return env, nil
	}
	method, ok := viewString(methodRaw)
	if !ok {
		return fail(fmt.Sprintf(`"method" must be a string, got %s`, jsonKind(methodRaw[0])))
	}
	if env.result != nil || env.err != nil {
		return fail(`a request must not carry "result" or "error"`)
	}
	env.method = method
	if env.params != nil && env.params[0] != '{' {
		if bytes.Equal(env.params, []byte("null")) {
			env.params = nil // treated like absent params, as most SDKs send them
		} else {
			return envelope{}, &wireError{code: jsonrpc2.CodeInvalidParams,
				message: fmt.Sprintf(`Invalid params: "params" must be a JSON object, got %s`, jsonKind(env.params[0])), id: env.id}
		}
	}
	if idRaw == nil {
		env.kind = kindNotification
	} else {
		env.kind = kindRequest
	}
	return env, nil
}

// topMembers are the members of a message the envelope reads, raw, as
// walkObject finds them.
type topMembers struct {
	jsonrpc, id, method []byte
	twice               string // the first member found twice, if any
}

// read records the member name, whose value starts at line[v], and
// returns the index past the value and whether it is valid. params, when
// an object, is walked for its own members; env keeps it, and the result
// and error of a response.
func (top *topMembers) read(env *envelope, line []byte, name string, v int) (int, bool) {
	var end int
	var ok bool
	if name == "params" && v < len(line) && line[v] == '{' {
		end, ok = env.readParams(line, v)
	} else {
		end, ok = jsonwire.ValueEnd(line, v, 1)
	}
	if !ok {
		return end, false
	}
	var slot *[]byte
	switch name {
	case "jsonrpc":
		slot = &top.jsonrpc
	case "id":
		slot = &top.id
	case "method":
		slot = &top.method
	case "params":
		slot = (*[]byte)(&env.params)
	case "result":
		slot = (*[]byte)(&env.result)
	case "error":
		slot = (*[]byte)(&env.err)
	default:
		return end, true // unknown members are ignored, as JSON-RPC allows
	}
	if *slot != nil && top.twice == "" {
		top.twice = name
	}
	*slot = line[v:end]
	return end, true
}

// lineError says why a line that walkObject refused is not a message: it
// is not UTF-8, not JSON, a batch or not an object, checked in that order.
func lineError(line []byte) *wireError {
	if i := invalidUTF8(line); i >= 0 {
		return &wireError{code: jsonrpc2.CodeParseError,
			message: fmt.Sprintf("Parse error: the message is not valid UTF-8 (bad byte at offset %d); send UTF-8 text", i)}
	}
	if !jsonwire.Valid(line) {
		return &wireError{code: jsonrpc2.CodeParseError, message: "Parse error: " + describeJSONError(line)}
	}
	switch first := line[jsonwire.SkipSpace(line, 0)]; first {
	case '[':
		return &wireError{code: jsonrpc2.CodeInvalidRequest,
			message: "Invalid Request: batches are not supported; send one JSON-RPC message per line"}
	default:
		// An object is never refused by walkObject when it is valid.
		return &wireError{code: jsonrpc2.CodeInvalidRequest,
			message: fmt.Sprintf("Invalid Request: a message must be a JSON object, got %s", jsonKind(first))}
	}
}

// walkObject checks the JSON object whose '{' is b[i], nested depth deep
// (1 for a message itself), as jsonwire.Valid checks a text, and
// calls member with the name and the index where the value starts of each
// of its members, in order. member returns the index past the value and
// whether it is valid: it checks the value with jsonwire.ValueEnd, or
// walks it with walkObject one level deeper. walkObject returns the index
// past the object and whether the object is valid. A name shares b's
// bytes unless it has escapes, as viewString says; a value may start at
// len(b), in a text cut short.
func walkObject(b []byte, i, depth int, member func(name string, v int) (int, bool)) (int, bool) {
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		end, ok := jsonwire.ValueEnd(b, i, depth)
		if !ok {
			return end, false
		}
		name, _ := viewString(b[i:end])
		if i = jsonwire.SkipSpace(b, end); i >= len(b) || b[i] != ':' {
			return i, false
		}
		if i, ok = member(name, jsonwire.SkipSpace(b, i+1)); !ok {
			return i, false
		}
		if i = jsonwire.SkipSpace(b, i); i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i = jsonwire.SkipSpace(b, i+1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// idKey checks a raw id and returns its lookup key, or a sentence saying
// why it is not acceptable. Ids are strings or non-negative integers
// written without fraction or exponent; integers of any size are kept as
// written.
func idKey(raw []byte) (key string, problem string) {
	const rule = "; use a string or a non-negative integer"
	switch c := raw[0]; {
	case c == '"':
		s, _ := decodeString(raw)
		return "s" + s, ""
	case c == '-':
		return "", `"id" must not be negative, got ` + shorten(raw, 24) + rule
	case c >= '0' && c <= '9':
		for _, d := range raw {
			if d < '0' || d > '9' {
				return "", `"id" must be an integer without fraction or exponent, got ` + shorten(raw, 24) + rule
			}
		}
		return "n" + string(raw), ""
	case c == 'n':
		return "", `"id" must not be null` + rule
	default:
		return "", `"id" must not be ` + jsonKind(c) + rule
	}
}

// jsonKind names the JSON type that starts with byte c.
func jsonKind(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	default:
		return "a number"
	}
}

// decodeString decodes a raw JSON value that must be a string.
func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	return jsonwire.Unquote(raw)
}

// viewString is decodeString for a string that is only looked at while
// raw lives: without escapes, the usual case, the string shares raw's
// bytes instead of copying them. raw must never change afterwards, which
// holds for a message line: each is read into bytes of its own.
func viewString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return decodeString(raw)
	}
	if len(raw) == 2 {
		return "", true
	}
	return unsafe.String(&raw[1], len(raw)-2), true
}

// shorten returns raw as text of at most n runes, marking a cut with "…".
func shorten(raw []byte, n int) string {
	// Only the first n runes are walked: raw may be a 50 MB argument.
	cut, i := 0, 0
	for count := 0; i < len(raw); count++ {
		if count == n {
			return string(raw[:cut]) + "…"
		}
		if count == n-1 {
			cut = i
		}
		_, size := utf8.DecodeRune(raw[i:])
		i += size
	}
	return string(raw)
}

// invalidUTF8 returns the offset of the first byte that is not valid
// UTF-8, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// describeJSONError turns the decoder's complaint about invalid JSON into
// a sentence with the byte offset where it went wrong.
func describeJSONError(line []byte) string {
	var v any
	err := json.Unmarshal(line, &v)
	var syn *json.SyntaxError
	switch {
	case err == nil:
		return "the message is not valid JSON"
	case asSyntaxError(err, &syn) && syn.Offset >= int64(len(line)):
		return fmt.Sprintf("the message is not valid JSON (it ends after %d bytes, before the value is complete)", len(line))
	case asSyntaxError(err, &syn):
		return fmt.Sprintf("the message is not valid JSON (byte offset %d: %s)", syn.Offset, trimJSONPrefix(syn.Error()))
	default:
		return "the message is not valid JSON (it ends before the value is complete)"
	}
}

func asSyntaxError(err error, target **json.SyntaxError) bool {
	s, ok := err.(*json.SyntaxError)
	if ok {
		*target = s
	}
	return ok
}

// trimJSONPrefix drops the Go-specific "json: " lead-in of decoder errors.
func trimJSONPrefix(s string) string {
	const p = "json: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// readParams walks the params object whose '{' is b[i], keeping the
// members readParam keeps, and returns the index past it and whether it
// is valid.
func (env *envelope) readParams(b []byte, i int) (int, bool) {
	return walkObject(b, i, 2, func(name string, v int) (int, bool) { return env.readParam(b, name, v) })
}

// readParam records the member name of params, whose value starts at
// b[v], if it is one the era and a tools/call are read from, and returns
// the index past the value and whether it is valid. As with
// encoding/json, a name given twice means its last value.
func (env *envelope) readParam(b []byte, name string, v int) (int, bool) {
	var end int
	var ok bool
	switch {
	case name == "arguments" && v < len(b) && b[v] == '{':
		env.nargs, env.argsRead = 0, true
		end, ok = walkObject(b, v, 3, func(name string, v int) (int, bool) { return env.readArgument(b, name, v) })
	case name == "arguments":
		// Given again, and not an object: the members of the first are
		// not those of the arguments.
		env.nargs, env.argsRead = 0, false
		fallthrough
	default:
		end, ok = jsonwire.ValueEnd(b, v, 2)
	}
	if !ok {
		return end, false
	}
	var slot *json.RawMessage
	switch name {
	case "name":
		slot = &env.name
	case "arguments":
		slot = &env.arguments
	case "_meta":
		slot = &env.meta
	case "inputResponses":
		slot = &env.inputResponses
	case "requestState":
		slot = &env.requestState
	default:
		return end, true
	}
	*slot = b[v:end]
	return end, true
}

// readArgument keeps the member name of arguments, whose value starts at
// b[v], while there are few enough, and returns the index past the value
// and whether it is valid.
func (env *envelope) readArgument(b []byte, name string, v int) (int, bool) {
	end, ok := jsonwire.ValueEnd(b, v, 3)
	if !ok {
		return end, false
	}
	if env.nargs == len(env.args) {
		env.argsRead = false
		return end, true
	}
	env.args[env.nargs] = member{name: name, value: b[v:end]}
	env.nargs++
	return end, true
}

// nextMember reads the name of the next member of a valid JSON object,
// from b[i] just past the '{' or past the value of the member before. It
// returns the name and the index where the member's value starts or, at
// the end of the object, ok false and the index past its '}'. The name
// shares b's bytes, as appendMembers says.
func nextMember(b []byte, i int) (name string, value int, ok bool) {
	i = jsonwire.SkipSpace(b, i)
	if b[i] == ',' {
		i = jsonwire.SkipSpace(b, i+1)
	}
	if b[i] == '}' {
		return "", i + 1, false
	}
	end := jsonwire.Skip(b, i)
	name, _ = viewString(b[i:end])
	i = jsonwire.SkipSpace(b, end)
	return name, jsonwire.SkipSpace(b, i+1), true // past ':'
}

// appendMembers splits a valid JSON object into its top-level members,
// appended to out, without decoding the values. Names are compared
// exactly, unlike encoding/json's case-insensitive field matching. A name
// shares obj's bytes (see viewString): compare it, do not keep it. Callers
// keep the members in an array on their stack:
//
//	var buf [8]member
//	for _, m := range appendMembers(buf[:0], obj) { ... }
func appendMembers(out []member, obj []byte) []member {
	for i := jsonwire.SkipSpace(obj, 0) + 1; ; {
		name, v, ok := nextMember(obj, i)
		if !ok {
			return out
		}
		i = jsonwire.Skip(obj, v)
		out = append(out, member{name: name, value: obj[v:i]})
	}
}
