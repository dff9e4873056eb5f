package toolcall

import "cmp"

// decimal is the exact value of a JSON number literal: ±0.digits × 10^exp,
// with digits free of leading and trailing zeros (empty for zero). Two
// literals compare, and a literal is known to be whole, from the digits
// alone: no arithmetic, so the cost is linear in the literal whatever its
// exponent ("1e999999999" is as cheap as "1").
type decimal struct {
	neg    bool
	digits string
	exp    int64
	lit    string // as written
}

// String returns the literal as written.
func (d decimal) String() string { return d.lit }

// maxExp is where exponents saturate: no literal can come near it.
const maxExp = 1 << 50

// parseDecimal reads a JSON number literal.
func parseDecimal(lit string) (decimal, bool) {
	d := decimal{lit: lit}
	i := 0
	if i < len(lit) && lit[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(lit) && isDigit(lit[i]) {
		i++
	}
	intPart := lit[start:i]
	if intPart == "" || (len(intPart) > 1 && intPart[0] == '0') {
		return decimal{}, false
	}
	frac := ""
	if i < len(lit) && lit[i] == '.' {
		i++
		fs := i
		for i < len(lit) && isDigit(lit[i]) {
			i++
		}
		frac = lit[fs:i]
		if frac == "" {
			return decimal{}, false
		}
	}
	var e int64
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		eneg := false
		if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
			eneg = lit[i] == '-'
			i++
		}
		es := i
		for i < len(lit) && isDigit(lit[i]) {
			if e < maxExp {
				e = e*10 + int64(lit[i]-'0')
			}
			i++
		}
		if i == es {
			return decimal{}, false
		}
		if eneg {
			e = -e
		}
	}
	if i != len(lit) {
		return decimal{}, false
	}
	// The digits of intPart and frac without copying them together: the
	// leading zeros can only be in intPart's "0" or frac's start.
	point := int64(len(intPart))
	all := intPart + frac
	k := 0
	for k < len(all) && all[k] == '0' {
		k++
	}
	point -= int64(k)
	all = all[k:]
	j := len(all)
	for j > 0 && all[j-1] == '0' {
		j--
	}
	d.digits = all[:j]
	if d.digits == "" {
		return decimal{lit: lit}, true // zero, -0 included
	}
	d.exp = point + e
	return d, true
}

// sign returns -1, 0 or 1.
func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmp compares d and o as numbers: -1, 0 or 1.
func (d decimal) cmp(o decimal) int {
	sd, so := d.sign(), o.sign()
	if sd != so || sd == 0 {
		return cmp.Compare(sd, so)
	}
	m := 0
	switch {
	case d.exp != o.exp:
		m = cmp.Compare(d.exp, o.exp)
	case d.digits < o.digits:
		m = -1
	case d.digits > o.digits:
		m = 1
	}
	return m * sd
}

// isInt reports whether d has no fraction.
func (d decimal) isInt() bool {
	return d.digits == "" || int64(len(d.digits)) <= d.exp
}
