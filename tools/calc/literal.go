package calc

import (
	"math/big"
	"strconv"
	"strings"
)

// literalValue converts a literal accepted by scanNumber into an exact
// rational. It reports false, before building anything large, when the
// value clearly needs more than maxDigits digits; the caller checks the
// exact size of what it returns.
func literalValue(text string, maxDigits int) (*big.Rat, bool) {
	mant, exp := text, int64(0)
	if k := strings.IndexAny(text, "eE"); k >= 0 {
		mant = text[:k]
		e, err := strconv.ParseInt(text[k+1:], 10, 64)
		if err != nil {
			// The exponent overflows int64, which only a zero mantissa survives.
			return new(big.Rat), strings.Trim(mant, "0.") == ""
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return new(big.Rat), true
	}
	exp -= int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	digits = trimmed

	// digits has no factor 10, so for exp < 0 the reduced denominator is at
	// least 5^-exp, which has 0.69*(-exp) digits.
	if exp > 0 && int64(len(digits))+exp > int64(maxDigits) || exp < 0 && -exp > int64(maxDigits)*3/2+2 {
		return nil, false
	}
	m, _ := new(big.Int).SetString(digits, 10)
	q := new(big.Rat).SetInt(m)
	if exp > 0 {
		return q.Mul(q, new(big.Rat).SetInt(pow10(exp))), true
	}
	if exp < 0 {
		return q.Quo(q, new(big.Rat).SetInt(pow10(-exp))), true
	}
	return q, true
}
