package toolcall

import (
	"encoding/binary"
	"strconv"
)

// feed runs the grammar over b and returns how many bytes it consumed:
// len(b), or the index of the offending byte with a *SyntaxError, or, with
// stopAtTop, the index just after the first complete top-level value.
func (p *Parser) feed(b []byte) (int, error) {
	p.sIdx = -1 // a scalar carried over from the last chunk is in buf
	n := len(b)
	i := 0
	for i < n {
		c := b[i]
		switch p.state {
		case stTop, stValue:
			if isSpace(c) {
				i++
				continue
			}
			if err := p.beginValue(b, i); err != nil {
				return i, err
			}
			i++
		case stTopAfterScalar:
			if !isSpace(c) {
				return i, p.syntax(i, c, "after top-level value")
			}
			p.state = stTop
			i++
		case stValueOrEnd:
			if isSpace(c) {
				i++
				continue
			}
			if c == ']' {
				p.closeContainer(b, i)
			} else if err := p.beginValue(b, i); err != nil {
				return i, err
			}
			i++
		case stKeyOrEnd, stKey:
			if isSpace(c) {
				i++
				continue
			}
			switch {
			case c == '"':
				p.beginScalar(i, true)
				p.state = stString
			case c == '}' && p.state == stKeyOrEnd:
				p.closeContainer(b, i)
			default:
				return i, p.syntax(i, c, "looking for beginning of object key string")
			}
			i++
		case stColon:
			if isSpace(c) {
				i++
				continue
			}
			if c != ':' {
				return i, p.syntax(i, c, "after object key")
			}
			p.state = stValue
			i++
		case stComma:
			if isSpace(c) {
				i++
				continue
			}
			if err := p.comma(b, i); err != nil {
				return i, err
			}
			i++
		case stString:
			i = stringRun(b, i)
			if i == n {
				break
			}
			switch c = b[i]; {
			case c == '"':
				i++
				p.endString(b, i)
			case c == '\\':
				p.state = stEscape
				i++
			default:
				return i, p.syntax(i, c, "in string literal")
			}
		case stEscape:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.state = stString
			case 'u':
				p.state = stUnicode
				p.hexLeft = 4
			default:
				return i, p.syntax(i, c, "in string escape code")
			}
			i++
		case stUnicode:
			if !isHex(c) {
				return i, p.syntax(i, c, "in \\u hexadecimal character escape")
			}
			if p.hexLeft--; p.hexLeft == 0 {
				p.state = stString
			}
			i++
		case stMinus:
			switch {
			case c == '0':
				p.state = stZero
			case '1' <= c && c <= '9':
				p.state = stInt
			default:
				return i, p.syntax(i, c, "in numeric literal")
			}
			i++
		case stInt, stFrac, stExpDigits:
			for i < n && isDigit(b[i]) {
				i++
			}
			if i == n {
				break
			}
			p.afterDigits(b, i)
			if p.state == stDot || p.state == stExp {
				i++
			}
		case stZero:
			p.afterDigits(b, i)
			if p.state == stDot || p.state == stExp {
				i++
			}
		case stDot:
			if !isDigit(c) {
				return i, p.syntax(i, c, "after decimal point in numeric literal")
			}
			p.state = stFrac
			i++
		case stExp:
			switch {
			case c == '+' || c == '-':
				p.state = stExpSign
			case isDigit(c):
				p.state = stExpDigits
			default:
				return i, p.syntax(i, c, "in exponent of numeric literal")
			}
			i++
		case stExpSign:
			if !isDigit(c) {
				return i, p.syntax(i, c, "in exponent of numeric literal")
			}
			p.state = stExpDigits
			i++
		case stLiteral:
			if want := p.lit[p.litPos]; c != want {
				return i, p.syntax(i, c, "in literal "+p.lit+" (expecting "+quoteChar(want)+")")
			}
			i++
			if p.litPos++; p.litPos == len(p.lit) {
				p.endScalar(b, i)
			}
		}
		if p.stopped {
			return i, nil
		}
	}
	if p.state >= stString {
		if p.sIdx >= 0 {
			p.buf = append(p.buf[:0], b[p.sIdx:]...)
		} else {
			p.buf = append(p.buf, b...)
		}
		p.partial()
	}
	return n, nil
}

// afterDigits handles the byte at b[i] after a run of number digits (or a
// leading zero): it continues the number with '.' or an exponent where the
// grammar allows, and otherwise ends the number before b[i], leaving b[i]
// to the state that follows.
func (p *Parser) afterDigits(b []byte, i int) {
	c := b[i]
	switch {
	case c == '.' && (p.state == stZero || p.state == stInt):
		p.state = stDot
	case (c == 'e' || c == 'E') && p.state != stExpDigits:
		p.state = stExp
	default:
		p.endScalar(b, i)
	}
}

// beginValue starts the value whose first byte is b[i].
func (p *Parser) beginValue(b []byte, i int) error {
	c := b[i]
	switch c {
	case '{', '[':
		if len(p.stack) >= maxDepth {
			return &SyntaxError{Offset: p.off + int64(i), Msg: "exceeded max depth of " + strconv.Itoa(maxDepth)}
		}
		p.send(Begin, b[i:i+1], p.off+int64(i))
		p.stack = append(p.stack, frame{object: c == '{', pathLen: len(p.path)})
		if c == '{' {
			p.state = stKeyOrEnd
		} else {
			p.setIndex(&p.stack[len(p.stack)-1])
			p.state = stValueOrEnd
		}
		return nil
	case '"':
		p.state = stString
	case '-':
		p.state = stMinus
	case '0':
		p.state = stZero
	case 't', 'f', 'n':
		p.state = stLiteral
		p.lit = literalFor(c)
		p.litPos = 1
	default:
		if c < '1' || c > '9' {
			return p.syntax(i, c, "looking for beginning of value")
		}
		p.state = stInt
	}
	p.beginScalar(i, false)
	return nil
}

// literalFor returns the literal that starts with c: 't', 'f' or 'n'.
func literalFor(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	}
	return "null"
}

// comma handles the byte after a member or element: ',' or the closing
// byte of the object or array.
func (p *Parser) comma(b []byte, i int) error {
	c := b[i]
	f := &p.stack[len(p.stack)-1]
	switch {
	case c == ',' && f.object:
		p.truncPath(f.pathLen)
		p.state = stKey
	case c == ',':
		f.index++
		p.setIndex(f)
		p.state = stValue
	case c == '}' && f.object, c == ']' && !f.object:
		p.closeContainer(b, i)
	case f.object:
		return p.syntax(i, c, "after object key:value pair")
	default:
		return p.syntax(i, c, "after array element")
	}
	return nil
}

// closeContainer ends the innermost object or array at its closing byte b[i].
func (p *Parser) closeContainer(b []byte, i int) {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	p.truncPath(f.pathLen)
	p.send(End, b[i:i+1], p.off+int64(i))
	p.afterValue(false)
}

// afterValue moves on after a complete value.
func (p *Parser) afterValue(scalar bool) {
	if len(p.stack) > 0 {
		p.state = stComma
		return
	}
	p.state = stTop
	if scalar {
		p.state = stTopAfterScalar
	}
	p.stopped = p.stopAtTop
}

// syntax returns the *SyntaxError for the byte c at b[i].
func (p *Parser) syntax(i int, c byte, context string) error {
	return &SyntaxError{Offset: p.off + int64(i), Msg: "invalid character " + quoteChar(c) + " " + context}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// stringRun returns the index of the first byte at or after i that is not
// plain string content: '"', '\' or a control character; len(b) if none.
// It tests eight bytes at a time, since tool arguments are mostly long
// strings.
func stringRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ (ones * '"')
		s := x ^ (ones * '\\')
		// Each term is non-zero exactly when some byte is below 0x20,
		// equals '"' or equals '\' (the classic "has zero byte" trick).
		if ((x-ones*0x20)&^x|(q-ones)&^q|(s-ones)&^s)&highs != 0 {
			break
		}
		i += 8
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}
