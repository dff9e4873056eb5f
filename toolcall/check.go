package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/decimal"
)

// Check checks a call's whole arguments, one JSON value, against s and
// returns every mismatch, in document order except that the required
// members an object lacks come after its other members. It fails only
// when args is not one JSON value.
//
// A value of the wrong type is one mismatch: what is inside it is not
// checked further.
func (s *Schema) Check(args []byte) ([]Mismatch, error) {
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, errors.New("toolcall: the arguments are not JSON")
	}
	if _, err := d.Token(); err == nil {
		return nil, errors.New("toolcall: the arguments hold more than one JSON value")
	}
	var out []Mismatch
	s.root.check(v, "", &out)
	return out, nil
}

// check appends the mismatches of v, found at path at.
func (n *node) check(v any, at string, out *[]Mismatch) {
	if n == nil {
		return
	}
	if !n.scalarOK(v, at, out) {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub, known := n.member(k)
			p := at + "/" + pointerKey(k)
			if !known {
				*out = append(*out, n.unknown(p))
				continue
			}
			sub.check(t[k], p, out)
		}
		for _, r := range n.required {
			if _, ok := t[r]; !ok {
				*out = append(*out, Mismatch{Kind: Missing, Path: at + "/" + pointerKey(r), Rule: "required", Want: r})
			}
		}
	case []any:
		for i, e := range t {
			n.items.check(e, at+"/"+strconv.Itoa(i), out)
		}
		if len(t) < n.minItems {
			*out = append(*out, Mismatch{Kind: TooSmall, Path: at, Rule: "minItems", Want: strconv.Itoa(n.minItems), Got: strconv.Itoa(len(t))})
		}
		if n.maxItems >= 0 && len(t) > n.maxItems {
			*out = append(*out, Mismatch{Kind: TooLarge, Path: at, Rule: "maxItems", Want: strconv.Itoa(n.maxItems), Got: strconv.Itoa(len(t))})
		}
	}
}

// member returns the schema of the member named k and whether the schema
// allows it at all.
func (n *node) member(k string) (*node, bool) {
	if sub, ok := n.props[k]; ok {
		return sub, true
	}
	if n.noExtra {
		return nil, false
	}
	return n.additional, true
}

// unknown is the mismatch of a member that additionalProperties forbids.
func (n *node) unknown(at string) Mismatch {
	return Mismatch{Kind: Unknown, Path: at, Rule: "additionalProperties", Want: strings.Join(n.propNames, ", ")}
}

// scalarOK checks what can be checked of v without looking inside it:
// its type, enum and const, and for a string or a number its bounds. It
// reports false when v has the wrong type (or the schema is false), and
// nothing inside v is to be checked.
func (n *node) scalarOK(v any, at string, out *[]Mismatch) bool {
	if n.never {
		*out = append(*out, Mismatch{Kind: NotAllowed, Path: at, Rule: "false", Got: shortJSON(v)})
		return false
	}
	if got, ok := n.typeOK(v); !ok {
		*out = append(*out, Mismatch{Kind: WrongType, Path: at, Rule: "type", Want: n.typeList(), Got: got})
		return false
	}
	if n.enum != nil && !slices.ContainsFunc(n.enum, func(e any) bool { return equalJSON(e, v) }) {
		*out = append(*out, Mismatch{Kind: NotAllowed, Path: at, Rule: "enum", Want: enumList(n.enum), Got: shortJSON(v)})
	}
	if n.hasConst && !equalJSON(n.konst, v) {
		*out = append(*out, Mismatch{Kind: NotAllowed, Path: at, Rule: "const", Want: shortJSON(n.konst), Got: shortJSON(v)})
	}
	switch t := v.(type) {
	case string:
		k := utf8.RuneCountInString(t)
		if n.minLen >= 0 && k < n.minLen {
			*out = append(*out, Mismatch{Kind: TooSmall, Path: at, Rule: "minLength", Want: strconv.Itoa(n.minLen), Got: strconv.Itoa(k)})
		}
		if n.maxLen >= 0 && k > n.maxLen {
			*out = append(*out, Mismatch{Kind: TooLarge, Path: at, Rule: "maxLength", Want: strconv.Itoa(n.maxLen), Got: strconv.Itoa(k)})
		}
	case json.Number:
		d, _ := decimal.Parse(string(t))
		bound := func(b *decimal.Decimal, kind MismatchKind, rule string, bad func(c int) bool) {
			if b != nil && bad(d.Cmp(*b)) {
				*out = append(*out, Mismatch{Kind: kind, Path: at, Rule: rule, Want: b.String(), Got: string(t)})
			}
		}
		bound(n.min, TooSmall, "minimum", func(c int) bool { return c < 0 })
		bound(n.exclMin, TooSmall, "exclusiveMinimum", func(c int) bool { return c <= 0 })
		bound(n.max, TooLarge, "maximum", func(c int) bool { return c > 0 })
		bound(n.exclMax, TooLarge, "exclusiveMaximum", func(c int) bool { return c >= 0 })
	}
	return true
}

// typeOK reports whether v has one of n's types, and v's type's name.
func (n *node) typeOK(v any) (string, bool) {
	got := typNull
	switch t := v.(type) {
	case bool:
		got = typBoolean
	case map[string]any:
		got = typObject
	case []any:
		got = typArray
	case string:
		got = typString
	case json.Number:
		got = typNumber
		if d, _ := decimal.Parse(string(t)); d.IsInt() {
			got = typInteger
		}
	}
	if len(n.types) == 0 {
		return typeNames[got], true
	}
	for _, want := range n.types {
		if want == got || (want == typNumber && got == typInteger) {
			return typeNames[got], true
		}
	}
	if got == typInteger {
		got = typNumber // "an integer was given where a string…" reads oddly for 3
	}
	return typeNames[got], false
}

// typeList names n's types: "integer", "string or null".
func (n *node) typeList() string {
	names := make([]string, len(n.types))
	for i, t := range n.types {
		names[i] = typeNames[t]
	}
	return strings.Join(names, " or ")
}

// equalJSON reports whether two decoded JSON values are equal as JSON
// Schema compares them: numbers by value (1 equals 1.0), objects whatever
// the order of their members.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		dx, _ := decimal.Parse(string(x))
		dy, _ := decimal.Parse(string(y))
		return dx.Cmp(dy) == 0
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// maxShownValue bounds a value quoted in a mismatch.
const maxShownValue = 60

// shortJSON writes v as JSON, cut to maxShownValue bytes.
func shortJSON(v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	s := strings.TrimSpace(b.String())
	if len(s) > maxShownValue {
		k := maxShownValue
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		s = s[:k] + "…"
	}
	return s
}

// enumList writes the allowed values for a message.
func enumList(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = shortJSON(v)
	}
	return strings.Join(parts, ", ")
}

// pointerKey writes a key as a JSON pointer segment, as a [Parser]'s
// paths do (long keys cut, "~" and "/" escaped).
func pointerKey(k string) string {
	quoted, _ := json.Marshal(k)
	b, _ := appendPathKey(nil, quoted[1:len(quoted)-1], nil)
	return string(b)
}
