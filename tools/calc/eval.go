package calc

import (
	"math"
	"math/big"
	"strings"
)

// Value is the result of an evaluation.
type Value struct {
	// Text is the result in decimal: every digit when Exact is true,
	// otherwise rounded to Precision significant digits, trailing zeros
	// removed. Very large or small non-integers use scientific notation,
	// like 1.5e+60; integers always print in full.
	Text string
	// Exact reports whether Text is exactly the mathematical value.
	Exact bool
	// Rat is the exact value when the result is a known rational, even one
	// whose decimal expansion repeats (then Exact is false), and nil for
	// approximations of irrational results.
	Rat *big.Rat
	// Precision is the number of significant digits Text was rounded to,
	// or 0 when Text is exact.
	Precision int
}

// String returns v.Text.
func (v Value) String() string { return v.Text }

// Eval evaluates expr and returns its value, rounded to precision significant
// digits when it is not exact. A precision of zero or less means
// DefaultPrecision; more than MaxPrecision is an error. Every error is an
// *Error.
func Eval(expr string, precision int, lim Limits) (Value, error) {
	v, err := eval(expr, precision, lim)
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// eval is Eval with a concrete error type, so that a nil *Error never turns
// into a non-nil error interface.
func eval(expr string, precision int, lim Limits) (Value, *Error) {
	lim = lim.withDefaults()
	if precision <= 0 {
		precision = DefaultPrecision
	}
	if precision > MaxPrecision {
		return Value{}, newError(0, expr, say(msgPrecision, num(precision), num(MaxPrecision)), message{})
	}
	if len(expr) > lim.MaxExprLen {
		return Value{}, newError(0, expr, say(msgTooLong, num(len(expr)), num(lim.MaxExprLen)), message{})
	}
	if strings.TrimSpace(expr) == "" {
		return Value{}, newError(0, expr, say(msgEmpty), say(msgHintEmpty))
	}
	root, err := parse(expr, lim)
	if err != nil {
		return Value{}, err
	}

	ev := &evaluator{expr: expr, lim: lim, digits: digitLimit{max: lim.MaxDigits}}
	levels := workingDigits(precision, lim.MaxDigits)
	for i, w := range levels {
		ev.setWorkingDigits(w)
		n, err := ev.eval(root)
		last := i == len(levels)-1 || ev.cost*levelCost(levels[i+1]) > workBudget
		if err != nil {
			if err.undecided && !last {
				continue
			}
			err.undecided = false
			return Value{}, err
		}
		if n.q != nil {
			return ratValue(n.q, precision, lim.MaxDigits), nil
		}
		if text, ok := formatBall(n.b, precision); ok {
			return Value{Text: text, Precision: precision}, nil
		}
		if last {
			return Value{}, unsettled(n.b, precision, expr)
		}
	}
	panic("unreachable")
}

// ratValue formats an exact result.
func ratValue(q *big.Rat, precision, maxDigits int) Value {
	text, exact := formatRat(q, precision, maxDigits)
	v := Value{Text: text, Exact: exact, Rat: q}
	if !exact {
		v.Precision = precision
	}
	return v
}

// unsettled explains why even the highest working precision left the
// digits of an approximate result undetermined.
func unsettled(b ball, precision int, expr string) *Error {
	if b.containsZero() {
		bound := upAdd(b.mid, b.rad)
		exp10 := int(math.Ceil(float64(bound.MantExp(nil)) * log10of2))
		return newError(0, expr, say(msgNearZero, num(exp10)), say(msgHintMaybeZero))
	}
	return newError(0, expr, say(msgRoundingBoundary, num(precision)), say(msgHintOtherPrecision))
}

// Approximate results are first computed with guardDigits more digits than
// requested. When that cannot settle them (a ball straddles zero, an integer
// or a rounding boundary), Eval retries with four times as many digits, up to
// enough to resolve cancellation between numbers of MaxDigits digits but at
// most maxWorkingDigits, and only while the estimated work of the next
// attempt stays within workBudget.
const (
	guardDigits      = 20
	maxWorkingDigits = 12000
	workBudget       = 5e5
)

// workingDigits returns the working precisions, in decimal digits, of
// successive attempts.
func workingDigits(precision, maxDigits int) []int {
	last := min(precision+maxDigits+2*guardDigits, maxWorkingDigits)
	var ws []int
	for w := precision + guardDigits; w < last; w *= 4 {
		ws = append(ws, w)
	}
	return append(ws, last)
}

// levelCost estimates the cost of the transcendental operations at w digits
// relative to evaluator.cost, which weighs a power with a non-integer
// exponent 4, pi 2, e 1 and a square root 0.1. One unit of the product is
// about two microseconds.
func levelCost(w int) float64 {
	x := float64(w) / 100
	return x * x
}

// evaluator walks a syntax tree at one working precision.
type evaluator struct {
	expr   string
	lim    Limits
	digits digitLimit
	prec   uint // working precision of balls, in bits
	pi, e  *ball
	cost   float64 // transcendental operations in this attempt, weighted
}

// setWorkingDigits prepares a new attempt with w significant digits.
func (ev *evaluator) setWorkingDigits(w int) {
	ev.prec = uint(math.Ceil(float64(w)*log2of10)) + 8
	ev.pi, ev.e = nil, nil
	ev.cost = 0
}

// eval evaluates n. Exact results are remembered in the tree because more
// working precision cannot change them.
func (ev *evaluator) eval(n *node) (number, *Error) {
	if n.exact != nil {
		return exact(n.exact), nil
	}
	v, err := ev.evalNode(n)
	if err == nil && v.q != nil {
		n.exact = v.q
	}
	return v, err
}

func (ev *evaluator) evalNode(n *node) (number, *Error) {
	switch n.kind {
	case nodeNumber:
		return exact(n.val), nil
	case nodeConst:
		return approx(ev.constant(n.op)), nil
	case nodeNeg:
		x, err := ev.eval(n.args[0])
		if err != nil {
			return number{}, err
		}
		return neg(x), nil
	case nodeBinary:
		a, err := ev.eval(n.args[0])
		if err != nil {
			return number{}, err
		}
		b, err := ev.eval(n.args[1])
		if err != nil {
			return number{}, err
		}
		return ev.binary(n.op, a, b, n.col, n.rcol)
	}
	args := make([]number, len(n.args))
	for i, a := range n.args {
		x, err := ev.eval(a)
		if err != nil {
			return number{}, err
		}
		args[i] = x
	}
	return ev.call(n.op, args, n.col)
}

// constant returns pi or e at the working precision.
func (ev *evaluator) constant(name string) ball {
	if name == "pi" {
		if ev.pi == nil {
			ev.cost += 2
			b := piBall(ev.prec)
			ev.pi = &b
		}
		return *ev.pi
	}
	if ev.e == nil {
		ev.cost++
		b := eBall(ev.prec)
		ev.e = &b
	}
	return *ev.e
}

// fail returns an error at column col.
func (ev *evaluator) fail(col int, msg, hint message) *Error {
	return newError(col, ev.expr, msg, hint)
}

// undecided returns an error that more working precision may avoid.
func (ev *evaluator) undecided(col int, msg, hint message) *Error {
	e := newError(col, ev.expr, msg, hint)
	e.undecided = true
	return e
}

// tooLarge reports a result over the digit limit.
func (ev *evaluator) tooLarge(col int) *Error {
	return ev.fail(col, say(msgTooManyDigits, num(ev.lim.MaxDigits)), message{})
}
