package calc

import (
	"math"
	"math/big"
)

// power returns x^y. Integer exponents are exact for exact bases; rational
// exponents p/q are exact when the base is a perfect q-th power; everything
// else goes through exp(y*ln(x)).
func (ev *evaluator) power(x, y number, col int) (number, *Error) {
	if y.q == nil {
		return ev.powReal(x, y.b, col)
	}
	if y.q.IsInt() {
		return ev.powInt(x, y.q.Num(), col)
	}
	return ev.powRat(x, y.q, col)
}

// exponentOutOfRange reports an exponent beyond Limits.MaxExponent.
func (ev *evaluator) exponentOutOfRange(y string, col int) *Error {
	m := ev.lim.MaxExponent
	return ev.fail(col, say(msgExponentRange, lit(y), num(m)), message{})
}

// zeroToNegative reports 0 raised to a negative power.
func (ev *evaluator) zeroToNegative(col int) *Error {
	return ev.fail(col, say(msgDivisionByZero), say(msgHintZeroNegativePower))
}

// exceedsExponent reports whether |y| > MaxExponent.
func (ev *evaluator) exceedsExponent(y *big.Rat) bool {
	limit := new(big.Rat).SetInt64(ev.lim.MaxExponent)
	return new(big.Rat).Abs(y).Cmp(limit) > 0
}

// tooLargeLog2 reports whether a result of magnitude about 2^l would break
// the digit limit, with a little slack because l is an estimate; the exact
// check after computing settles the borderline cases.
func (ev *evaluator) tooLargeLog2(l float64) bool {
	return math.Abs(l) > float64(ev.digits.maxBits())+4
}

// log2Abs returns log2|x| for x != 0 without overflowing float64.
func log2Abs(x *big.Float) float64 {
	mant := new(big.Float)
	e := x.MantExp(mant)
	m, _ := mant.Float64()
	return math.Log2(math.Abs(m)) + float64(e)
}

func (ev *evaluator) powInt(x number, n *big.Int, col int) (number, *Error) {
	if n.Sign() == 0 {
		return exact(big.NewRat(1, 1)), nil
	}
	if x.q != nil {
		return ev.powIntExact(x.q, n, col)
	}
	if !n.IsInt64() || abs64(n.Int64()) > ev.lim.MaxExponent {
		return number{}, ev.exponentOutOfRange(shorten(n.String(), nameRunes), col)
	}
	k := n.Int64()
	b := x.b
	if b.sign() != 0 {
		if ev.tooLargeLog2(float64(k) * log2Abs(b.mid)) {
			return number{}, ev.tooLarge(col)
		}
	} else {
		if k < 0 {
			return number{}, ev.undecided(col, say(msgDivisorNearZero), say(msgHintBaseZero))
		}
		if bound := upAdd(b.mid, b.rad); bound.Sign() > 0 && float64(k)*log2Abs(bound) > float64(ev.digits.maxBits())+4 {
			return number{}, ev.tooLarge(col)
		}
	}
	result := ball{newMid(ev.prec).SetInt64(1), up()}
	for e := abs64(k); ; {
		if e&1 == 1 {
			r, err := ev.checkBall(ballMul(result, b, ev.prec), col)
			if err != nil {
				return number{}, err
			}
			result = r.b
		}
		e >>= 1
		if e == 0 {
			break
		}
		sq, err := ev.checkBall(ballMul(b, b, ev.prec), col)
		if err != nil {
			return number{}, err
		}
		b = sq.b
	}
	if k < 0 {
		return ev.quo(exact(big.NewRat(1, 1)), approx(result), col)
	}
	return approx(result), nil
}

// powIntExact raises a rational to an integer power, refusing before any
// work when the result would clearly break the digit limit.
func (ev *evaluator) powIntExact(q *big.Rat, n *big.Int, col int) (number, *Error) {
	num, den := q.Num(), q.Denom()
	switch {
	case q.Sign() == 0:
		if n.Sign() < 0 {
			return number{}, ev.zeroToNegative(col)
		}
		return exact(new(big.Rat)), nil
	case den.IsInt64() && den.Int64() == 1 && num.IsInt64() && abs64(num.Int64()) == 1:
		if num.Sign() < 0 && n.Bit(0) == 1 {
			return exact(big.NewRat(-1, 1)), nil
		}
		return exact(big.NewRat(1, 1)), nil
	}
	// Now |num| >= 2 or den >= 2, so the longer of the two grows by at least
	// (bits-1)*log10(2) digits per unit of exponent.
	bits := max(num.BitLen(), den.BitLen()) - 1
	if !n.IsInt64() || ev.tooLargeLog2(float64(abs64(n.Int64()))*float64(bits)) {
		return number{}, ev.tooLarge(col)
	}
	k := n.Int64()
	if abs64(k) > ev.lim.MaxExponent {
		return number{}, ev.exponentOutOfRange(n.String(), col)
	}
	e := big.NewInt(abs64(k))
	rn := new(big.Int).Exp(num, e, nil)
	rd := new(big.Int).Exp(den, e, nil)
	if k < 0 {
		if rn.Sign() < 0 {
			rn.Neg(rn)
			rd.Neg(rd)
		}
		rn, rd = rd, rn
	}
	// Powers of coprime integers stay coprime, but SetFrac cannot know that;
	// its gcd is cheap next to the powers themselves.
	return ev.checkExact(new(big.Rat).SetFrac(rn, rd), col)
}

// powRat raises x to a non-integer rational power p/q.
func (ev *evaluator) powRat(x number, y *big.Rat, col int) (number, *Error) {
	if ev.exceedsExponent(y) {
		return number{}, ev.exponentOutOfRange(ratText(y), col)
	}
	if x.q != nil {
		switch {
		case x.q.Sign() == 0:
			if y.Sign() < 0 {
				return number{}, ev.zeroToNegative(col)
			}
			return exact(new(big.Rat)), nil
		case x.q.Cmp(big.NewRat(1, 1)) == 0:
			return exact(big.NewRat(1, 1)), nil
		}
	}
	sign := ev.sign(x)
	if sign == 0 {
		return number{}, ev.undecided(col, say(msgBaseNearZero), message{})
	}
	p, q := y.Num(), y.Denom()
	if sign < 0 && q.Bit(0) == 0 {
		return number{}, ev.fail(col, say(msgNegativeBaseFraction, lit(ratText(y))), say(msgHintOddDenominator))
	}
	negate := sign < 0 && p.Bit(0) == 1
	ax := absNumber(x)

	yf, _ := y.Float64()
	if ev.tooLargeLog2(yf * log2Abs(ev.toBall(ax).mid)) {
		return number{}, ev.tooLarge(col)
	}
	var r number
	var err *Error
	if root, ok := ratRootSmall(ax, q); ok {
		r, err = ev.powIntExact(root, p, col)
	} else {
		r, err = ev.expLn(ax, exact(y), col)
	}
	if err != nil || !negate {
		return r, err
	}
	return neg(r), nil
}

// powReal raises x to a power known only approximately. The base must then
// be positive, because a negative base has a real power only for rational
// exponents with odd denominators.
func (ev *evaluator) powReal(x number, y ball, col int) (number, *Error) {
	if absf(y.mid).Cmp(new(big.Float).SetInt64(ev.lim.MaxExponent)) > 0 {
		return number{}, ev.exponentOutOfRange(floatText(y.mid), col)
	}
	if x.q != nil {
		switch {
		case x.q.Sign() == 0:
			switch y.sign() {
			case 1:
				return exact(new(big.Rat)), nil
			case -1:
				return number{}, ev.zeroToNegative(col)
			}
			return number{}, ev.undecided(col, say(msgExponentNearZero), message{})
		case x.q.Cmp(big.NewRat(1, 1)) == 0:
			return exact(big.NewRat(1, 1)), nil
		}
	}
	switch ev.sign(x) {
	case 0:
		return number{}, ev.undecided(col, say(msgBaseNearZero), message{})
	case -1:
		return number{}, ev.fail(col, say(msgNegativeBaseIrrational), message{})
	}
	if ev.tooLargeLog2(mulF(y.mid, log2Abs(ev.toBall(x).mid))) {
		return number{}, ev.tooLarge(col)
	}
	return ev.expLn(x, approx(y), col)
}

// mulF returns x*f as a float64, saturating instead of overflowing.
func mulF(x *big.Float, f float64) float64 {
	xf, _ := x.Float64()
	return xf * f
}

// expLn computes x^y = exp(y*ln(x)) for a positive x. The exponential turns
// the absolute error of y*ln(x) into the relative error of the result, so
// the logarithm and the product carry as many extra bits as y*ln(x) has
// integer bits.
func (ev *evaluator) expLn(x, y number, col int) (number, *Error) {
	ev.cost += 4
	xb, yb := ev.toBall(x), ev.toBall(y)
	mag := math.Abs(mulF(yb.mid, log2Abs(xb.mid)))
	wp := ev.prec + uint(math.Log2(mag+1)) + 16
	// Exact operands are converted again at the higher precision.
	if x.q != nil {
		xb = ballFromRat(x.q, wp)
	}
	if y.q != nil {
		yb = ballFromRat(y.q, wp)
	}
	z := ballMul(yb, lnBall(xb, wp), wp)
	if z.rad.Cmp(big.NewFloat(0.5)) > 0 {
		return number{}, ev.undecided(col, say(msgPowerInaccurate), message{})
	}
	return ev.checkBall(expBall(z, ev.prec), col)
}

// lnBall returns the natural logarithm of a positive ball, using
// |ln(t) - ln(m)| <= r/(m-r) for |t-m| <= r.
func lnBall(x ball, prec uint) ball {
	m := lnFloat(x.mid, prec)
	r := upQuo(x.rad, down().Sub(x.mid, x.rad))
	r = upAdd(r, upAdd(ulp(m), pow2(-int(prec))))
	return ball{m, r}
}

// expBall returns the exponential of a ball of radius at most 1/2, using
// exp(t) - exp(m) <= exp(m)(exp(r)-1) <= 2r*exp(m) for |t-m| <= r <= 1/2.
func expBall(z ball, prec uint) ball {
	m := expFloat(z.mid, prec)
	r := upMul(m, up().Mul(z.rad, big.NewFloat(2)))
	two := up().Mul(ulp(m), big.NewFloat(2))
	return ball{m, upAdd(r, two)}
}

// sign returns the sign of x, or 0 for an approximation containing zero.
func (ev *evaluator) sign(x number) int {
	if x.q != nil {
		return x.q.Sign()
	}
	return x.b.sign()
}

// absNumber returns |x|.
func absNumber(x number) number {
	if x.q != nil {
		return exact(new(big.Rat).Abs(x.q))
	}
	return approx(ballAbs(x.b))
}

// ratRootSmall returns the exact q-th root of an exact x >= 0 when it
// exists. Roots of very high order are not tried: a rational whose numerator
// and denominator have fewer than q bits is a q-th power only if it is 1.
func ratRootSmall(x number, q *big.Int) (*big.Rat, bool) {
	if x.q == nil || !q.IsInt64() {
		return nil, false
	}
	return ratRoot(x.q, q.Int64())
}

// ratRoot returns the exact k-th root of q >= 0 when both its numerator and
// denominator are perfect k-th powers.
func ratRoot(q *big.Rat, k int64) (*big.Rat, bool) {
	n, ok := intRoot(q.Num(), k)
	if !ok {
		return nil, false
	}
	d, ok := intRoot(q.Denom(), k)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetFrac(n, d), true
}

// ratText renders an exponent for a message: as a decimal when it
// terminates, otherwise as a fraction.
func ratText(y *big.Rat) string {
	if text, ok := formatRat(y, 12, 12); ok {
		return shorten(text, nameRunes)
	}
	return shorten(y.RatString(), nameRunes)
}

// floatText renders an approximate exponent for a message.
func floatText(x *big.Float) string {
	return x.Text('g', 10)
}
