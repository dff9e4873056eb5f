package schemagen

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// Limits on number literals. A literal beyond them is refused before any
// arithmetic is done on it: exact comparisons of "1e999999" would otherwise
// cost seconds.
const (
	maxNumberLen = 100 // characters in a number literal
	maxExponent  = 400 // magnitude of the exponent of a number literal
)

// parseArgs parses the raw arguments of a call into a JSON object. Numbers
// are kept as json.Number so that no digit is lost. Empty or all-whitespace
// input means {}. On failure it returns the single problem that explains it.
func parseArgs(args []byte) (map[string]any, *Problem) {
	if len(trimJSONSpace(args)) == 0 {
		return map[string]any{}, nil
	}
	// Arguments are one object, nearly always: decoded in one pass, with
	// each string straight into its final form. Anything else is read
	// again below with encoding/json, which says what is wrong.
	if obj, ok := jsonwire.DecodeObject(args); ok {
		return obj, nil
	}
	if !utf8.Valid(args) {
		return nil, &Problem{Kind: Other, Rule: "json", msg: msgBadUTF8, rank: -1}
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, syntaxProblem(args, err)
	}
	if rest := trimJSONSpace(args[dec.InputOffset():]); len(rest) > 0 {
		return nil, &Problem{Kind: Other, Rule: "json", msg: msgTrailing, rank: -1,
			Position: utf8.RuneCount(args[:len(args)-len(rest)]) + 1}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &Problem{Kind: WrongType, Rule: "type", msg: msgNotObject, rank: -1,
			Expected: "object", Got: shortValue(v), GotType: typeOfValue(v)}
	}
	if countColons(args) != countKeys(obj) {
		if at, found := findDuplicate(args); found {
			return nil, &Problem{Kind: Other, Rule: "duplicate", msg: msgDuplicate, Path: formatPath(at),
				key: pathSortKey(at), rank: -1}
		}
	}
	return obj, nil
}

// syntaxProblem turns a decoding error into a problem naming the position.
func syntaxProblem(args []byte, err error) *Problem {
	p := &Problem{Kind: Other, Rule: "json", msg: msgBadJSON, rank: -1}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := min(max(int(se.Offset), 1), len(args))
		p.Position = max(utf8.RuneCount(args[:off]), 1)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		p.msg = msgTruncated
	default:
		p.Position = 1
	}
	return p
}

// parseJSONValue parses one JSON value, keeping numbers as json.Number.
func parseJSONValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(trimJSONSpace(b[dec.InputOffset():])) > 0 {
		return nil, errors.New("extra text after the JSON value")
	}
	return v, nil
}

// trimJSONSpace removes JSON whitespace (space, tab, CR, LF) at both ends.
func trimJSONSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// countColons counts the colons outside strings in valid JSON text, which
// is the number of object members written.
func countColons(b []byte) int {
	n := 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ':':
			n++
		}
	}
	return n
}

// countKeys counts the members of every object in v.
func countKeys(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := len(v)
		for _, e := range v {
			n += countKeys(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range v {
			n += countKeys(e)
		}
		return n
	}
	return 0
}

// findDuplicate returns the path of the first member that repeats a key of
// its object. It reparses valid JSON token by token, which is slow but only
// runs once countColons has shown that a duplicate exists.
func findDuplicate(b []byte) (path, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	at, _ := duplicateIn(dec, nil)
	return at, at != nil
}

// duplicateIn reads one value from dec. It returns the path of a duplicate
// key found inside it (non-nil, in a new array), or a non-nil error when
// reading failed.
func duplicateIn(dec *json.Decoder, at path) (path, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil, nil
	}
	switch delim {
	case '{':
		seen := make(map[string]bool)
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			child := at.key(k)
			if seen[k] {
				return slices.Clone(child), nil
			}
			seen[k] = true
			if dup, err := duplicateIn(dec, child); dup != nil || err != nil {
				return dup, err
			}
		}
	case '[':
		for i := 0; dec.More(); i++ {
			if dup, err := duplicateIn(dec, at.at(i)); dup != nil || err != nil {
				return dup, err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return nil, err
}

// isJSONNumber reports whether s is a number literal in JSON syntax.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// saneNumber reports whether a number literal is within maxNumberLen and
// maxExponent, so that exact arithmetic on it is cheap.
func saneNumber(s string) bool {
	if len(s) > maxNumberLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			e, err := strconv.Atoi(s[i+1:])
			return err == nil && e >= -maxExponent && e <= maxExponent
		}
	}
	return true
}
