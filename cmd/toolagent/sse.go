package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// maxSSELine bounds one line of an event stream; a model's chunk is far
// smaller, and a stream that never ends a line must not take all memory.
const maxSSELine = 4 << 20

// sseReader reads the data of server-sent events (the text/event-stream
// format of the HTML standard): "data:" lines, joined by newlines, make
// one event, which a blank line ends. Comments (":") and the other fields
// (event, id, retry) are skipped; lines may end in "\n", "\r\n" or "\r".
type sseReader struct {
	r       *bufio.Reader
	data    bytes.Buffer
	hasData bool
	lastCR  bool // the previous line ended in '\r': a following '\n' belongs to it
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32<<10)}
}

// next returns the data of the next event. At the end of the stream it
// returns io.EOF; an event cut off by the end is dropped, as the standard
// says.
func (s *sseReader) next() ([]byte, error) {
	s.data.Reset()
	s.hasData = false
	for {
		line, err := s.line()
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			if s.hasData {
				return s.data.Bytes(), nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		if string(field) != "data" {
			continue
		}
		if s.hasData {
			s.data.WriteByte('\n')
		}
		s.data.Write(value)
		s.hasData = true
		if s.data.Len() > maxSSELine {
			return nil, fmt.Errorf("an event of the stream is over %d bytes", maxSSELine)
		}
	}
}

// line returns the next line without its end.
func (s *sseReader) line() ([]byte, error) {
	var buf []byte
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, err
		}
		if s.lastCR {
			s.lastCR = false
			if b == '\n' {
				continue
			}
		}
		switch b {
		case '\n':
			return buf, nil
		case '\r':
			s.lastCR = true
			return buf, nil
		}
		if len(buf) >= maxSSELine {
			return nil, fmt.Errorf("a line of the stream is over %d bytes", maxSSELine)
		}
		buf = append(buf, b)
	}
}
