package toolcall

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Checker checks a call's arguments against a [Schema] while they stream
// in. Fed every [Event] of a [Parser] that reads the arguments, it reports
// each [Mismatch] as soon as the stream shows it:
//
//   - a value of the wrong type at its first byte that tells the type: the
//     '{' or '[' of an object or array, the first Partial of a string or a
//     number ("the model wrote a string where an integer is required"),
//     or the whole literal for true, false and null, and for "integer",
//     which only the whole number can tell from a fraction;
//   - an unknown member at its key;
//   - an array's element beyond maxItems as it begins;
//   - everything else about a string or number (enum, const, bounds,
//     lengths) when it is complete, and the required members an object
//     lacks, or the elements an array lacks for minItems, when it closes.
//
// By the time the arguments' JSON closes it has reported what
// [Schema.Check] reports for them, in stream order rather than Check's,
// with two exceptions, both because the Checker keeps no values: an object
// or array checked against an enum or const that holds an object or array
// of its kind is not checked; and where an object repeats a key, the
// Checker checks each of its values as it comes, while Check, as
// encoding/json and most servers do, keeps only the last. Only the first
// top-level value is checked.
//
// A Checker is not safe for concurrent use.
type Checker struct {
	s       *Schema
	report  func(Mismatch)
	stack   []checkFrame
	flagged int64 // the offset of the value whose type a Partial has reported, or -1
	counted int64 // the offset of the last element counted, from its first Partial
	started bool
	done    bool
	scratch []Mismatch
}

// checkFrame is one open object or array.
type checkFrame struct {
	n      *node // its schema; nil: anything
	object bool
	// For an object: the schema of the member whose key came last, and
	// whether the member is allowed at all (an unknown one is reported at
	// its key, and its value is not checked); the keys seen, for required.
	member   *node
	memberOK bool
	seen     map[string]bool
	count    int // for an array: its elements so far
}

// NewChecker returns a Checker that calls report for each mismatch, from
// within Event.
func (s *Schema) NewChecker(report func(Mismatch)) *Checker {
	return &Checker{s: s, report: report, flagged: -1, counted: -1}
}

// Done reports whether the first top-level value has closed: every check
// has been made.
func (c *Checker) Done() bool { return c.done }

// Event checks one event of the arguments' stream.
func (c *Checker) Event(e Event) {
	if c.done {
		return
	}
	switch e.Kind {
	case Key:
		f := &c.stack[len(c.stack)-1]
		var k string
		if json.Unmarshal(e.Value, &k) != nil {
			return
		}
		f.member, f.memberOK = nil, true
		if f.n == nil {
			return
		}
		f.member, f.memberOK = f.n.member(k)
		if !f.memberOK {
			c.report(f.n.unknown(e.Path))
		}
		if len(f.n.required) > 0 {
			if f.seen == nil {
				f.seen = map[string]bool{}
			}
			f.seen[k] = true
		}
	case Begin:
		n, ok := c.element(e)
		object := len(e.Value) > 0 && e.Value[0] == '{'
		if ok && n != nil {
			var v any = []any(nil)
			if object {
				v = map[string]any(nil)
			}
			if !c.containerOK(n, v, object, e.Path) {
				n = nil
			}
		}
		c.started = true
		c.stack = append(c.stack, checkFrame{n: n, object: object})
	case End:
		if len(c.stack) == 0 {
			return
		}
		f := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		if f.n != nil && f.object {
			for _, r := range f.n.required {
				if !f.seen[r] {
					c.report(Mismatch{Kind: Missing, Path: e.Path + "/" + pointerKey(r), Rule: "required", Want: r})
				}
			}
		}
		if f.n != nil && !f.object && f.count < f.n.minItems {
			c.report(Mismatch{Kind: TooSmall, Path: e.Path, Rule: "minItems", Want: strconv.Itoa(f.n.minItems), Got: strconv.Itoa(f.count)})
		}
		c.done = len(c.stack) == 0
	case Partial:
		if e.Offset == c.flagged {
			return
		}
		n, ok := c.element(e)
		if !ok || n == nil {
			return
		}
		if n.never {
			c.flagged = e.Offset
			c.report(Mismatch{Kind: NotAllowed, Path: e.Path, Rule: "false", Got: partialText(e)})
			return
		}
		var v any = json.Number("0") // a number; only its end can tell a fraction
		if e.Quoted {
			v = ""
		}
		if got, ok := n.typeOK(v); !ok {
			c.flagged = e.Offset
			c.report(Mismatch{Kind: WrongType, Path: e.Path, Rule: "type", Want: n.typeList(), Got: got})
		}
	case Value:
		n, ok := c.element(e)
		flagged := e.Offset == c.flagged
		c.flagged = -1
		c.started = true
		c.done = len(c.stack) == 0
		if !ok || n == nil || flagged {
			return
		}
		d := json.NewDecoder(bytes.NewReader(e.Value))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		c.scratch = c.scratch[:0]
		n.scalarOK(v, e.Path, &c.scratch)
		for _, m := range c.scratch {
			c.report(m)
		}
	}
}

// node returns the schema of the value the stream is in, and whether it is
// to be checked at all (not after the first top-level value, nor inside
// an unknown member).
func (c *Checker) node() (*node, bool) {
	if len(c.stack) == 0 {
		if c.started {
			return nil, false
		}
		return c.s.root, true
	}
	f := &c.stack[len(c.stack)-1]
	if f.object {
		return f.member, f.memberOK
	}
	if f.n == nil {
		return nil, true
	}
	return f.n.items, true
}

// element is node for the value of e: it also counts an array's element,
// once, at its first event, and reports one beyond maxItems.
func (c *Checker) element(e Event) (*node, bool) {
	n, ok := c.node()
	if e.Offset == c.counted {
		return n, ok
	}
	c.counted = e.Offset
	path := e.Path
	if len(c.stack) > 0 {
		f := &c.stack[len(c.stack)-1]
		if !f.object && f.n != nil {
			f.count++
			if f.n.maxItems >= 0 && f.count == f.n.maxItems+1 {
				c.report(Mismatch{Kind: TooLarge, Path: parentPath(path), Rule: "maxItems", Want: strconv.Itoa(f.n.maxItems), Got: strconv.Itoa(f.count)})
			}
		}
	}
	return n, ok
}

// containerOK checks the opening of an object or array, v an empty one,
// against n, and reports whether what is inside is to be checked.
func (c *Checker) containerOK(n *node, v any, object bool, at string) bool {
	if n.never {
		c.report(Mismatch{Kind: NotAllowed, Path: at, Rule: "false", Got: map[bool]string{true: "{…}", false: "[…]"}[object]})
		return false
	}
	if got, ok := n.typeOK(v); !ok {
		c.report(Mismatch{Kind: WrongType, Path: at, Rule: "type", Want: n.typeList(), Got: got})
		return false
	}
	kindOf := func(e any) bool {
		switch e.(type) {
		case map[string]any:
			return object
		case []any:
			return !object
		}
		return false
	}
	got := map[bool]string{true: "{…}", false: "[…]"}[object]
	if n.enum != nil && !slicesContains(n.enum, kindOf) {
		c.report(Mismatch{Kind: NotAllowed, Path: at, Rule: "enum", Want: enumList(n.enum), Got: got})
	}
	if n.hasConst && !kindOf(n.konst) {
		c.report(Mismatch{Kind: NotAllowed, Path: at, Rule: "const", Want: shortJSON(n.konst), Got: got})
	}
	return true
}

func slicesContains(vals []any, f func(any) bool) bool {
	for _, v := range vals {
		if f(v) {
			return true
		}
	}
	return false
}

// parentPath cuts the last segment off a JSON pointer.
func parentPath(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return ""
}

// partialText is a partial value for a message: the text so far, marked
// as unfinished.
func partialText(e Event) string {
	s := string(e.Value)
	if e.Quoted {
		s = strconv.Quote(s)
		s = s[:len(s)-1]
	}
	if len(s) > maxShownValue {
		k := maxShownValue
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		s = s[:k]
	}
	return s + "…"
}
