package toolcall

// beginScalar starts a string, number or literal (or a key, if key) at
// b[i] of the current chunk.
func (p *Parser) beginScalar(i int, key bool) {
	p.isKey = key
	p.sIdx = i
	p.start = p.off + int64(i)
	if cap(p.buf) > bigScalar {
		p.buf, p.dec = nil, nil
	}
	p.buf = p.buf[:0]
	p.dec = p.dec[:0]
	p.decRaw = 0
	p.sentPart = false
	p.partLen = 0
}

// scalarRaw returns the raw bytes of the scalar in progress if it ends just
// before b[e]: a slice of b if it started in this chunk, else of buf.
func (p *Parser) scalarRaw(b []byte, e int) []byte {
	if p.sIdx >= 0 {
		return b[p.sIdx:e]
	}
	p.buf = append(p.buf, b[:e]...)
	return p.buf
}

// endString ends the string or key whose closing quote is b[e-1].
func (p *Parser) endString(b []byte, e int) {
	raw := p.scalarRaw(b, e)
	if !p.isKey {
		p.send(Value, raw, p.start)
		p.afterValue(true)
		return
	}
	p.setKey(&p.stack[len(p.stack)-1], raw)
	p.send(Key, raw, p.start)
	p.state = stColon
}

// endScalar ends the number or literal whose last byte is b[e-1].
func (p *Parser) endScalar(b []byte, e int) {
	p.send(Value, p.scalarRaw(b, e), p.start)
	p.afterValue(true)
}

// partial sends a Partial event for a string or number value that the
// chunk left unfinished, if it grew since the last one. Decoding is
// incremental, so a long string streamed in small chunks costs linear time.
func (p *Parser) partial() {
	if p.emit == nil || p.isKey {
		return
	}
	switch p.state {
	case stString, stEscape, stUnicode:
		var used int
		p.dec, used = appendUnquoted(p.dec, p.buf[1+p.decRaw:], true)
		p.decRaw += used
		if !p.sentPart || len(p.dec) > p.partLen {
			p.sentPart, p.partLen = true, len(p.dec)
			p.emit(Event{Kind: Partial, Path: p.pathString(), Value: p.dec, Offset: p.start, Quoted: true})
		}
	case stLiteral:
	default:
		if len(p.buf) > p.partLen {
			p.sentPart, p.partLen = true, len(p.buf)
			p.send(Partial, p.buf, p.start)
		}
	}
}
