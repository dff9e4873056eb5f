package calc

import (
	"math"
	"math/big"
)

// guardBits is the extra precision the series and iterations below carry, so
// that their accumulated rounding errors stay far below the ulp they claim.
const guardBits = 64

// fixedToBall turns the fixed-point value v / 2^bits, known to within
// errUnits / 2^bits, into a ball of precision prec.
func fixedToBall(v *big.Int, errUnits int, bits uint, prec uint) ball {
	m := newMid(prec).SetMantExp(new(big.Float).SetInt(v), -int(bits))
	// SetMantExp keeps the precision of its argument; round explicitly.
	m = newMid(prec).Set(m)
	r := new(big.Float).SetMantExp(up().SetInt64(int64(errUnits)), -int(bits))
	return ball{m, upAdd(r, roundingErr(m))}
}

// arctanInv returns atan(1/x) * 2^bits in fixed point, truncated, and a bound
// on its error in units of 2^-bits. The series alternates; each term is the
// previous one divided by x^2, and each of the two truncating divisions per
// term costs at most one unit.
func arctanInv(x int64, bits uint) (*big.Int, int) {
	power := new(big.Int).Lsh(big.NewInt(1), bits)
	power.Quo(power, big.NewInt(x))
	sum := new(big.Int).Set(power)
	x2 := big.NewInt(x * x)
	term := new(big.Int)
	terms := 1
	for k := int64(1); ; k++ {
		power.Quo(power, x2)
		if power.Sign() == 0 {
			break
		}
		term.Quo(power, big.NewInt(2*k+1))
		if k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
		terms++
	}
	return sum, 2*terms + 2
}

// piBall computes pi with Machin's formula, pi = 16 atan(1/5) - 4 atan(1/239).
func piBall(prec uint) ball {
	bits := prec + guardBits
	a, ea := arctanInv(5, bits)
	b, eb := arctanInv(239, bits)
	a.Lsh(a, 4)
	b.Lsh(b, 2)
	return fixedToBall(a.Sub(a, b), 16*ea+4*eb, bits, prec)
}

// eBall computes e as the sum of 1/k!. Each term is the previous one divided
// by k, truncated, so the error is at most one unit per term plus the tail
// after the terms vanish.
func eBall(prec uint) ball {
	bits := prec + guardBits
	term := new(big.Int).Lsh(big.NewInt(1), bits)
	sum := new(big.Int).Set(term)
	terms := 0
	for k := int64(1); term.Sign() > 0; k++ {
		term.Quo(term, big.NewInt(k))
		sum.Add(sum, term)
		terms++
	}
	return fixedToBall(sum, 2*terms+2, bits, prec)
}

// expFloat returns exp(x) rounded to prec bits with a relative error of at
// most 2^-prec. It divides x by 2^n until it is below 2^-j, sums the Taylor
// series there and squares the result n times; the squarings double the
// relative error n times, which the working precision covers.
func expFloat(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newMid(prec).SetInt64(1)
	}
	j := int(math.Sqrt(float64(prec))) + 1
	n := max(x.MantExp(nil)+j, 0)
	wp := prec + uint(n) + guardBits
	r := newMid(wp).SetMantExp(x, -n)
	r = newMid(wp).Set(r)
	sum := newMid(wp).SetInt64(1)
	term := newMid(wp).SetInt64(1)
	k := newMid(wp)
	limit := -int(wp) - 1
	for i := int64(1); ; i++ {
		term.Mul(term, r)
		term.Quo(term, k.SetInt64(i))
		if term.Sign() == 0 || term.MantExp(nil) < limit {
			break
		}
		sum.Add(sum, term)
	}
	for range n {
		sum.Mul(sum, sum)
	}
	return newMid(prec).Set(sum)
}

// lnFloat returns ln(x) for x > 0, rounded to prec bits, with an absolute
// error of at most 2^-prec plus one ulp. It refines a float64 estimate with
// Newton's method on exp(y) = x, y' = y - 1 + x*exp(-y), doubling the
// precision at each step because each step doubles the correct bits.
func lnFloat(x *big.Float, prec uint) *big.Float {
	mant := new(big.Float)
	e := x.MantExp(mant)
	mf, _ := mant.Float64()
	y0 := math.Log(mf) + float64(e)*math.Ln2

	// The result may be as large as a few times 2^k in magnitude, so the
	// absolute error needs that many more bits.
	wp := prec + guardBits + uint(bitLen(int64(e)))
	var steps []uint
	for p := wp; p > 64; p = p/2 + 1 {
		steps = append(steps, p)
	}
	steps = append(steps, 64)

	y := newMid(wp).SetFloat64(y0)
	one := newMid(64).SetInt64(1)
	for i := len(steps) - 1; i >= -1; i-- {
		p := wp
		if i >= 0 {
			p = steps[i]
		}
		y.SetPrec(p)
		t := expFloat(newMid(p).Neg(y), p)
		t.Mul(t, x)
		t.Sub(t, one)
		y.Add(y, t)
	}
	return newMid(prec).Set(y)
}

// bitLen returns the number of bits of |v|.
func bitLen(v int64) int {
	if v < 0 {
		v = -v
	}
	n := 0
	for ; v > 0; v >>= 1 {
		n++
	}
	return n
}

// intRoot returns the q-th root of n >= 0 and true when n is a perfect q-th
// power.
func intRoot(n *big.Int, q int64) (*big.Int, bool) {
	if q == 1 || n.Cmp(big.NewInt(1)) <= 0 {
		return new(big.Int).Set(n), true
	}
	if q == 2 {
		r := new(big.Int).Sqrt(n)
		return r, new(big.Int).Mul(r, r).Cmp(n) == 0
	}
	b := int64(n.BitLen())
	if q >= b {
		// 1 < n < 2^q, so the root lies strictly between 1 and 2.
		return nil, false
	}
	// The root has about b/q bits; exp(ln(n)/q) with some spare bits is
	// close enough to round to the only candidate.
	prec := uint(b/q) + guardBits
	l := lnFloat(new(big.Float).SetInt(n), prec+uint(bitLen(b)))
	l.Quo(l, newMid(64).SetInt64(q))
	r := expFloat(l, prec)
	r.Add(r, newMid(64).SetFloat64(0.5))
	c, _ := r.Int(nil)
	if new(big.Int).Exp(c, big.NewInt(q), nil).Cmp(n) == 0 {
		return c, true
	}
	return nil, false
}
