package schemagen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/security"
)

// document writes the schema document of the root node of a schema, input
// or output, as compact JSON. The keywords of each schema come in one
// order, the order in which invopop/jsonschema's Schema type declares
// them (see "The document" in doc.go), and strings are escaped as
// encoding/json escapes them, and the invisible characters as \uXXXX.
// The root has no "$schema": MCP's default dialect is JSON Schema 2020-12
// already, and clients that validate with a draft-07 validator (Ajv's
// default) refuse a 2020-12 "$schema" they do not know.
func document(root *node, input bool) ([]byte, error) {
	w := docWriter{input: input}
	b := w.schema(make([]byte, 0, 1024), root, nil)
	if w.err != nil {
		return nil, fmt.Errorf("encoding the schema: %w", w.err)
	}
	return b, nil
}

// docWriter writes the schemas of a document.
type docWriter struct {
	input bool
	err   error // from encoding a default or an enum
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
		key("additionalProperties")
		b = append(b, "false"...)
	case jMap:
		// A map of any takes any value, which an absent keyword says.
		if n.elem.kind != jAny || n.elem.ptrs > 0 {
			key("additionalProperties")
			b = w.schema(b, n.elem, nil)
		}
		if n.keyClass != "" {
			key("propertyNames")
			b = append(b, `{"pattern":`...)
			b = appendString(b, n.keyClass.Pattern())
			b = append(b, '}')
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
	count("minLength", n.minLength)
	switch {
	case n.userPattern != "":
		str("pattern", n.userPattern)
	case n.class != "":
		str("pattern", n.class.Pattern())
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
		desc := f.description
		if w.input {
			desc = describeClasses(desc, n)
		}
		str("description", desc)
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

// describeClasses appends to a description the phrase of the character
// class that applies to the strings of n (through arrays and pointers), and
// for maps the class of the keys.
func describeClasses(desc string, n *node) string {
	for n.kind == jArray {
		n = n.elem
	}
	var class, keys security.CharClass
	if n.kind == jMap {
		keys = n.keyClass
		n = n.elem
		for n.kind == jArray {
			n = n.elem
		}
	}
	if n.kind == jString {
		class = n.class
	}
	p := &Problem{Detail: desc, Class: string(class), Limit: keys.Describe()}
	var id msgID
	switch {
	case keys != "" && class != "":
		id = msgDescKeysValues
	case keys != "":
		id = msgDescKeys
	case class != "":
		id = msgDescClass
	default:
		return desc
	}
	note := expand(catalog.Text(English, id), p, English)
	if desc == "" {
		r, size := utf8.DecodeRuneInString(note)
		note = string(unicode.ToUpper(r)) + note[size:]
		return expand(catalog.Text(English, msgDescOnly), &Problem{Detail: note}, English)
	}
	return expand(catalog.Text(English, msgDescNote), &Problem{Detail: desc, Limit: note}, English)
}
