package toolcall

import (
	"strconv"
)

// SyntaxError reports input that cannot be JSON. A [Parser] returns it from
// Write at the first byte that no JSON text could continue with, and again
// from every later Write and from Close.
type SyntaxError struct {
	// Offset is the byte offset of the offending byte in the whole stream.
	Offset int64
	// Msg describes the problem in the words of encoding/json, such as
	// "invalid character '\'' looking for beginning of value".
	Msg string
}

// Error returns the message with the byte offset.
func (e *SyntaxError) Error() string {
	return "toolcall: invalid JSON at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// IncompleteError reports a stream that ended inside a JSON value. A
// [Parser] returns it from Close.
type IncompleteError struct {
	// Path is where the value stopped: the path (see [Event]) of the
	// unfinished scalar, of the member or element that was expected next,
	// or of the unfinished object while its next key was being read.
	Path string
	// Offset is the length of the stream, the offset where more was
	// expected.
	Offset int64
}

// Error names the path and the offset where the stream ended.
func (e *IncompleteError) Error() string {
	where := "the top-level value"
	if e.Path != "" {
		where = "the value at " + strconv.Quote(e.Path)
	}
	return "toolcall: JSON stream ended at byte " + strconv.FormatInt(e.Offset, 10) + " inside " + where
}

// quoteChar formats a byte for an error message as encoding/json does.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
