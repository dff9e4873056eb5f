package schemagen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// This file keeps, for the differential tests only, the way Decode used to
// validate: the schema document compiled with santhosh-tekuri/jsonschema
// and its errors turned into problems. The native validator must give the
// same problems.

// santhoshURL names the document inside the compiler; nothing is loaded
// from it.
const santhoshURL = "mem:///arguments.schema.json"

// compileSanthosh compiles a schema document as JSON Schema 2020-12 with
// formats asserted, as schemagen did before it had its own validator.
func compileSanthosh(doc []byte) (*santhosh.Schema, error) {
	v, err := santhosh.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("reading the generated schema: %w", err)
	}
	c := santhosh.NewCompiler()
	c.DefaultDraft(santhosh.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(santhoshURL, v); err != nil {
		return nil, fmt.Errorf("loading the generated schema: %w", err)
	}
	return c.Compile(santhoshURL)
}

// santhoshValidate runs the compiled schema on v (whose node is n, found
// at path base) and turns each failure into problems.
func (c *checker) santhoshValidate(sch *santhosh.Schema, n *node, v any, base path) {
	err := sch.Validate(v)
	if err == nil {
		return
	}
	ve, ok := err.(*santhosh.ValidationError)
	if !ok {
		c.add(Problem{Kind: Other, Rule: "schema", msg: msgInvalid}, base)
		return
	}
	c.santhoshCollect(ve, n, v, base)
}

// santhoshCollect walks a validation error tree and adds a problem for
// each leaf.
func (c *checker) santhoshCollect(e *santhosh.ValidationError, root *node, v any, base path) {
	if _, ok := e.ErrorKind.(*kind.PropertyNames); ok {
		return // checkKey says which character of which key is wrong
	}
	if len(e.Causes) > 0 {
		for _, cause := range e.Causes {
			c.santhoshCollect(cause, root, v, base)
		}
		return
	}
	at, val, n := locate(e.InstanceLocation, v, root, base)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			p := Problem{Kind: MissingRequired, Rule: "required", msg: msgMissing}
			if f := n.field(name); f != nil {
				p.Expected = f.node.kind.typeName()
			}
			c.add(p, at.key(name))
		}
	case *kind.Type:
		p := Problem{Kind: WrongType, Rule: "type", msg: msgWrongType,
			Expected: strings.Join(k.Want, " or "), Got: shortValue(val), GotType: typeOfValue(val)}
		if n != nil && n.kind.typeName() != "" {
			p.Expected = n.kind.typeName()
		}
		switch {
		case len(at) == 0:
			p.msg = msgNotObject
		case val == nil:
			p.msg = msgWrongTypeNull
		}
		c.add(p, at)
	case *kind.Enum:
		p := Problem{Kind: NotAllowed, Rule: "enum", msg: msgEnum, Got: shortValue(val), GotType: typeOfValue(val)}
		for _, w := range k.Want {
			p.Allowed = append(p.Allowed, shortValue(w))
		}
		c.add(p, at)
	case *kind.Const:
		c.add(Problem{Kind: NotAllowed, Rule: "const", msg: msgConst, Got: shortValue(val), GotType: typeOfValue(val),
			Allowed: []string{shortValue(k.Want)}}, at)
	case *kind.Minimum:
		c.add(santhoshBound("minimum", msgMinimum, boundText(n, "minimum", k.Want.RatString()), val), at)
	case *kind.Maximum:
		c.add(santhoshBound("maximum", msgMaximum, boundText(n, "maximum", k.Want.RatString()), val), at)
	case *kind.ExclusiveMinimum:
		c.add(santhoshBound("exclusiveMinimum", msgExclusiveMinimum, boundText(n, "exclusiveMinimum", k.Want.RatString()), val), at)
	case *kind.ExclusiveMaximum:
		c.add(santhoshBound("exclusiveMaximum", msgExclusiveMaximum, boundText(n, "exclusiveMaximum", k.Want.RatString()), val), at)
	case *kind.MinLength:
		p := Problem{Kind: OutOfRange, Rule: "minLength", msg: msgMinLength, Limit: strconv.Itoa(k.Want), Count: k.Got,
			Got: shortValue(val), GotType: "string"}
		if k.Got == 0 && k.Want == 1 {
			p.msg = msgNotEmpty
		}
		c.add(p, at)
	case *kind.MaxLength:
		c.add(Problem{Kind: OutOfRange, Rule: "maxLength", msg: msgMaxLength, Limit: strconv.Itoa(k.Want), Count: k.Got,
			Got: shortValue(val), GotType: "string"}, at)
	case *kind.MinItems:
		p := Problem{Kind: OutOfRange, Rule: "minItems", msg: msgMinItems, Limit: strconv.Itoa(k.Want), Count: k.Got,
			Got: shortValue(val), GotType: "array"}
		if k.Got == 0 && k.Want == 1 {
			p.msg = msgMinItems1
		}
		c.add(p, at)
	case *kind.MaxItems:
		c.add(Problem{Kind: OutOfRange, Rule: "maxItems", msg: msgMaxItems, Limit: strconv.Itoa(k.Want), Count: k.Got,
			Got: shortValue(val), GotType: "array"}, at)
	case *kind.Pattern:
		if n != nil && n.userPattern == "" && n.class != "" {
			return // the class pattern: checkChars says which character is wrong
		}
		c.add(Problem{Kind: OutOfRange, Rule: "pattern", msg: msgPattern, Limit: cut(k.Want, 40),
			Got: shortValue(val), GotType: "string"}, at)
	case *kind.Format:
		p := Problem{Kind: OutOfRange, Rule: "format", msg: msgInvalid, Got: shortValue(val), GotType: typeOfValue(val)}
		if k.Want == "date-time" {
			p.msg = msgDateTime
		}
		c.add(p, at)
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			c.add(unknownArgument(n, val, name), at.key(name))
		}
	default:
		c.add(Problem{Kind: Other, Rule: "schema", msg: msgInvalid}, at)
	}
}

// santhoshBound builds the problem of a number outside a declared bound.
func santhoshBound(rule string, id msgID, limit string, val any) Problem {
	return Problem{Kind: OutOfRange, Rule: rule, msg: id, Limit: limit, Got: shortValue(val), GotType: typeOfValue(val)}
}

// boundText returns a bound as the tag wrote it, falling back to the
// validator's exact value.
func boundText(n *node, rule, fallback string) string {
	if n != nil {
		var s string
		switch rule {
		case "minimum":
			s = n.minimum
		case "maximum":
			s = n.maximum
		case "exclusiveMinimum":
			s = n.exclusiveMinimum
		case "exclusiveMaximum":
			s = n.exclusiveMaximum
		}
		if s != "" {
			return s
		}
	}
	return fallback
}

// locate follows a JSON pointer's tokens, as santhosh reports them,
// through the value v and the node n, which are found at path base. It
// returns the path (in a new array), the value and the node found there;
// the node is nil where the schema has none.
func locate(tokens []string, v any, n *node, base path) (path, any, *node) {
	at := append(make(path, 0, len(base)+len(tokens)+1), base...)
	for _, tok := range tokens {
		switch c := v.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return at, nil, nil
			}
			at = at.at(i)
			v = c[i]
		case map[string]any:
			at = at.key(tok)
			v = c[tok]
		default:
			return at, nil, nil
		}
		n = childNode(n, tok)
	}
	return at, v, n
}

// childNode returns the node of the value at key (an object property or
// map value) or at an array index, or nil when there is none.
func childNode(n *node, key string) *node {
	if n == nil {
		return nil
	}
	switch n.kind {
	case jObject:
		if f := n.byName[key]; f != nil {
			return f.node
		}
	case jArray, jMap:
		return n.elem
	}
	return nil
}
