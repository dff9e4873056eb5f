package calc

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Non-integers print in plain decimal when their decimal exponent lies in
// [minPlainExp, maxPlainExp), and in scientific notation otherwise.
const (
	minPlainExp = -10
	maxPlainExp = 40
)

// formatRat renders an exact rational and reports whether the text is exact.
// Integers print every digit, and so do terminating decimals of at most
// maxDigits significant digits (2^-30000 has over 20000); other rationals
// are rounded to precision significant digits.
func formatRat(q *big.Rat, precision, maxDigits int) (string, bool) {
	if q.IsInt() {
		return q.Num().String(), true
	}
	if k, ok := decimalPlaces(q.Denom()); ok {
		// q * 10^k is an integer whose last digit is not 0, because k is the
		// fewest places that make it one.
		m := new(big.Int).Mul(q.Num(), pow10(int64(k)))
		m.Quo(m, q.Denom())
		if digits := new(big.Int).Abs(m).String(); len(digits) <= maxDigits {
			return layout(m.Sign() < 0, digits, len(digits)-1-k, maxPlainExp), true
		}
	}
	digits, exp := roundSig(q, precision)
	return layout(q.Sign() < 0, digits, exp, min(precision, maxPlainExp)), false
}

// formatBall renders an approximation rounded to precision significant
// digits, or reports false when the ends of the ball round differently, so
// that the digits are not yet known.
func formatBall(b ball, precision int) (string, bool) {
	lo, hi := b.bounds()
	if lo.Sign() != hi.Sign() || lo.Sign() == 0 {
		return "", false
	}
	d1, e1 := roundSig(lo, precision)
	d2, e2 := roundSig(hi, precision)
	if d1 != d2 || e1 != e2 {
		return "", false
	}
	return layout(lo.Sign() < 0, d1, e1, min(precision, maxPlainExp)), true
}

// decimalPlaces returns the number of decimal places of a fraction with
// denominator d, and false when its decimal expansion does not terminate,
// that is when d is not of the form 2^a 5^b.
func decimalPlaces(d *big.Int) (int, bool) {
	a := int(d.TrailingZeroBits())
	rest := new(big.Int).Rsh(d, uint(a))
	if rest.IsInt64() && rest.Int64() == 1 {
		return a, true
	}
	// Guess b from the size of rest and verify.
	guess := int(math.Round(float64(rest.BitLen()-1) / math.Log2(5)))
	for b := max(guess-1, 1); b <= guess+1; b++ {
		if new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(b)), nil).Cmp(rest) == 0 {
			return max(a, b), true
		}
	}
	return 0, false
}

// roundSig rounds |q| (q != 0) to n significant digits, half away from zero,
// and returns the digits without trailing zeros and the decimal exponent of
// the first one: |q| is about 0.d1d2... * 10^(exp+1).
func roundSig(q *big.Rat, n int) (digits string, exp int) {
	a := new(big.Int).Abs(q.Num())
	b := q.Denom()
	// The bit lengths put log10|q| within one of this estimate.
	exp = int(math.Floor(float64(a.BitLen()-b.BitLen()) * log10of2))
	low, high := pow10(int64(n-1)), pow10(int64(n))
	for {
		num, den := a, b
		if s := n - 1 - exp; s >= 0 {
			num = new(big.Int).Mul(a, pow10(int64(s)))
		} else {
			den = new(big.Int).Mul(b, pow10(int64(-s)))
		}
		m, rem := new(big.Int).QuoRem(num, den, new(big.Int))
		if m.Cmp(high) >= 0 {
			exp++
			continue
		}
		if m.Cmp(low) < 0 {
			exp--
			continue
		}
		if rem.Lsh(rem, 1).Cmp(den) >= 0 {
			m.Add(m, big.NewInt(1))
			if m.Cmp(high) == 0 {
				m.Set(low)
				exp++
			}
		}
		return strings.TrimRight(m.String(), "0"), exp
	}
}

// layout places the decimal point in digits, which has no trailing zeros and
// represents d1.d2d3... * 10^exp. Exponents in [minPlainExp, maxPlain) give
// plain decimals, others scientific notation such as 1.5e+60.
func layout(negative bool, digits string, exp, maxPlain int) string {
	var b strings.Builder
	if negative {
		b.WriteByte('-')
	}
	switch {
	case exp >= minPlainExp && exp < 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -exp-1))
		b.WriteString(digits)
	case exp >= 0 && exp < maxPlain:
		if len(digits) <= exp+1 {
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", exp+1-len(digits)))
		} else {
			b.WriteString(digits[:exp+1])
			b.WriteByte('.')
			b.WriteString(digits[exp+1:])
		}
	default:
		b.WriteString(digits[:1])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if exp >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(exp))
	}
	return b.String()
}
