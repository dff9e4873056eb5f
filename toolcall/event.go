package toolcall

import (
	"encoding/json"
	"strconv"
)

// EventKind says what an [Event] reports.
type EventKind int

// The kinds of [Event], in the order a value produces them.
const (
	// Begin reports the opening '{' or '[' of an object or array; its
	// Value is that one byte.
	Begin EventKind = iota
	// End reports the closing '}' or ']'; its Value is that one byte and
	// its Offset is the offset of that byte.
	End
	// Key reports an object member's name as it was written: Value is the
	// raw string literal, quotes and escapes included, and Path is the path
	// of the member it names.
	Key
	// Value reports a complete string, number, true, false or null: Value
	// is the literal exactly as written, quotes and escapes included.
	Value
	// Partial reports a string or number value that is still arriving, at
	// the end of each Write that left it unfinished. For a string, Value
	// is the decoded text so far (not JSON); for a number, the digits so
	// far. It never reports keys or true, false and null.
	Partial
)

// String returns the lower-case name of k, such as "begin".
func (k EventKind) String() string {
	switch k {
	case Begin:
		return "begin"
	case End:
		return "end"
	case Key:
		return "key"
	case Value:
		return "value"
	case Partial:
		return "partial"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one step of a JSON value as a [Parser] reads it.
//
// Value slices the parser's input or its internal buffer: it is valid only
// during the callback that receives it. Copy it to keep it. Path is an
// ordinary string and may be kept.
type Event struct {
	Kind EventKind
	// Path locates the value in its top-level value as a JSON pointer
	// (RFC 6901): "" for the top-level value itself, "/args/path" for the
	// member "path" of the member "args", "/items/0" for the first element
	// of "items". A "~" in a key is written "~0" and a "/" is written "~1".
	// A key longer than 256 bytes is cut there in the path and marked with
	// "…", so that long keys cannot make every event's path long.
	Path  string
	Value json.RawMessage
	// Offset is the byte offset in the whole stream where the value, key
	// or partial value starts; for End, the offset of the closing byte.
	Offset int64
	// Quoted reports, for Partial, that the value arriving is a string
	// (Value holds its decoded text) rather than a number (Value holds
	// its digits): decoded text alone cannot tell "12" from 12.
	Quoted bool
}
