package calc

import "math/big"

// number is an intermediate result: exact when q is set, otherwise the
// approximation b. Values are never modified after creation, so they may be
// shared freely.
type number struct {
	q *big.Rat
	b ball
}

func exact(q *big.Rat) number { return number{q: q} }

func approx(b ball) number { return number{b: b} }

// isZero reports whether x is exactly zero.
func (x number) isZero() bool { return x.q != nil && x.q.Sign() == 0 }

// toBall returns x as a ball of the working precision.
func (ev *evaluator) toBall(x number) ball {
	if x.q != nil {
		return ballFromRat(x.q, ev.prec)
	}
	return x.b
}

// checkExact enforces the digit limit on an exact result.
func (ev *evaluator) checkExact(q *big.Rat, col int) (number, *Error) {
	if ev.digits.ratExceeds(q) {
		return number{}, ev.tooLarge(col)
	}
	return exact(q), nil
}

// checkBall enforces the digit limit on an approximate result. A ball that
// contains zero and is tiny is widened to a fixed tiny bound, which keeps it
// rigorous while stopping its exponent from drifting out of range.
func (ev *evaluator) checkBall(b ball, col int) (number, *Error) {
	maxBits := ev.digits.maxBits()
	if b.containsZero() {
		if b.rad.MantExp(nil) > maxBits {
			return number{}, ev.tooLarge(col)
		}
		floor := -maxBits - int(ev.prec) - guardBits
		if bound := upAdd(b.mid, b.rad); bound.MantExp(nil) < floor {
			b = ball{newMid(ev.prec), pow2(floor)}
		}
		return approx(b), nil
	}
	// 2^(e-1) <= |mid| < 2^e.
	e := b.mid.MantExp(nil)
	if e-1 >= maxBits || e <= -maxBits {
		return number{}, ev.tooLarge(col)
	}
	return approx(b), nil
}

// neg returns -x.
func neg(x number) number {
	if x.q != nil {
		return exact(new(big.Rat).Neg(x.q))
	}
	return approx(ballNeg(x.b))
}
