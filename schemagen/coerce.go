package schemagen

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/security"
)

// checker collects the problems of one call (or of one default value at
// registration) and, for input schemas, applies and records coercions.
type checker struct {
	input    bool
	root     *node // the arguments object's node, for ordering problems
	problems []Problem
	// record says to record coercions and defaults for the Report. They
	// are kept here rather than in a *Report, whose address would make
	// the Report escape to the heap on every call.
	record    bool
	coercions []Coercion
	keys      []string // sort keys of coercions
	defaults  []string // paths given their default, in schema order
}

// add records a problem about the value at path at.
func (c *checker) add(p Problem, at path) {
	p.Path = formatPath(at)
	p.key = pathSortKey(at)
	p.rank = c.rank(at)
	if len(c.problems) == cap(c.problems) {
		// Double the capacity: append grows a long slice by only a
		// quarter, which copies the problems of a call with very many of
		// them over and over.
		c.problems = slices.Grow(c.problems, max(len(c.problems), 4))
	}
	c.problems = append(c.problems, p)
}

// rank returns the schema position of the top-level argument of a path:
// -1 for the root, the number of declared arguments for unknown ones.
func (c *checker) rank(at path) int {
	name, ok := topKey(at)
	if !ok || c.root == nil {
		return -1
	}
	for i, f := range c.root.fields {
		if f.name == name {
			return i
		}
	}
	return len(c.root.fields)
}

// coerced records that the value at path at, sent as from, became to.
func (c *checker) coerced(at path, from any, to string) {
	if !c.record {
		return
	}
	c.coercions = append(c.coercions, Coercion{Path: formatPath(at), From: shortValue(from), To: to})
	c.keys = append(c.keys, pathSortKey(at))
}

// walk runs before schema validation. On input schemas it applies the safe
// coercions, in place:
//   - a numeric string where a number or integer is wanted becomes that
//     number ("25" → 25; "2.5" is left for an integer, and fails);
//   - "true" or "false" where a boolean is wanted becomes the boolean;
//   - a single value where an array is wanted is wrapped in one, when it
//     would be a valid element (then element coercions apply);
//   - null for an optional property is removed, as if it was not sent.
//
// Arrays are never unwrapped. On every schema it also runs the checks that
// JSON Schema cannot express: character classes of strings and map keys,
// the size of number literals and the range of the Go type. It returns the
// value to store in place of v.
func (c *checker) walk(n *node, v any, at path) any {
	if n == nil {
		return v
	}
	switch n.kind {
	case jString:
		if s, ok := v.(string); ok && n.class != "" {
			c.checkChars(n, s, at)
		}
	case jInteger, jNumber:
		switch x := v.(type) {
		case string:
			if num, ok := numericString(n, x); ok && c.input {
				c.coerced(at, v, n.kind.typeName())
				return c.number(n, num, num, at)
			}
		case json.Number:
			return c.number(n, v, x, at)
		}
	case jBoolean:
		if s, ok := v.(string); ok && c.input && (s == "true" || s == "false") {
			c.coerced(at, v, "boolean")
			return s == "true"
		}
	case jArray:
		arr, ok := v.([]any)
		if !ok {
			if !c.input || !wrappable(n.elem, v) {
				return v
			}
			c.coerced(at, v, "array")
			arr = []any{v}
			v = arr
		}
		for i := range arr {
			arr[i] = c.walk(n.elem, arr[i], at.at(i))
		}
		return v // the elements changed in place; boxing arr again would allocate
	case jObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for _, f := range n.fields {
			fv, present := obj[f.name]
			if !present {
				continue
			}
			if fv == nil && c.input && !f.required {
				delete(obj, f.name)
				c.coerced(at.key(f.name), nil, "absent")
				continue
			}
			obj[f.name] = c.walk(f.node, fv, at.key(f.name))
		}
	case jMap:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for k, fv := range obj {
			if n.keyClass != "" {
				c.checkKey(n, k, at)
			}
			obj[k] = c.walk(n.elem, fv, at.key(k))
		}
	}
	return v
}

// number checks a number literal num, held in v, found where n wants a
// number: its size, then the range of the Go type. A literal too large to
// work with is reported and replaced by null, which no later check looks
// into; otherwise v is returned.
func (c *checker) number(n *node, v any, num json.Number, at path) any {
	s := string(num)
	if !saneNumber(s) {
		c.add(Problem{Kind: OutOfRange, Rule: "number", msg: msgNumberTooBig, Got: shortValue(num), GotType: "number"}, at)
		return nil
	}
	var high bool
	switch n.kind {
	case jInteger:
		integral, fits, tooHigh := integerStatus(s, n)
		if !integral || fits {
			return v
		}
		high = tooHigh
	case jNumber:
		if _, err := strconv.ParseFloat(s, n.bits); err == nil {
			return v
		}
		high = !strings.HasPrefix(s, "-")
	}
	p := Problem{Kind: OutOfRange, Rule: "range", Got: shortValue(num), GotType: typeOfValue(num)}
	if high {
		p.msg, p.Limit = msgMaximum, goLimit(n, true)
	} else {
		p.msg, p.Limit = msgMinimum, goLimit(n, false)
	}
	c.add(p, at)
	return v
}

// checkChars reports the first character of s that n's class refuses.
func (c *checker) checkChars(n *node, s string, at path) {
	bad, i, ok := n.class.Check(s)
	if ok {
		return
	}
	p := Problem{Kind: OutOfRange, Rule: "chars", Class: string(n.class), Got: shortValue(s), GotType: "string"}
	switch {
	case i < 0:
		p.msg = msgCharsEmpty
		c.add(p, at)
		return
	case bad == '\\' && (n.class == security.ClassPath || n.class == security.ClassGlob):
		p.msg = msgCharsBackslash
	case !unicode.IsPrint(bad) || bad == utf8.RuneError:
		p.msg = msgCharsInvisible
	default:
		p.msg = msgChars
	}
	p.Char = charDisplay(bad)
	p.Position = utf8.RuneCountInString(s[:i]) + 1
	c.add(p, at)
}

// checkKey reports the first character of a map key that the map's key
// class refuses. The problem is about the map, at path at.
func (c *checker) checkKey(n *node, k string, at path) {
	bad, i, ok := n.keyClass.Check(k)
	if ok {
		return
	}
	p := Problem{Kind: OutOfRange, Rule: "keychars", Class: string(n.keyClass), Got: quoteShort(k, maxShown), msg: msgKeyChars}
	if i < 0 {
		p.Char, p.Position = `""`, 1
	} else {
		p.Char = charDisplay(bad)
		p.Position = utf8.RuneCountInString(k[:i]) + 1
	}
	c.add(p, at)
}

// numericString returns s as a number when it is a JSON number literal and,
// for an integer node, an integral one.
func numericString(n *node, s string) (json.Number, bool) {
	if !isJSONNumber(s) {
		return "", false
	}
	if n.kind == jInteger {
		if integral, _, _ := integerStatus(s, n); !integral {
			return "", false
		}
	}
	return json.Number(s), true
}

// wrappable reports whether v, which is not an array, would be a valid
// element of an array of n after coercion, so that wrapping it helps rather
// than moving the error one level down.
func wrappable(n *node, v any) bool {
	switch x := v.(type) {
	case nil, []any:
		return false
	case string:
		switch n.kind {
		case jString, jTime, jBytes, jAny, jRaw:
			return true
		case jInteger, jNumber:
			_, ok := numericString(n, x)
			return ok
		case jBoolean:
			return x == "true" || x == "false"
		case jArray:
			return wrappable(n.elem, v)
		}
	case json.Number:
		switch n.kind {
		case jNumber, jAny, jRaw:
			return true
		case jInteger:
			integral, _, _ := integerStatus(string(x), n)
			return integral
		case jArray:
			return wrappable(n.elem, v)
		}
	case bool:
		switch n.kind {
		case jBoolean, jAny, jRaw:
			return true
		case jArray:
			return wrappable(n.elem, v)
		}
	case map[string]any:
		switch n.kind {
		case jObject, jMap, jAny, jRaw:
			return true
		case jArray:
			return wrappable(n.elem, v)
		}
	}
	return false
}

// integerStatus says whether a number literal is integral and whether it
// fits the Go integer type of n; when it does not fit, tooHigh says on which
// side.
func integerStatus(s string, n *node) (integral, fits, tooHigh bool) {
	if _, _, ok := parseInteger(s, n); ok {
		return true, true, false
	}
	if !saneNumber(s) {
		return false, false, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return false, false, false
	}
	return true, false, r.Sign() > 0
}

// parseInteger returns a number literal as a value of n's Go integer type:
// i for signed types, u for unsigned ones. Literals such as 2.0 or 1e3 are
// accepted when their value is integral.
func parseInteger(s string, n *node) (i int64, u uint64, ok bool) {
	if n.unsigned {
		if v, err := strconv.ParseUint(s, 10, n.bits); err == nil {
			return 0, v, true
		}
	} else if v, err := strconv.ParseInt(s, 10, n.bits); err == nil {
		return v, 0, true
	}
	if !strings.ContainsAny(s, ".eE-") || !saneNumber(s) {
		return 0, 0, false // plain digits that did not parse: out of range
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return 0, 0, false
	}
	num := r.Num()
	if n.unsigned {
		if num.Sign() < 0 || num.BitLen() > n.bits {
			return 0, 0, false
		}
		return 0, num.Uint64(), true
	}
	if !num.IsInt64() {
		return 0, 0, false
	}
	v := num.Int64()
	if n.bits < 64 && (v < -(1<<(n.bits-1)) || v > 1<<(n.bits-1)-1) {
		return 0, 0, false
	}
	return v, 0, true
}
