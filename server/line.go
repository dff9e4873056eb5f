package server

import (
	"encoding/base64"
	"io"
	"sync"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// This file writes a large response in pieces. A tools/call result whose
// blocks are large (the text of a file read, an image) is encoded as a
// frame, the response with those values left out, and the values go
// from the result straight to the transport, escaped (or base64-encoded)
// into one bounded buffer at a time while the transport holds its output
// lock. No encoded copy of the whole response ever exists: the text of a
// file is held once, by the result, on its way out, and nothing comes
// between the pieces of the line.

const (
	// chunkSize is the size of the buffer a line in pieces is written
	// through: the most one write to the transport carries.
	chunkSize = 64 << 10
	// splitAbove is the estimated size above which a result is written in
	// pieces. A smaller one is encoded into one buffer and written with
	// one call, which costs less than the pieces.
	splitAbove = chunkSize
	// partMin is the size from which a value of a result written in
	// pieces is one of the pieces; a shorter one goes into the frame.
	partMin = 1 << 10
)

// line is a response written in pieces: frame is the whole line, newline
// included, but for the parts, each of which goes at its offset in
// frame.
type line struct {
	frame []byte
	parts []linePart
}

// linePart is one large value of a line: a text written as the inside
// of a JSON string, bytes written as base64, or JSON text written as it
// is.
type linePart struct {
	at   int
	kind partKind
	text string
	data []byte
}

type partKind uint8

const (
	partText partKind = iota
	partBase64
	partRaw
)

// addText appends s to the frame as a JSON string, or, when it is long
// and parts are wanted (minPart > 0), the quotes and a part between them.
func (l *line) addText(s string, minPart int) {
	if minPart <= 0 || len(s) < minPart {
		l.frame = appendString(l.frame, s)
		return
	}
	l.frame = append(l.frame, '"')
	l.parts = append(l.parts, linePart{at: len(l.frame), kind: partText, text: s})
	l.frame = append(l.frame, '"')
}

// addBase64 appends data in base64, or a part for it.
func (l *line) addBase64(data []byte, minPart int) {
	if minPart <= 0 || len(data) < minPart {
		l.frame = base64.StdEncoding.AppendEncode(l.frame, data)
		return
	}
	l.parts = append(l.parts, linePart{at: len(l.frame), kind: partBase64, data: data})
}

// addRaw appends JSON text that is compact and valid as it is, or a part
// for it.
func (l *line) addRaw(raw []byte, minPart int) {
	if minPart <= 0 || len(raw) < minPart {
		l.frame = append(l.frame, raw...)
		return
	}
	l.parts = append(l.parts, linePart{at: len(l.frame), kind: partRaw, data: raw})
}

// len returns the length of the whole line, newline included. It goes
// over every text part once more, so it is for those who need the size
// before the line is written: an HTTP reply's Content-Length, a debug log.
func (l *line) len() int {
	n := len(l.frame)
	for _, p := range l.parts {
		switch p.kind {
		case partText:
			n += jsonwire.QuotedLen(p.text, false) - 2
		case partBase64:
			n += base64.StdEncoding.EncodedLen(len(p.data))
		case partRaw:
			n += len(p.data)
		}
	}
	return n
}

// head returns the frame up to its first part, for a log line.
func (l *line) head() []byte {
	if len(l.parts) == 0 {
		return l.frame
	}
	return l.frame[:l.parts[0].at]
}

// writeTo writes prefix, the line with end in place of its newline, to w
// through buf, whose capacity (at least [jsonwire.MaxEscape]) bounds every
// write: the frame and the values of the parts are copied or encoded into
// it and written whenever it is full. Only a raw part larger than buf is
// written straight from the result. It returns the first error of w;
// what came before it was written.
func (l *line) writeTo(w io.Writer, buf []byte, prefix, end string) error {
	cw := chunkWriter{w: w, buf: buf[:0]}
	cw.writeString(prefix)
	at := 0
	for _, p := range l.parts {
		cw.write(l.frame[at:p.at])
		at = p.at
		switch p.kind {
		case partText:
			cw.escape(p.text)
		case partBase64:
			cw.base64(p.data)
		case partRaw:
			cw.write(p.data)
		}
	}
	cw.write(l.frame[at : len(l.frame)-1]) // without the newline
	cw.writeString(end)
	return cw.flush()
}

// chunkWriter writes to w through buf, which it never grows. After an
// error it writes nothing more.
type chunkWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// write copies p into the buffer, or writes it straight to w when the
// buffer is empty and p would fill it.
func (cw *chunkWriter) write(p []byte) {
	for len(p) > 0 && cw.err == nil {
		if len(cw.buf) == 0 && len(p) >= cap(cw.buf) {
			_, cw.err = cw.w.Write(p)
			return
		}
		n := copy(cw.buf[len(cw.buf):cap(cw.buf)], p)
		cw.buf, p = cw.buf[:len(cw.buf)+n], p[n:]
		if len(cw.buf) == cap(cw.buf) {
			cw.flush()
		}
	}
}

// writeString copies s, a few bytes, into the buffer.
func (cw *chunkWriter) writeString(s string) {
	for len(s) > 0 && cw.err == nil {
		n := copy(cw.buf[len(cw.buf):cap(cw.buf)], s)
		cw.buf, s = cw.buf[:len(cw.buf)+n], s[n:]
		if len(cw.buf) == cap(cw.buf) {
			cw.flush()
		}
	}
}

// escape writes s as the inside of a JSON string, as appendString writes
// it, a buffer at a time.
func (cw *chunkWriter) escape(s string) {
	for len(s) > 0 && cw.err == nil {
		if cap(cw.buf)-len(cw.buf) < jsonwire.MaxEscape {
			cw.flush()
			continue
		}
		var n int
		cw.buf, n = jsonwire.AppendStringPart(cw.buf, s, false)
		s = s[n:]
	}
}

// base64 writes data in standard base64 with padding, a buffer at a time:
// each piece but the last is a multiple of three bytes, so the pieces'
// encodings joined are the encoding of the whole.
func (cw *chunkWriter) base64(data []byte) {
	for len(data) > 0 && cw.err == nil {
		n := (cap(cw.buf) - len(cw.buf)) / 4 * 3
		if n == 0 {
			cw.flush()
			continue
		}
		n = min(n, len(data))
		cw.buf = base64.StdEncoding.AppendEncode(cw.buf, data[:n])
		data = data[n:]
	}
}

// flush writes what the buffer holds and empties it.
func (cw *chunkWriter) flush() error {
	if cw.err == nil && len(cw.buf) > 0 {
		_, cw.err = cw.w.Write(cw.buf)
	}
	cw.buf = cw.buf[:0]
	return cw.err
}

// chunkPool keeps the buffers that lines in pieces are written through,
// so that a server writing many large answers allocates a few of them.
// Each is chunkSize bytes, whatever the size of the answers, and the
// pool lets the collector have the idle ones.
type chunkPool struct{ p sync.Pool }

func (cp *chunkPool) get() *[chunkSize]byte {
	if b, ok := cp.p.Get().(*[chunkSize]byte); ok {
		return b
	}
	return new([chunkSize]byte)
}

func (cp *chunkPool) put(b *[chunkSize]byte) { cp.p.Put(b) }

// framePool keeps the buffers of the response lines already written, so
// that the next call's line is encoded into one rather than into memory
// the collector must find again: a call's answer is written before the
// call ends (a peer keeps nothing of what it writes), and its frame is
// given back then. Frames of more than maxPooledFrame are left to the
// collector, so that a large answer does not stay held.
type framePool struct{ p sync.Pool }

// maxPooledFrame is the largest frame a framePool keeps.
const maxPooledFrame = 64 << 10

// get returns an empty frame with room for at least size bytes.
func (fp *framePool) get(size int) []byte {
	if size <= maxPooledFrame {
		if b, ok := fp.p.Get().(*[]byte); ok {
			if cap(*b) >= size {
				return (*b)[:0]
			}
			fp.p.Put(b)
		}
	}
	return make([]byte, 0, size)
}

// put gives back a frame once it is written and nothing refers to it.
func (fp *framePool) put(b []byte) {
	if cap(b) > 0 && cap(b) <= maxPooledFrame {
		fp.p.Put(&b)
	}
}
