// Package decimal reads a JSON number literal as the exact decimal value
// it writes, so that JSON Schema's numeric keywords (minimum, maximum,
// their exclusive forms, enum, const, the "integer" type) can be checked
// exactly against what was sent: float64 would round 9007199254740993 and
// 0.1, and math/big allocates on every comparison and takes time growing
// with the exponent ("1e999999999").
//
// A [Decimal] keeps the digits of the literal where they are, without
// copying or arithmetic, so parsing and comparing cost time linear in the
// literals and allocate nothing, whatever their exponents. schemagen
// checks a call's arguments with it and toolcall a model's tool calls;
// the two had a type each, and one of them allocated.
package decimal

import "cmp"

// maxExp is where exponents saturate. No literal comes near it (schemagen
// refuses exponents beyond ±400 before comparing), and a literal whose
// exponent saturates still orders correctly against every other literal
// whose exponent does not.
const maxExp = 1 << 50

// Decimal is the exact value of a JSON number literal: ±D × 10^(exp −
// len(frac)), where D is the digits of whole followed by those of frac.
// first and last index the first and last non-zero digits of D; first is
// -1 when the value is zero, and last is then not used. Only [Parse]
// makes a usable Decimal.
type Decimal struct {
	lit         string // as written
	neg         bool
	whole, frac string
	exp         int64
	first, last int
}

// Parse reads a JSON number literal (RFC 8259: an optional minus, an
// integer part without leading zeros, an optional fraction and exponent);
// ok is false when s is anything else, such as "+1", "01", ".5" or " 1".
func Parse(s string) (d Decimal, ok bool) {
	d.lit = s
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == start || (i-start > 1 && s[start] == '0') {
		return Decimal{}, false
	}
	d.whole = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return Decimal{}, false
		}
		d.frac = s[start:i]
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			negExp = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && isDigit(s[i]) {
			if d.exp < maxExp {
				d.exp = d.exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == start {
			return Decimal{}, false
		}
		d.exp = min(d.exp, maxExp)
		if negExp {
			d.exp = -d.exp
		}
	}
	if i != len(s) {
		return Decimal{}, false
	}
	d.first = -1
	n := len(d.whole) + len(d.frac)
	for j := range n {
		if d.digit(j) != '0' {
			d.first = j
			break
		}
	}
	if d.first >= 0 {
		for j := n - 1; j >= d.first; j-- {
			if d.digit(j) != '0' {
				d.last = j
				break
			}
		}
	}
	return d, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// String returns the literal as written.
func (d Decimal) String() string { return d.lit }

// digit returns the digit at index j of D, the digits of the literal
// without its point.
func (d *Decimal) digit(j int) byte {
	if j < len(d.whole) {
		return d.whole[j]
	}
	return d.frac[j-len(d.whole)]
}

// Sign returns -1, 0 or 1. Negative zero is zero, as in JSON Schema.
func (d Decimal) Sign() int {
	switch {
	case d.first < 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// order returns the power of ten just above the first significant digit:
// the value is ±0.D' × 10^order, where D' runs from first to last.
func (d *Decimal) order() int64 { return int64(len(d.whole)-d.first) + d.exp }

// IsInt reports whether the value has no fractional part, as JSON
// Schema's "integer" wants it: 2.0, 1e3 and -0 are integers.
func (d Decimal) IsInt() bool {
	if d.first < 0 {
		return true
	}
	// The place value of the last significant digit is 10^(this).
	return int64(len(d.whole)-1-d.last)+d.exp >= 0
}

// Cmp returns -1, 0 or 1 as d is less than, equal to or greater than e.
func (d Decimal) Cmp(e Decimal) int {
	ds, es := d.Sign(), e.Sign()
	if ds != es {
		return cmp.Compare(ds, es)
	}
	if ds == 0 {
		return 0
	}
	if ds < 0 {
		return -d.cmpAbs(&e)
	}
	return d.cmpAbs(&e)
}

// cmpAbs compares the magnitudes of two non-zero values: first by order,
// then digit by digit, a shorter run of digits being the smaller when it
// is a prefix of the other.
func (d *Decimal) cmpAbs(e *Decimal) int {
	if do, eo := d.order(), e.order(); do != eo {
		return cmp.Compare(do, eo)
	}
	i, j := d.first, e.first
	for ; i <= d.last && j <= e.last; i, j = i+1, j+1 {
		if a, b := d.digit(i), e.digit(j); a != b {
			return cmp.Compare(a, b)
		}
	}
	switch {
	case i <= d.last:
		return 1
	case j <= e.last:
		return -1
	}
	return 0
}

// Uint returns the value when it is a whole number from 0 to below
// 10^digits (digits at most 18), and ok false otherwise: a count, such as
// a schema's minLength written 3 or 3.0.
func (d Decimal) Uint(digits int) (v uint64, ok bool) {
	if d.Sign() < 0 || !d.IsInt() || digits > 18 {
		return 0, false
	}
	if d.Sign() == 0 {
		return 0, true
	}
	o := d.order()
	if o > int64(digits) {
		return 0, false
	}
	for j := range int(o) {
		v *= 10
		if k := d.first + j; k <= d.last {
			v += uint64(d.digit(k) - '0')
		}
	}
	return v, true
}

// Compare compares two literals by value; ok is false when either is not
// a JSON number literal.
func Compare(a, b string) (c int, ok bool) {
	da, ok := Parse(a)
	if !ok {
		return 0, false
	}
	db, ok := Parse(b)
	if !ok {
		return 0, false
	}
	return da.Cmp(db), true
}

// IsInt reports whether s is a JSON number literal with an integral
// value.
func IsInt(s string) bool {
	d, ok := Parse(s)
	return ok && d.IsInt()
}
