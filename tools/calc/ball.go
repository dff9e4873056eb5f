package calc

import "math/big"

// ball is an approximate real number: the true value lies within rad of mid.
// Operations round mid to nearest and add a bound on every rounding error to
// rad, so the bound stays rigorous however many operations follow.
type ball struct {
	mid *big.Float // midpoint, rounded to the working precision
	rad *big.Float // error bound, >= 0, rounded upwards
}

// radPrec is the precision of error bounds; they need few significant bits.
const radPrec = 64

// up returns a float that rounds away from zero, for upper bounds on
// magnitudes.
func up() *big.Float { return new(big.Float).SetPrec(radPrec).SetMode(big.AwayFromZero) }

// down returns a float that rounds towards zero, for lower bounds on
// magnitudes.
func down() *big.Float { return new(big.Float).SetPrec(radPrec).SetMode(big.ToZero) }

// newMid returns a zero float of the given precision that rounds to nearest.
func newMid(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// absf returns |x| without rounding.
func absf(x *big.Float) *big.Float { return new(big.Float).Abs(x) }

// upMul returns an upper bound of |x*y|.
func upMul(x, y *big.Float) *big.Float { z := up().Mul(x, y); return z.Abs(z) }

// upAdd returns an upper bound of |x|+|y|.
func upAdd(x, y *big.Float) *big.Float { return up().Add(absf(x), absf(y)) }

// upQuo returns an upper bound of |x/y|.
func upQuo(x, y *big.Float) *big.Float { z := up().Quo(x, y); return z.Abs(z) }

// pow2 returns 2^e exactly.
func pow2(e int) *big.Float {
	return new(big.Float).SetMantExp(new(big.Float).SetPrec(radPrec).SetInt64(1), e)
}

// ulp returns the unit in the last place of z at its precision, or zero
// when z is zero.
func ulp(z *big.Float) *big.Float {
	if z.Sign() == 0 {
		return up()
	}
	return pow2(z.MantExp(nil) - int(z.Prec()))
}

// roundingErr bounds the error of the operation that last set z, which
// rounded to nearest.
func roundingErr(z *big.Float) *big.Float {
	if z.Acc() == big.Exact {
		return up()
	}
	return ulp(z)
}

// ballFromRat approximates an exact rational.
func ballFromRat(q *big.Rat, prec uint) ball {
	m := newMid(prec).SetRat(q)
	return ball{m, roundingErr(m)}
}

// containsZero reports whether the ball cannot be told apart from zero.
func (b ball) containsZero() bool {
	return absf(b.mid).Cmp(b.rad) <= 0
}

// sign returns the sign of every value in the ball, or 0 when it contains
// zero.
func (b ball) sign() int {
	if b.containsZero() {
		return 0
	}
	return b.mid.Sign()
}

// bounds returns the ends of the ball as exact rationals.
func (b ball) bounds() (lo, hi *big.Rat) {
	m, _ := b.mid.Rat(nil)
	r, _ := b.rad.Rat(nil)
	return new(big.Rat).Sub(m, r), new(big.Rat).Add(m, r)
}

func ballNeg(a ball) ball {
	return ball{new(big.Float).Neg(a.mid), a.rad}
}

func ballAbs(a ball) ball {
	return ball{absf(a.mid), a.rad}
}

func ballAdd(a, b ball, prec uint) ball {
	m := newMid(prec).Add(a.mid, b.mid)
	return ball{m, upAdd(upAdd(a.rad, b.rad), roundingErr(m))}
}

func ballSub(a, b ball, prec uint) ball {
	return ballAdd(a, ballNeg(b), prec)
}

// ballMul uses |xy - ab| <= |a|rb + |b|ra + ra*rb for x = a±ra, y = b±rb.
func ballMul(a, b ball, prec uint) ball {
	m := newMid(prec).Mul(a.mid, b.mid)
	r := upAdd(upMul(a.mid, b.rad), upMul(b.mid, a.rad))
	r = upAdd(r, upMul(a.rad, b.rad))
	return ball{m, upAdd(r, roundingErr(m))}
}

// ballQuo divides by a ball that excludes zero, using
// |x/y - a/b| <= (|b|ra + |a|rb) / (|b|(|b|-rb)).
func ballQuo(a, b ball, prec uint) ball {
	m := newMid(prec).Quo(a.mid, b.mid)
	absB := absf(b.mid)
	num := upAdd(upMul(a.mid, b.rad), upMul(b.mid, a.rad))
	den := down().Sub(absB, b.rad)
	den = down().Mul(den, absB)
	return ball{m, upAdd(upQuo(num, den), roundingErr(m))}
}

// ballSqrt takes the square root of a ball whose values are all positive,
// using |sqrt(x) - sqrt(a)| = |x-a| / (sqrt(x)+sqrt(a)) <= ra / sqrt(a).
func ballSqrt(a ball, prec uint) ball {
	m := newMid(prec).Sqrt(a.mid)
	// Float.Sqrt does not promise correct rounding, so take a lower bound of
	// sqrt(a) with a safety margin and allow two ulps for m itself.
	low := new(big.Float).SetPrec(radPrec).Sqrt(a.mid)
	low = down().Mul(low, new(big.Float).SetFloat64(1-1.0/(1<<30)))
	r := upQuo(a.rad, low)
	r = upAdd(r, ulp(m))
	return ball{m, upAdd(r, ulp(m))}
}
