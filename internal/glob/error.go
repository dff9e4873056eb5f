package glob

import (
	"strconv"
	"unicode/utf8"
)

// ErrorKind says what is wrong with a malformed pattern.
type ErrorKind uint8

// The ways a pattern can be malformed.
const (
	// EndsInBackslash: the pattern ends with '\', which escapes nothing.
	EndsInBackslash ErrorKind = iota + 1
	// OpenBracket: a '[' is never closed by ']'.
	OpenBracket
	// BadClass: a character class is closed but malformed: empty, with a
	// '-' that is not between two characters, or with a byte that is not
	// UTF-8.
	BadClass
	// StrayBrace: a '}' has no '{' before it.
	StrayBrace
	// UnclosedBrace: a '{' is never closed by '}'.
	UnclosedBrace
	// TooManyAlternatives: the braces stand for more than
	// [MaxAlternatives] patterns.
	TooManyAlternatives
)

var kindText = [...]string{
	EndsInBackslash:     `ends with '\'`,
	OpenBracket:         "'[' is never closed",
	BadClass:            "malformed character class",
	StrayBrace:          "'}' without '{'",
	UnclosedBrace:       "'{' is never closed",
	TooManyAlternatives: "braces stand for more than " + strconv.Itoa(MaxAlternatives) + " patterns",
}

// Error is the error of a malformed pattern: what is wrong, and where.
// It carries facts, not sentences; a caller that shows it to a person or
// a model phrases it in their language from Kind and Char.
type Error struct {
	Pattern string    // the pattern, whole
	Kind    ErrorKind // what is wrong
	// Offset is the byte offset in Pattern of the character at fault: the
	// '[' of a class, the brace; -1 when the fault has no one place (a
	// trailing backslash, too many alternatives, a class inside a brace
	// alternative that the pattern does not hold as written).
	Offset int
}

// Char returns the position of the character at fault counted in
// characters from 1, or 0 when the error has no position.
func (e *Error) Char() int {
	if e.Offset < 0 || e.Offset >= len(e.Pattern) {
		return 0
	}
	return utf8.RuneCountInString(e.Pattern[:e.Offset]) + 1
}

// Error returns a short English description, for logs and tests.
func (e *Error) Error() string {
	s := "glob " + strconv.Quote(e.Pattern) + ": " + kindText[e.Kind]
	if c := e.Char(); c > 0 {
		s += " at character " + strconv.Itoa(c)
	}
	return s
}
