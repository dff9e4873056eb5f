package calc

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// tokenKind classifies a token.
type tokenKind uint8

const (
	tokEnd    tokenKind = iota // end of the expression
	tokNumber                  // decimal literal such as 2.5e-3
	tokName                    // function or constant name
	tokOp                      // one of + - * / % ^ **
	tokLParen
	tokRParen
	tokComma
)

// token is one lexical element of an expression.
type token struct {
	kind tokenKind
	text string // source text; "**" stays "**"
	col  int    // 1-based rune column of the first character
}

// describe names the token the way error messages refer to it.
func (t token) describe() string {
	switch t.kind {
	case tokEnd:
		return "the end of the expression"
	case tokNumber:
		return "the number " + shorten(t.text, nameRunes)
	case tokName:
		return strconv.Quote(shorten(t.text, nameRunes))
	}
	return "'" + t.text + "'"
}

// lex splits expr into tokens, ending with a tokEnd token. It rejects every
// character that cannot start a token.
func lex(expr string) ([]token, *Error) {
	var toks []token
	col := 1
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			col++
		case isDigit(c) || c == '.':
			end, msg := scanNumber(expr, i)
			if msg != "" {
				return nil, &Error{Msg: msg, Column: col, Expr: expr, Hint: numberHint(expr[i:end])}
			}
			toks = append(toks, token{tokNumber, expr[i:end], col})
			col += end - i
			i = end
		case isLetter(c) || c == '_':
			end := i + 1
			for end < len(expr) && (isLetter(expr[end]) || isDigit(expr[end]) || expr[end] == '_') {
				end++
			}
			toks = append(toks, token{tokName, expr[i:end], col})
			col += end - i
			i = end
		case c == '*' && i+1 < len(expr) && expr[i+1] == '*':
			toks = append(toks, token{tokOp, "**", col})
			i += 2
			col += 2
		case c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '^':
			toks = append(toks, token{tokOp, expr[i : i+1], col})
			i++
			col++
		case c == '(' || c == ')' || c == ',':
			toks = append(toks, token{punctuation(c), expr[i : i+1], col})
			i++
			col++
		default:
			r, size := utf8.DecodeRuneInString(expr[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, &Error{Msg: fmt.Sprintf("invalid UTF-8 byte 0x%02x", c), Column: col, Expr: expr}
			}
			if unicode.IsSpace(r) {
				i += size
				col++
				continue
			}
			return nil, &Error{
				Msg:    "unexpected character " + strconv.QuoteRune(r),
				Column: col,
				Expr:   expr,
				Hint:   characterHint(r),
			}
		}
	}
	return append(toks, token{tokEnd, "", col}), nil
}

// scanNumber returns the end of the decimal literal starting at s[i], or a
// message explaining why it is malformed.
func scanNumber(s string, i int) (end int, msg string) {
	j, digits := i, 0
	for j < len(s) && isDigit(s[j]) {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return j, "unexpected character '.'"
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k >= len(s) || !isDigit(s[k]) {
			return k, fmt.Sprintf("the number %q has no digits after its exponent marker %q", shorten(s[i:k], nameRunes), s[j])
		}
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		j = k
	}
	return j, ""
}

// numberHint explains the likely intent behind a malformed exponent such as
// "2e", which cannot mean 2*e because multiplication is never implicit.
func numberHint(text string) string {
	if text == "." {
		return "a number needs at least one digit, like 0.5 or .5"
	}
	return "write the exponent as digits, like 1e3, or use * to multiply by the constant e"
}

// characterHint suggests the ASCII spelling of characters that models and
// people often paste from typeset mathematics.
func characterHint(r rune) string {
	switch r {
	case '×', '·', '⋅', '∙':
		return "use * for multiplication"
	case '÷', '∕':
		return "use / for division"
	case '−', '–', '—':
		return "use - for subtraction"
	case 'π':
		return "write pi"
	case '√':
		return "write sqrt(x)"
	case '²':
		return "write x^2"
	case '³':
		return "write x^3"
	case '[', '{':
		return "use parentheses for grouping"
	case '=':
		return "give only the expression, without '='"
	}
	return "only numbers, + - * / % ^ **, parentheses and the names sqrt, abs, floor, ceil, round, min, max, pi and e are allowed"
}

// punctuation returns the kind of a parenthesis or comma.
func punctuation(c byte) tokenKind {
	switch c {
	case '(':
		return tokLParen
	case ')':
		return tokRParen
	}
	return tokComma
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
