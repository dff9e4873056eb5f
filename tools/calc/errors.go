package calc

import (
	"strconv"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
)

// Error is the error Eval returns for every expression it cannot evaluate.
// Its Error method renders one sentence such as
//
//	division by zero at column 3 in "1/0"
//
// in English, or in the language set in Lang.
type Error struct {
	// Msg says what went wrong, in English, as a short sentence without
	// the location.
	Msg string
	// Column is the 1-based position, counted in runes, of the token the
	// error is about, or 0 when the error concerns the request as a whole.
	Column int
	// Expr is the expression that was evaluated.
	Expr string
	// Hint optionally suggests a fix in English, such as the list of known
	// names.
	Hint string
	// Lang is the language Error renders in; the zero value is English.
	// In other languages the text comes from calc's catalog, and an Error
	// built by hand reads as its Msg and Hint.
	Lang i18n.Lang

	msg, hint message // Msg and Hint as entries of the catalog
	// undecided marks failures that more working precision may resolve.
	undecided bool
}

// newError returns the error msg, with hint (which may be the zero
// message), about the token at column col of expr.
func newError(col int, expr string, msg, hint message) *Error {
	return &Error{
		Msg:    msg.In(i18n.English),
		Column: col,
		Expr:   expr,
		Hint:   hint.In(i18n.English),
		msg:    msg,
		hint:   hint,
	}
}

// excerptRunes is how much of a long expression an error message quotes.
const excerptRunes = 60

// nameRunes is how much of a long number or name an error message quotes.
const nameRunes = 40

// Error returns the message followed by the column, the expression
// (shortened with "…" around the column when long) and the hint, in Lang.
func (e *Error) Error() string {
	msg, hint := e.Msg, e.Hint
	if e.Lang != "" && e.Lang != i18n.English && !e.msg.IsZero() {
		msg, hint = e.msg.In(e.Lang), e.hint.In(e.Lang)
	}
	if e.Column > 0 {
		msg = say(msgAt, lit(msg), num(e.Column), lit(excerpt(e.Expr, e.Column))).In(e.Lang)
	}
	if hint != "" {
		msg = say(msgWithHint, lit(msg), lit(hint)).In(e.Lang)
	}
	return msg
}

// excerpt quotes expr, or a window of it around column when it is long.
func excerpt(expr string, column int) string {
	n := utf8.RuneCountInString(expr)
	if n <= excerptRunes {
		return strconv.Quote(expr)
	}
	start := max(0, column-1-excerptRunes/2)
	end := min(n, start+excerptRunes)
	start = max(0, end-excerptRunes)
	s := runeSlice(expr, start, end)
	if start > 0 {
		s = "…" + s
	}
	if end < n {
		s += "…"
	}
	return strconv.Quote(s)
}

// runeSlice returns the runes of s from index from up to index to. It walks
// the bytes itself so that invalid UTF-8 is kept as is rather than replaced.
func runeSlice(s string, from, to int) string {
	begin, r := len(s), 0
	for i := 0; i < len(s); r++ {
		if r == from {
			begin = i
		}
		if r == to {
			return s[begin:i]
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[begin:]
}

// shorten cuts s to at most n runes, marking the cut with "…", so that
// quoting a 4000-digit number does not swamp a message.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return runeSlice(s, 0, n) + "…"
}
