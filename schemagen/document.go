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

// document reflects t with invopop/jsonschema, then sets every keyword that
// comes from tags (descriptions, defaults, enums, bounds, patterns, required
// lists) from the node tree, so the document says exactly what the node tree
// enforces. It returns the compact JSON text of the document.
func document(t reflect.Type, root *node, input bool) (doc []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reflecting %s failed: %v", t, r)
		}
	}()
	r := &invopop.Reflector{DoNotReference: true, Anonymous: true}
	s := r.ReflectFromType(t)
	s.Version = ""
	s.ID = ""
	if err := annotate(s, root, input); err != nil {
		return nil, err
	}
	doc, ok := appendSchema(nil, s)
	if !ok {
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

// annotate checks that the reflected schema s has the shape of node n and
// sets the keywords that the node's tags declare.
func annotate(s *invopop.Schema, n *node, input bool) error {
	if s == nil {
		return fmt.Errorf("internal error: no schema for %s", n.goType)
	}
	if want := n.kind.typeName(); s.Type != want {
		return fmt.Errorf("%s reflected as type %q instead of %q; check its jsonschema tag", n.goType, s.Type, want)
	}
	resetKeywords(s, n)
	switch n.kind {
	case jObject:
		props := invopop.NewProperties()
		var required []string
		for _, f := range n.fields {
			sub, ok := s.Properties.Get(f.name)
			if !ok {
				return fmt.Errorf("internal error: field %s is missing from the reflected schema", f.goPath)
			}
			if err := annotate(sub, f.node, input); err != nil {
				return err
			}
			annotateField(sub, f, input)
			props.Set(f.name, sub)
			if f.required {
				required = append(required, f.name)
			}
		}
		s.Properties = props
		s.Required = required
		s.AdditionalProperties = invopop.FalseSchema
	case jArray:
		if err := annotate(s.Items, n.elem, input); err != nil {
			return err
		}
		s.MinItems, s.MaxItems = n.minItems, n.maxItems
	case jMap:
		if s.AdditionalProperties == nil && n.elem.kind == jAny {
			// map[string]any: every value is allowed.
		} else if err := annotate(s.AdditionalProperties, n.elem, input); err != nil {
			return err
		}
		if n.keyClass != "" {
			s.PropertyNames = &invopop.Schema{Pattern: n.keyClass.Pattern()}
		}
	case jString:
		s.Enum = n.enum
		s.MinLength, s.MaxLength = n.minLength, n.maxLength
		switch {
		case n.userPattern != "":
			s.Pattern = n.userPattern
		case n.class != "":
			s.Pattern = n.class.Pattern()
		default:
			s.Pattern = ""
		}
	case jInteger, jNumber:
		s.Enum = n.enum
		s.Minimum = json.Number(n.minimum)
		s.Maximum = json.Number(n.maximum)
		s.ExclusiveMinimum = json.Number(n.exclusiveMinimum)
		s.ExclusiveMaximum = json.Number(n.exclusiveMaximum)
	}
	if n.nullable && s.Type != "" {
		s.Extras = map[string]any{"type": []string{s.Type, "null"}}
		s.Type = ""
	}
	return nil
}

// resetKeywords clears the keywords that do not come from the Go type
// itself. The reflector also reads jsonschema tags, and a description given
// as jsonschema:"description=..." may contain text it takes for keywords
// (",format=...", ",minItems=..."); only the node tree decides those.
func resetKeywords(s *invopop.Schema, n *node) {
	format, encoding := "", ""
	switch n.kind {
	case jTime:
		format = "date-time"
	case jBytes:
		encoding = "base64"
	}
	s.Format, s.ContentEncoding = format, encoding
	s.Title, s.Description, s.Comments, s.Anchor = "", "", "", ""
	s.Default, s.Const, s.Examples, s.Extras = nil, nil, nil, nil
	s.Enum, s.MultipleOf, s.UniqueItems = nil, "", false
	s.MinLength, s.MaxLength, s.Pattern = nil, nil, ""
	s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum = "", "", "", ""
	s.MinItems, s.MaxItems = nil, nil
	s.ReadOnly, s.WriteOnly, s.Deprecated = false, false, false
	s.AllOf, s.AnyOf, s.OneOf, s.Not = nil, nil, nil, nil
	s.If, s.Then, s.Else = nil, nil, nil
}

// annotateField sets the keywords that belong to a property rather than to
// its type: the description, with the character classes of its strings on
// input, and the default.
func annotateField(s *invopop.Schema, f *field, input bool) {
	s.Description = f.description
	if input {
		s.Description = describeClasses(f.description, f.node)
	}
	s.Default = nil
	if f.hasDefault {
		s.Default = f.def
	}
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
	note := expand(text(id, English), p, English)
	if desc == "" {
		r, size := utf8.DecodeRuneInString(note)
		note = string(unicode.ToUpper(r)) + note[size:]
		return expand(text(msgDescOnly, English), &Problem{Detail: note}, English)
	}
	return expand(text(msgDescNote, English), &Problem{Detail: desc, Limit: note}, English)
}
