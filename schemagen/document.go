package schemagen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	invopop "github.com/invopop/jsonschema"

	"github.com/stdiotools/toolserver/security"
)

// skeleton reflects the skeleton of struct type t with invopop/jsonschema,
// once. Input schemas take no required list from it (requireField sets
// theirs). It is written without "$schema": MCP's default dialect is JSON
// Schema 2020-12 already, and clients that validate with a draft-07
// validator (Ajv's default) refuse a 2020-12 "$schema" they do not know.
func skeleton(t reflect.Type, input bool) (s *invopop.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reflecting %s failed: %v", t, r)
		}
	}()
	r := &invopop.Reflector{DoNotReference: true, Anonymous: true, RequiredFromJSONSchemaTags: input, Mapper: unsupportedKind}
	s = r.ReflectFromType(t)
	s.Version = ""
	return s, nil
}

// unsupportedKind gives invopop an empty schema for the kinds JSON has no
// value for, which it would panic on: the builder refuses them after, with
// the field's name.
func unsupportedKind(t reflect.Type) *invopop.Schema {
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.Uintptr, reflect.UnsafePointer:
		return &invopop.Schema{}
	}
	return nil
}

// document returns the compact JSON text of a schema.
func document(s *invopop.Schema) ([]byte, error) {
	doc, ok := appendSchema(nil, s)
	if !ok {
		var err error
		if doc, err = json.Marshal(s); err != nil {
			return nil, fmt.Errorf("encoding the schema: %w", err)
		}
	}
	return escapeInvisible(doc), nil
}

// escapeInvisible rewrites the characters of JSON text that are not
// printable (such as the bidi controls in the path pattern) as \uXXXX
// escapes, so that whoever reads the raw document sees them. Outside ASCII
// such characters can only occur inside strings, where the escape means
// the same.
func escapeInvisible(doc []byte) []byte {
	var out []byte
	for i := 0; i < len(doc); {
		r, size := utf8.DecodeRune(doc[i:])
		if r < utf8.RuneSelf || unicode.IsPrint(r) {
			if out != nil {
				out = append(out, doc[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(doc)+32), doc[:i]...)
		}
		for _, u := range utf16.Encode([]rune{r}) {
			out = fmt.Appendf(out, `\u%04x`, u)
		}
		i += size
	}
	if out == nil {
		return doc
	}
	return out
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
