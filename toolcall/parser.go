package toolcall

import (
	"errors"
	"strconv"
)

// maxDepth is the deepest nesting a Parser accepts, the same as
// encoding/json's, so that both refuse the same documents.
const maxDepth = 10000

// bigScalar is the buffer capacity above which a Parser lets go of its
// scalar buffer once the scalar is done, so that one huge string does not
// pin its memory for the rest of the stream.
const bigScalar = 1 << 20

// state is where a Parser is in the JSON grammar.
type state uint8

const (
	stTop            state = iota // between top-level values
	stTopAfterScalar              // just after a top-level scalar: whitespace must follow
	stValue                       // a value must come (after ':' or an array's ',')
	stValueOrEnd                  // after '[': a value or ']'
	stKey                         // after an object's ',': a key must come
	stKeyOrEnd                    // after '{': a key or '}'
	stColon                       // after a key: ':' must come
	stComma                       // after a member or element: ',' or the closing byte
	stString                      // inside a string literal
	stEscape                      // after '\' in a string
	stUnicode                     // inside the four hex digits of \uXXXX
	stMinus                       // after a number's '-'
	stZero                        // after a number's leading 0
	stInt                         // in a number's integer digits
	stDot                         // after a number's '.'
	stFrac                        // in a number's fraction digits
	stExp                         // after a number's 'e' or 'E'
	stExpSign                     // after the exponent's sign
	stExpDigits                   // in the exponent's digits
	stLiteral                     // inside true, false or null
)

// frame is one open object or array.
type frame struct {
	object  bool
	index   int // the current element's index, for arrays
	pathLen int // length of the path of the object or array itself
}

// Parser reads a stream of JSON text in chunks of any size and reports each
// step to a callback as an [Event], without waiting for a value to be
// complete: a tool call's arguments can be shown as they stream in.
//
// The stream may hold several top-level values, one after another, as
// [encoding/json.Decoder] reads them: the Parser starts afresh after each.
// Objects and arrays may be followed directly by the next value ({...}{...});
// after a top-level string, number, true, false or null, whitespace must
// come first, so "12" is one number and "1x" or "01" is an error.
//
// The Parser accepts exactly what [encoding/json.Valid] accepts for each
// value: invalid UTF-8 and lone surrogates (\ud800) inside strings are
// accepted, and nesting deeper than 10,000 levels is refused. Its memory is
// the path of the current value and the current scalar (a string or number
// that spans chunks), never the whole stream. Each event's Path is a new
// string only when the path changed, at a cost that grows with its length:
// tool arguments are shallow, but a document nested thousands deep costs
// time quadratic in its depth.
//
// The zero Parser only checks syntax, like NewParser(nil). A Parser is not
// safe for concurrent use.
type Parser struct {
	emit    func(Event)
	off     int64 // stream offset of the next byte
	state   state
	stack   []frame
	path    []byte
	pathStr string // string(path), when pathOK
	pathOK  bool
	err     error // sticky: a *SyntaxError, or the error of Close
	closed  bool

	// The scalar (or key) in progress.
	isKey   bool
	sIdx    int    // where it starts in the current chunk, or -1 if in buf
	start   int64  // its stream offset
	buf     []byte // its raw bytes from earlier chunks
	lit     string // for stLiteral: the literal being matched
	litPos  int    // for stLiteral: bytes of lit matched so far
	hexLeft int    // for stUnicode: hex digits still to come

	// Partial events of the scalar in progress.
	dec      []byte // decoded text of buf's string body so far
	decRaw   int    // bytes of the body decoded into dec
	sentPart bool   // a Partial was sent for this scalar
	partLen  int    // length of the last Partial's value

	keyText []byte // scratch for decoding keys with escapes

	stopAtTop bool // feed stops after the first top-level value
	stopped   bool // the first top-level value is complete
	noPath    bool // events carry no path (Extract needs none)
}

// NewParser returns a Parser that calls emit for every [Event], in stream
// order, from within Write and Close. A nil emit only checks the syntax.
func NewParser(emit func(Event)) *Parser {
	return &Parser{emit: emit}
}

// Write parses b, the next bytes of the stream; the split between calls
// may fall anywhere, even inside an escape or a UTF-8 sequence. It returns
// len(b), or the number of bytes before the first offending one with a
// *[SyntaxError]; after an error every Write and Close fails with it.
func (p *Parser) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	if p.closed {
		return 0, errors.New("toolcall: Parser.Write after Close")
	}
	n, err := p.feed(b)
	p.off += int64(n)
	if err != nil {
		p.err = err
	}
	return n, err
}

// Close ends the stream. It returns nil if the stream ended between
// top-level values (a number at the very end is complete there), the
// sticky *[SyntaxError] if Write failed, and an *[IncompleteError] naming
// the path where the stream stopped otherwise. Calling it again returns
// the same.
func (p *Parser) Close() error {
	if p.err != nil || p.closed {
		return p.err
	}
	p.closed = true
	switch p.state {
	case stTop, stTopAfterScalar:
		return nil
	case stZero, stInt, stFrac, stExpDigits:
		if len(p.stack) == 0 {
			p.send(Value, p.buf, p.start)
			return nil
		}
	}
	p.err = &IncompleteError{Path: p.pathString(), Offset: p.off}
	return p.err
}

// reset makes p ready for a new stream, keeping its buffers.
func (p *Parser) reset() {
	*p = Parser{
		emit:      p.emit,
		stack:     p.stack[:0],
		path:      p.path[:0],
		buf:       p.buf[:0],
		dec:       p.dec[:0],
		keyText:   p.keyText[:0],
		stopAtTop: p.stopAtTop,
		noPath:    p.noPath,
	}
}

// send reports one event with the current path.
func (p *Parser) send(k EventKind, v []byte, off int64) {
	if p.emit != nil {
		p.emit(Event{Kind: k, Path: p.pathString(), Value: v, Offset: off})
	}
}

// pathString returns the current path, building the string only when the
// path changed since the last call.
func (p *Parser) pathString() string {
	if !p.pathOK {
		p.pathStr = string(p.path)
		p.pathOK = true
	}
	return p.pathStr
}

// setIndex makes the path end with the index of the top frame's element.
func (p *Parser) setIndex(f *frame) {
	if p.noPath {
		return
	}
	p.path = strconv.AppendInt(append(p.path[:f.pathLen], '/'), int64(f.index), 10)
	p.pathOK = false
}

// setKey makes the path end with the key whose raw literal is raw.
func (p *Parser) setKey(f *frame, raw []byte) {
	if p.noPath {
		return
	}
	p.path = append(p.path[:f.pathLen], '/')
	p.path, p.keyText = appendPathKey(p.path, raw[1:len(raw)-1], p.keyText)
	p.pathOK = false
}

// truncPath cuts the path back to length n.
func (p *Parser) truncPath(n int) {
	if len(p.path) != n {
		p.path = p.path[:n]
		p.pathOK = false
	}
}
