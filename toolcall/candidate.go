package toolcall

// status is how the JSON value at a '{' or '[' of the text turned out.
type status int

const (
	broken    status = iota // not JSON: a brace in prose
	complete                // a whole value
	truncated               // valid so far, but its region ended first
)

// candidate is what the extractor learns from the events of the value it
// is reading.
type candidate struct {
	base       int  // offset of the value in the text
	top        byte // its first byte: '{' or '['
	depth      int  // objects and arrays open
	named      bool // it has a call's name member where a call would
	hasArgs    bool // and an arguments member where a call would
	inFunction bool // a "function" member was seen where a call's name would be
	scalarElem bool // it is an array with an element that is no object or array
	elems      []span
	elemStart  int
	nested     []span // containers inside it: where they start and end (-1: still open)
	open       []int  // indices in nested of the containers still open
}

// read parses the value that starts at text[start], a '{' or '[', up to
// to at most, and returns where it ends; for a broken value, the offset of
// the first byte that is not JSON, and the parser's error.
func (x *extractor) read(start, to int) (int, status, error) {
	x.p.reset()
	x.candidate = candidate{base: start, top: x.text[start], elems: x.elems[:0], nested: x.nested[:0], open: x.open[:0]}
	n, err := x.p.feed(x.b[start:to])
	switch {
	case x.p.stopped:
		x.work += n
		return start + n, complete, nil
	case err != nil:
		x.work += n
		x.remember()
		return start + n, broken, err
	}
	x.work += to - start
	return to, truncated, nil
}

// remember keeps what a broken value showed about the containers nested in
// it, so that they need not be read again: each one that closed is a
// complete value there, and each one still open breaks at the same byte,
// since the grammar is in the same state there. (Except when the outer
// value broke for nesting too deep; a call nested ten thousand levels deep
// in a stray bracket is lost then.)
func (x *extractor) remember() {
	if len(x.nested) == 0 {
		return
	}
	if x.known == nil {
		x.known = make(map[int]int, len(x.nested))
	}
	for _, c := range x.nested {
		x.known[c.start] = c.end
	}
}

// event follows the structure of the value being read: the spans of a top
// array's elements, and where call names appear.
func (x *extractor) event(e Event) {
	inArray := x.top == '['
	switch e.Kind {
	case Begin:
		x.depth++
		if x.depth > 1 {
			x.open = append(x.open, len(x.nested))
			x.nested = append(x.nested, span{x.base + int(e.Offset), -1})
		}
		if inArray && x.depth == 2 {
			x.elemStart = x.base + int(e.Offset)
		}
	case End:
		if x.depth > 1 {
			x.nested[x.open[len(x.open)-1]].end = x.base + int(e.Offset) + 1
			x.open = x.open[:len(x.open)-1]
		}
		if inArray && x.depth == 2 {
			x.elems = append(x.elems, span{x.elemStart, x.base + int(e.Offset) + 1})
		}
		x.depth--
	case Key:
		level := x.depth // 1 for a call's members, 2 inside its "function"
		if inArray {
			level--
		}
		switch string(e.Value) {
		case `"name"`, `"tool"`, `"function"`:
			if level == 1 {
				x.named = true
				x.inFunction = x.inFunction || string(e.Value) == `"function"`
			}
		case `"tool_calls"`:
			if level == 1 && !inArray {
				x.named = true // a list of calls: cut off, it is worth a retry too
			}
		case `"arguments"`, `"args"`, `"parameters"`, `"input"`:
			if level == 1 || level == 2 && x.inFunction {
				x.hasArgs = true
			}
		}
	case Value:
		if x.depth == 1 && inArray {
			x.scalarElem = true
		}
	}
}
