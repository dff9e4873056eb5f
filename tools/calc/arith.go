package calc

import "math/big"

// binary applies an infix operator at column col. A division by zero is
// reported at bcol, the column of the divisor, where the mistake is.
func (ev *evaluator) binary(op string, a, b number, col, bcol int) (number, *Error) {
	if (op == "/" || op == "%") && b.isZero() && bcol > 0 {
		return number{}, ev.fail(bcol, say(msgDivisionByZero), message{})
	}
	switch op {
	case "+":
		return ev.add(a, b, col)
	case "-":
		return ev.add(a, neg(b), col)
	case "*":
		return ev.mul(a, b, col)
	case "/":
		return ev.quo(a, b, col)
	case "%":
		return ev.rem(a, b, col)
	}
	return ev.power(a, b, col)
}

func (ev *evaluator) add(a, b number, col int) (number, *Error) {
	if a.q != nil && b.q != nil {
		return ev.checkExact(new(big.Rat).Add(a.q, b.q), col)
	}
	return ev.checkBall(ballAdd(ev.toBall(a), ev.toBall(b), ev.prec), col)
}

func (ev *evaluator) mul(a, b number, col int) (number, *Error) {
	if a.isZero() || b.isZero() {
		// Zero times anything, even an approximation, is exactly zero.
		return exact(new(big.Rat)), nil
	}
	if a.q != nil && b.q != nil {
		return ev.checkExact(new(big.Rat).Mul(a.q, b.q), col)
	}
	return ev.checkBall(ballMul(ev.toBall(a), ev.toBall(b), ev.prec), col)
}

func (ev *evaluator) quo(a, b number, col int) (number, *Error) {
	if b.isZero() {
		return number{}, ev.fail(col, say(msgDivisionByZero), message{})
	}
	if a.q != nil && b.q != nil {
		return ev.checkExact(new(big.Rat).Quo(a.q, b.q), col)
	}
	bb := ev.toBall(b)
	if bb.containsZero() {
		return number{}, ev.undecided(col, say(msgDivisorNearZero), say(msgHintDivisorZero))
	}
	if a.isZero() {
		return exact(new(big.Rat)), nil
	}
	return ev.checkBall(ballQuo(ev.toBall(a), bb, ev.prec), col)
}

// rem returns a - b*trunc(a/b), which has the sign of a.
func (ev *evaluator) rem(a, b number, col int) (number, *Error) {
	if b.isZero() {
		return number{}, ev.fail(col, say(msgDivisionByZero), message{})
	}
	q, err := ev.quo(a, b, col)
	if err != nil {
		return number{}, err
	}
	t, err := ev.toInteger(q, truncMode, col)
	if err != nil {
		return number{}, err
	}
	if t.isZero() {
		return a, nil
	}
	bt, err := ev.mul(b, t, col)
	if err != nil {
		return number{}, err
	}
	return ev.add(a, neg(bt), col)
}
