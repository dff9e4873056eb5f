package toolcall

import (
	"fmt"
	"strings"
)

// span is a range of byte offsets of the text.
type span struct{ start, end int }

// extractor holds the state of one Extract.
type extractor struct {
	text   string
	b      []byte // text, for the Parser
	blocks []block

	calls      []Call
	cuts       []span // taken out of the prose: calls and the cut-off call
	rejected   string // why the first JSON value that is not a call is not
	incomplete bool
	partial    string
	reason     string

	p     *Parser
	known map[int]int // from broken values: where a container inside ends, or -1
	work  int         // bytes read so far, to stop at the budget
	candidate
}

// budget bounds the bytes Extract reads for a text of n bytes. Real
// outputs use a little over n; only crafted ones, such as thousands of
// brackets inside strings, come near it, and their remaining text is left
// as prose.
func budget(n int) int { return 8*n + 1<<16 }

// newExtractor returns an extractor for text.
func newExtractor(text string) *extractor {
	x := &extractor{text: text, b: []byte(text)}
	x.p = NewParser(x.event)
	x.p.stopAtTop, x.p.noPath = true, true
	return x
}

// run scans the prose and the blocks that may hold calls, in text order,
// until the end or the first cut-off call.
func (x *extractor) run() {
	x.blocks = findBlocks(x.text)
	from := 0
	for _, b := range x.blocks {
		if x.scan(from, b.start) || b.scan && x.scan(b.bodyStart, b.bodyEnd) {
			return
		}
		from = b.end
	}
	x.scan(from, len(x.text))
}

// scan looks for calls in text[from:to], trying each '{' and '[' that is
// not inside a JSON value already read. It reports whether scanning must
// stop because a call is cut off or unusable.
func (x *extractor) scan(from, to int) bool {
	// Trailing spaces cannot finish a value, and a newline there (before a
	// closing fence, say) would break a string that was cut off.
	to = from + len(strings.TrimRight(x.text[from:to], " \t\r\n"))
	for i := from; i < to; {
		j := strings.IndexAny(x.text[i:to], "{[")
		if j < 0 {
			return false
		}
		start := i + j
		if x.work > budget(len(x.text)) {
			return false
		}
		if end, ok := x.known[start]; ok && end < 0 {
			i = start + 1 // it breaks where the value around it broke
			continue
		}
		switch end, st, err := x.read(start, to); st {
		case complete:
			if x.take(start, end) {
				return true
			}
			i = end
		case truncated:
			if x.named {
				x.cutOff(start, to, fmt.Sprintf("the JSON %s starting at byte %d ends before it is closed", x.what(), start))
				return true
			}
			// The rest of the region is an unclosed value that is no call.
			return false
		default:
			if x.named && x.hasArgs {
				// Both a name and arguments: a call the model garbled.
				x.cutOff(start, end, fmt.Sprintf("the tool call starting at byte %d is not valid JSON: %s at byte %d", start, syntaxMsg(err), end))
				return true
			}
			i = start + 1
		}
	}
	return false
}

// take judges the complete JSON value text[start:end] and records what it
// is. It reports whether it is an unusable call, which stops the scan.
func (x *extractor) take(start, end int) bool {
	if x.top == '{' {
		call, v, why := classify(x.b[start:end], start)
		switch v {
		case isCall:
			x.calls = append(x.calls, call)
			x.cuts = append(x.cuts, span{start, end})
			return false
		case badCall:
			x.stop(why, x.text[start:end], span{start, end})
			return true
		}
		calls, v, why := unwrapCalls(x.b[start:end], start)
		switch v {
		case isCall:
			x.calls = append(x.calls, calls...)
			x.cuts = append(x.cuts, span{start, end})
		case badCall:
			x.calls = append(x.calls, calls...)
			x.stop(why, x.text[start:end], span{start, end})
			return true
		default:
			x.reject("the JSON object at byte %d is not a tool call", start)
		}
		return false
	}
	if x.scalarElem || len(x.elems) == 0 {
		x.reject("the JSON array at byte %d is not a list of tool calls", start)
		return false
	}
	calls := make([]Call, 0, len(x.elems))
	bad, why := -1, ""
	for i, e := range x.elems {
		call, v, reason := classify(x.b[e.start:e.end], e.start)
		switch {
		case v == notCall:
			x.reject("the JSON array at byte %d is not a list of tool calls", start)
			return false
		case v == badCall && bad < 0:
			bad, why = i, reason
		case bad < 0:
			calls = append(calls, call)
		}
	}
	x.calls = append(x.calls, calls...)
	if bad >= 0 {
		e := x.elems[bad]
		x.stop(why, x.text[e.start:e.end], span{start, end})
		return true
	}
	x.cuts = append(x.cuts, span{start, end})
	return false
}

// cutOff records the call or array of calls at text[start:end] that was
// cut off or garbled at end, and the complete calls in it before that.
func (x *extractor) cutOff(start, end int, reason string) {
	if x.top == '{' {
		x.stop(reason, strings.TrimSpace(x.text[start:end]), span{start, end})
		return
	}
	rest := start
	for _, e := range x.elems {
		call, v, why := classify(x.b[e.start:e.end], e.start)
		if v == badCall {
			x.stop(why, x.text[e.start:e.end], span{start, end})
			return
		}
		if v == isCall {
			x.calls = append(x.calls, call)
		}
		rest = e.end
	}
	partial := strings.TrimSpace(strings.TrimLeft(x.text[rest:end], " \t\r\n,"))
	if partial == "" {
		partial = strings.TrimSpace(x.text[start:end])
	}
	x.stop(reason, partial, span{start, end})
}

// stop records an Incomplete result.
func (x *extractor) stop(reason, partial string, cut span) {
	x.incomplete, x.reason, x.partial = true, reason, partial
	x.cuts = append(x.cuts, cut)
}

// what names the kind of the value being read.
func (x *extractor) what() string {
	if x.top == '[' {
		return "array"
	}
	return "object"
}

// reject remembers why the first JSON value that is not a call is not.
func (x *extractor) reject(format string, at int) {
	if x.rejected == "" {
		x.rejected = fmt.Sprintf(format, at)
	}
}

// syntaxMsg returns the message of a *SyntaxError without its offset.
func syntaxMsg(err error) string {
	if se, ok := err.(*SyntaxError); ok {
		return se.Msg
	}
	return err.Error()
}
