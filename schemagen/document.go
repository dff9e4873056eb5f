package schemagen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// document writes the schema document of the root node of a schema, input
// or output, as compact JSON. The keywords of each schema come in one
// order, the order in which invopop/jsonschema's Schema type declares
// them (see "The document" in doc.go), and strings are escaped as
// encoding/json escapes them, and the invisible characters as \uXXXX.
// The root has no "$schema": MCP's default dialect is JSON Schema 2020-12
// already, and clients that validate with a draft-07 validator (Ajv's
// default) refuse a 2020-12 "$schema" they do not know.
//
// The document published leaves out the rules that Decode enforces
// whatever a document says, with an error that says what to fix (see
// "What a document leaves out" in doc.go): "additionalProperties": false
// and "minLength": 1. With enforced set they are written, for tests that
// hold the validator to another validator reading the same rules.
func document(root *node, input, enforced bool) ([]byte, error) {
	w := docWriter{input: input, enforced: enforced}
	b := w.schema(make([]byte, 0, 1024), root, nil)
	if w.err != nil {
		return nil, fmt.Errorf("encoding the schema: %w", w.err)
	}
	return b, nil
}

// docWriter writes the schemas of a document.
type docWriter struct {
	input    bool
	enforced bool  // write the rules a published document leaves out
	err      error // from encoding a default or an enum
}

// schema appends the schema of node n, which is the node of property f
// (nil for the root, items and map values). A schema with no keyword,
// that of any value, is written true.
func (w *docWriter) schema(b []byte, n *node, f *field) []byte {
	start := len(b)
	b = append(b, '{')
	key := func(k string) {
		if len(b) > start+1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
	}
	str := func(k, v string) {
		if v != "" {
			key(k)
			b = appendString(b, v)
		}
	}
	num := func(k, v string) {
		if v != "" {
			key(k)
			b = append(b, v...)
		}
	}
	count := func(k string, v *uint64) {
		if v != nil {
			key(k)
			b = strconv.AppendUint(b, *v, 10)
		}
	}
	value := func(k string, v any) {
		raw, err := json.Marshal(v)
		if err != nil {
			w.err = err
			return
		}
		key(k)
		at := len(b)
		b = escapeInvisible(append(b, raw...), at)
	}

	switch n.kind {
	case jArray:
		key("items")
		b = w.schema(b, n.elem, nil)
	case jObject:
		key("properties")
		b = append(b, '{')
		for i, p := range n.fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, p.name)
			b = append(b, ':')
			b = w.schema(b, p.node, p)
		}
		b = append(b, '}')
		if w.enforced {
			key("additionalProperties")
			b = append(b, "false"...)
		}
	case jMap:
		// A map of any takes any value, which an absent keyword says.
		if n.elem.kind != jAny || n.elem.ptrs > 0 {
			key("additionalProperties")
			b = w.schema(b, n.elem, nil)
		}
	}
	typ := n.kind.typeName()
	if !n.nullable {
		str("type", typ)
	}
	if len(n.enum) > 0 {
		value("enum", n.enum)
	}
	num("maximum", n.maximum)
	num("exclusiveMaximum", n.exclusiveMaximum)
	num("minimum", n.minimum)
	num("exclusiveMinimum", n.exclusiveMinimum)
	count("maxLength", n.maxLength)
	if w.enforced || n.minLength == nil || *n.minLength != 1 {
		count("minLength", n.minLength)
	}
	// A character class is enforced and not published (see "Character
	// classes" in the package doc); a pattern the tool's author wrote is.
	if n.userPattern != "" {
		str("pattern", n.userPattern)
	}
	count("maxItems", n.maxItems)
	count("minItems", n.minItems)
	if n.kind == jObject {
		first := true
		for _, p := range n.fields {
			if !p.required {
				continue
			}
			if first {
				key("required")
				b = append(b, '[')
				first = false
			} else {
				b = append(b, ',')
			}
			b = appendString(b, p.name)
		}
		if !first {
			b = append(b, ']')
		}
	}
	switch n.kind {
	case jTime:
		str("format", "date-time")
	case jBytes:
		str("contentEncoding", "base64")
	}
	if f != nil {
		str("description", f.description)
		if f.hasDefault {
			value("default", f.def)
		}
	}
	if n.nullable && typ != "" {
		// Last, where invopop writes the keywords it does not know.
		key("type")
		b = append(b, '[')
		b = appendString(b, typ)
		b = append(b, `,"null"]`...)
	}
	if len(b) == start+1 {
		return append(b[:start], "true"...)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string as encoding/json writes it,
// with the invisible characters escaped too (see escapeInvisible).
func appendString(b []byte, s string) []byte {
	start := len(b)
	return escapeInvisible(jsonwire.AppendString(b, s, true), start)
}

// escapeInvisible rewrites the characters of the JSON text b[start:] that
// are outside ASCII and do not print (such as the bidi controls in the
// path pattern) as \uXXXX escapes, so that whoever reads the raw document
// sees them. Such characters can only occur inside strings, where the
// escape means the same.
func escapeInvisible(b []byte, start int) []byte {
	ascii := true
	for i := start; i < len(b) && ascii; i++ {
		ascii = b[i] < utf8.RuneSelf
	}
	if ascii {
		return b
	}
	const hex = "0123456789abcdef"
	text := string(b[start:])
	b = b[:start]
	for _, r := range text {
		if r < utf8.RuneSelf || unicode.IsPrint(r) {
			b = utf8.AppendRune(b, r)
			continue
		}
		for _, u := range utf16.Encode([]rune{r}) {
			b = append(b, '\\', 'u', hex[u>>12], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
		}
	}
	return b
}
