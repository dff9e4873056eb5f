package schemagen

import (
	"strconv"
	"strings"
	"unicode/utf8"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// validate runs the compiled schema on v (whose node is n, found at path
// base) and turns each failure into problems.
func (c *checker) validate(sch *santhosh.Schema, n *node, v any, base path) {
	err := sch.Validate(v)
	if err == nil {
		return
	}
	ve, ok := err.(*santhosh.ValidationError)
	if !ok {
		c.add(Problem{Kind: Other, Rule: "schema", msg: msgInvalid}, base)
		return
	}
	c.collect(ve, n, v, base)
}

// collect walks a validation error tree and adds a problem for each leaf.
func (c *checker) collect(e *santhosh.ValidationError, root *node, v any, base path) {
	if _, ok := e.ErrorKind.(*kind.PropertyNames); ok {
		return // checkKey says which character of which key is wrong
	}
	if len(e.Causes) > 0 {
		for _, cause := range e.Causes {
			c.collect(cause, root, v, base)
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
		c.add(c.bound("minimum", msgMinimum, boundText(n, "minimum", k.Want.RatString()), val), at)
	case *kind.Maximum:
		c.add(c.bound("maximum", msgMaximum, boundText(n, "maximum", k.Want.RatString()), val), at)
	case *kind.ExclusiveMinimum:
		c.add(c.bound("exclusiveMinimum", msgExclusiveMinimum, boundText(n, "exclusiveMinimum", k.Want.RatString()), val), at)
	case *kind.ExclusiveMaximum:
		c.add(c.bound("exclusiveMaximum", msgExclusiveMaximum, boundText(n, "exclusiveMaximum", k.Want.RatString()), val), at)
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

// bound builds the problem of a number outside a declared bound.
func (c *checker) bound(rule string, id msgID, limit string, val any) Problem {
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

// Limits on listing the allowed names in an unknown-argument message.
const (
	maxNamesListed    = 6
	maxNamesListedLen = 60
)

// unknownArgument builds the problem of a property that object node n does
// not declare; obj is the object it was sent in.
func unknownArgument(n *node, obj any, name string) Problem {
	p := Problem{Kind: UnknownArgument, Rule: "additionalProperties", msg: msgUnknown}
	if n == nil || n.kind != jObject {
		p.msg = msgUnknownMany
		return p
	}
	sent, _ := obj.(map[string]any)
	listLen := 0
	for _, f := range n.fields {
		p.Allowed = append(p.Allowed, `"`+f.name+`"`)
		listLen += len(f.name) + 4
	}
	best, bestDist := "", -1
	for _, f := range n.fields {
		if _, taken := sent[f.name]; taken {
			continue
		}
		if d := nameDistance(name, f.name); d >= 0 && (bestDist < 0 || d < bestDist) {
			best, bestDist = f.name, d
		}
	}
	switch {
	case len(n.fields) == 0:
		p.msg = msgUnknownNone
	case best != "":
		p.msg, p.Suggest = msgUnknownSuggest, best
	case len(n.fields) > maxNamesListed || listLen > maxNamesListedLen:
		p.msg = msgUnknownMany
	}
	return p
}

// nameDistance returns how far an unknown argument name is from a declared
// one, or -1 when they are too different to suggest. Case, '_' and '-' do
// not count; otherwise it is the edit distance, up to one edit per three
// characters of the declared name (at most two).
func nameDistance(got, want string) int {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' {
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	g, w := norm(got), norm(want)
	if g == w {
		return 0
	}
	limit := min(2, utf8.RuneCountInString(w)/3)
	if limit == 0 {
		return -1
	}
	d := editDistance([]rune(g), []rune(w))
	if d > limit {
		return -1
	}
	return d
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
