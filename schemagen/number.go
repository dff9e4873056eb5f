package schemagen

import "cmp"

// maxDecimalExp caps the exponent of a parsed literal. Call arguments never
// come near it (saneNumber allows ±400 at number nodes); a bound written
// with a larger exponent keeps its order with every such value.
const maxDecimalExp = 1 << 30

// decimal is a JSON number literal taken apart without arithmetic, so that
// bounds and enum values compare exactly with what a call sends: float64
// would round 9007199254740993 and 0.1, and math/big would allocate on
// every call. The value is ±D × 10^(exp−len(frac)), where D is the digits
// of whole followed by those of frac; first and last index the first and
// last non-zero digits of D, and first is -1 when the value is zero.
type decimal struct {
	neg         bool
	whole, frac string
	exp         int
	first, last int
}

// parseDecimal takes a number literal apart; ok is false when s is not one.
func parseDecimal(s string) (d decimal, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(s) && isASCIIDigit(s[i]) {
		i++
	}
	if i == start {
		return decimal{}, false
	}
	d.whole = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isASCIIDigit(s[i]) {
			i++
		}
		if i == start {
			return decimal{}, false
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
		for i < len(s) && isASCIIDigit(s[i]) {
			if d.exp < maxDecimalExp {
				d.exp = d.exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return decimal{}, false
		}
		d.exp = min(d.exp, maxDecimalExp)
		if negExp {
			d.exp = -d.exp
		}
	}
	if i != len(s) {
		return decimal{}, false
	}
	d.first, d.last = -1, -1
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

// isASCIIDigit reports whether c is '0' to '9'.
func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// digit returns the digit at index j of D, the digits of the literal
// without its point.
func (d *decimal) digit(j int) byte {
	if j < len(d.whole) {
		return d.whole[j]
	}
	return d.frac[j-len(d.whole)]
}

// sign returns -1, 0 or 1. Negative zero is zero, as in JSON Schema.
func (d *decimal) sign() int {
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
func (d *decimal) order() int { return len(d.whole) - d.first + d.exp }

// integral reports whether the value has no fractional part, as JSON
// Schema's "integer" wants it: 2.0, 1e3 and -0 are integers.
func (d *decimal) integral() bool {
	if d.first < 0 {
		return true
	}
	// The place value of the last significant digit is 10^(this).
	return len(d.whole)-1-d.last+d.exp >= 0
}

// compare returns -1, 0 or 1 as d is less than, equal to or greater than e.
func (d *decimal) compare(e *decimal) int {
	ds, es := d.sign(), e.sign()
	if ds != es {
		return cmp.Compare(ds, es)
	}
	if ds == 0 {
		return 0
	}
	if ds < 0 {
		return -d.compareAbs(e)
	}
	return d.compareAbs(e)
}

// compareAbs compares the magnitudes of two non-zero values: first by
// order, then digit by digit, a shorter run of digits being the smaller
// when it is a prefix of the other.
func (d *decimal) compareAbs(e *decimal) int {
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

// isIntegerLiteral reports whether a number literal has an integral value.
func isIntegerLiteral(s string) bool {
	d, ok := parseDecimal(s)
	return ok && d.integral()
}

// compareLiterals compares two number literals by value; ok is false when
// either is not a literal.
func compareLiterals(a, b string) (c int, ok bool) {
	da, ok := parseDecimal(a)
	if !ok {
		return 0, false
	}
	db, ok := parseDecimal(b)
	if !ok {
		return 0, false
	}
	return da.compare(&db), true
}
