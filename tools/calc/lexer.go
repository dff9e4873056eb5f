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
func (t token) describe() message {
	switch t.kind {
	case tokEnd:
		return say(msgEnd)
	case tokNumber:
		return say(msgTheNumber, lit(shorten(t.text, nameRunes)))
	case tokName:
		return say(msgTheName, lit(strconv.Quote(shorten(t.text, nameRunes))))
	}
	return say(msgTheSymbol, lit("'"+t.text+"'"))
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
			if !msg.IsZero() {
				return nil, newError(col, expr, msg, numberHint(expr[i:end]))
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
				return nil, newError(col, expr, say(msgInvalidUTF8, lit(fmt.Sprintf("0x%02x", c))), message{})
			}
			if unicode.IsSpace(r) {
				i += size
				col++
				continue
			}
			return nil, newError(col, expr, say(msgUnexpectedChar, lit(strconv.QuoteRune(r))), characterHint(r))
		}
	}
	return append(toks, token{tokEnd, "", col}), nil
}

// scanNumber returns the end of the decimal literal starting at s[i], and
// a message explaining why it is malformed, or the zero message.
func scanNumber(s string, i int) (end int, msg message) {
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
		return j, say(msgUnexpectedChar, lit("'.'"))
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k >= len(s) || !isDigit(s[k]) {
			return k, say(msgExponentNoDigits, lit(strconv.Quote(shorten(s[i:k], nameRunes))), lit(strconv.QuoteRune(rune(s[j]))))
		}
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		j = k
	}
	return j, message{}
}

// numberHint explains the likely intent behind a malformed exponent such as
// "2e", which cannot mean 2*e because multiplication is never implicit.
func numberHint(text string) message {
	if text == "." {
		return say(msgHintDigit)
	}
	return say(msgHintExponentDigits)
}

// characterHint suggests the ASCII spelling of characters that models and
// people often paste from typeset mathematics.
func characterHint(r rune) message {
	switch r {
	case '×', '·', '⋅', '∙':
		return say(msgHintTimesSign)
	case '÷', '∕':
		return say(msgHintDivideSign)
	case '−', '–', '—':
		return say(msgHintMinusSign)
	case 'π':
		return say(msgHintWrite, lit("pi"))
	case '√':
		return say(msgHintWrite, lit("sqrt(x)"))
	case '²':
		return say(msgHintWrite, lit("x^2"))
	case '³':
		return say(msgHintWrite, lit("x^3"))
	case '[', '{':
		return say(msgHintGrouping)
	case '=':
		return say(msgHintNoEquals)
	}
	return say(msgHintAllowed)
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
