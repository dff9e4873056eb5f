package calc

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is the error Eval returns for every expression it cannot evaluate.
// Its Error method renders one sentence such as
//
//	division by zero at column 3 in "1/0"
type Error struct {
	// Msg says what went wrong, as a short sentence without the location.
	Msg string
	// Column is the 1-based position, counted in runes, of the token the
	// error is about, or 0 when the error concerns the request as a whole.
	Column int
	// Expr is the expression that was evaluated.
	Expr string
	// Hint optionally suggests a fix, such as the list of known names.
	Hint string

	// undecided marks failures that more working precision may resolve.
	undecided bool
}

// excerptRunes is how much of a long expression an error message quotes.
const excerptRunes = 60

// nameRunes is how much of a long number or name an error message quotes.
const nameRunes = 40

// Error returns Msg followed by the column, the expression (shortened with
// "…" around the column when long) and the hint.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	if e.Column > 0 {
		b.WriteString(" at column ")
		b.WriteString(strconv.Itoa(e.Column))
		b.WriteString(" in ")
		b.WriteString(excerpt(e.Expr, e.Column))
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
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
