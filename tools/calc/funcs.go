package calc

import "math/big"

// call applies a built-in function to its evaluated arguments. The parser
// has already checked the name and the number of arguments.
func (ev *evaluator) call(name string, args []number, col int) (number, *Error) {
	switch name {
	case "sqrt":
		return ev.sqrt(args[0], col)
	case "abs":
		if x := args[0]; x.q != nil {
			return exact(new(big.Rat).Abs(x.q)), nil
		}
		return approx(ballAbs(args[0].b)), nil
	case "floor":
		return ev.toInteger(args[0], floorMode, col)
	case "ceil":
		return ev.toInteger(args[0], ceilMode, col)
	case "round":
		if len(args) == 2 {
			return ev.roundPlaces(args[0], args[1], col)
		}
		return ev.toInteger(args[0], roundMode, col)
	case "min":
		return ev.extreme(args, -1, col)
	}
	return ev.extreme(args, 1, col)
}

func (ev *evaluator) sqrt(x number, col int) (number, *Error) {
	if x.q != nil {
		if x.q.Sign() < 0 {
			return number{}, ev.fail(col, say(msgSqrtNegative), message{})
		}
		if r, ok := ratRoot(x.q, 2); ok {
			return exact(r), nil
		}
	}
	b := ev.toBall(x)
	switch b.sign() {
	case -1:
		return number{}, ev.fail(col, say(msgSqrtNegative), message{})
	case 0:
		return number{}, ev.undecided(col, say(msgSqrtNearZero), message{})
	}
	ev.cost += 0.1
	return ev.checkBall(ballSqrt(b, ev.prec), col)
}

// integerMode selects how toInteger rounds.
type integerMode uint8

const (
	floorMode integerMode = iota
	ceilMode
	roundMode // half away from zero
	truncMode
)

// ratToInt rounds q to an integer.
func ratToInt(q *big.Rat, mode integerMode) *big.Int {
	num, den := q.Num(), q.Denom()
	switch mode {
	case floorMode:
		// Div is Euclidean division, which is floor for a positive divisor.
		return new(big.Int).Div(num, den)
	case ceilMode:
		z := new(big.Int).Neg(num)
		z.Div(z, den)
		return z.Neg(z)
	case roundMode:
		// floor(|q| + 1/2) = floor((2|num| + den) / 2den), with q's sign.
		z := new(big.Int).Abs(num)
		z.Lsh(z, 1).Add(z, den)
		z.Quo(z, new(big.Int).Lsh(den, 1))
		if num.Sign() < 0 {
			z.Neg(z)
		}
		return z
	}
	return new(big.Int).Quo(num, den)
}

// toInteger rounds x to an integer. For an approximation it succeeds only
// when both ends of the ball round alike; the result is then exact.
func (ev *evaluator) toInteger(x number, mode integerMode, col int) (number, *Error) {
	if x.q != nil {
		return ev.checkExact(new(big.Rat).SetInt(ratToInt(x.q, mode)), col)
	}
	lo, hi := x.b.bounds()
	a, b := ratToInt(lo, mode), ratToInt(hi, mode)
	if a.Cmp(b) != 0 {
		return number{}, ev.undecided(col, say(undecidedInteger[mode]), message{})
	}
	return ev.checkExact(new(big.Rat).SetInt(a), col)
}

// undecidedInteger explains, per mode, why an approximation could not be
// rounded to an integer.
var undecidedInteger = [...]msgID{
	floorMode: msgFloorUndecided,
	ceilMode:  msgCeilUndecided,
	roundMode: msgRoundUndecided,
	truncMode: msgRemainderUndecided,
}

// roundPlaces rounds x half away from zero to the given number of decimal
// places; negative places round to tens, hundreds and so on.
func (ev *evaluator) roundPlaces(x, places number, col int) (number, *Error) {
	if places.q == nil || !places.q.IsInt() {
		return number{}, ev.fail(col, say(msgRoundPlacesNotWhole), say(msgHintWrite, lit("round(x, 2)")))
	}
	p := places.q.Num()
	if !p.IsInt64() || p.Int64() > int64(ev.lim.MaxDigits) || p.Int64() < -int64(ev.lim.MaxDigits) {
		return number{}, ev.fail(col, say(msgRoundPlacesLimit, lit(shorten(p.String(), nameRunes)), num(ev.lim.MaxDigits)), message{})
	}
	n := p.Int64()
	scale := new(big.Rat).SetInt(pow10(abs64(n)))
	if n < 0 {
		scale.Inv(scale)
	}
	scaled, err := ev.mul(x, exact(scale), col)
	if err != nil {
		return number{}, err
	}
	r, err := ev.toInteger(scaled, roundMode, col)
	if err != nil {
		return number{}, err
	}
	return ev.checkExact(new(big.Rat).Quo(r.q, scale), col)
}

// extreme returns the minimum (dir < 0) or maximum (dir > 0) of args. When
// two approximations overlap so that the order is unknown, the result is a
// ball around the larger midpoint with the larger radius, which contains the
// true extreme because max and min move no more than their arguments do.
func (ev *evaluator) extreme(args []number, dir int, col int) (number, *Error) {
	best := args[0]
	for _, x := range args[1:] {
		if best.q != nil && x.q != nil {
			if x.q.Cmp(best.q)*dir > 0 {
				best = x
			}
			continue
		}
		a, b := ev.toBall(best), ev.toBall(x)
		switch ballSub(b, a, ev.prec).sign() * dir {
		case 1:
			best = x
		case 0:
			m, r := a.mid, a.rad
			if b.mid.Cmp(a.mid)*dir > 0 {
				m = b.mid
			}
			if b.rad.Cmp(r) > 0 {
				r = b.rad
			}
			best = approx(ball{m, r})
		}
	}
	if best.q != nil {
		return best, nil
	}
	return ev.checkBall(best.b, col)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
