package calc

import (
	"math"
	"math/big"
)

const (
	log10of2 = 0.30102999566398119521373889472449302676818988146211
	log2of10 = 3.3219280948873623478703194294893901758648313930246
)

// digitLimit decides whether integers stay within Limits.MaxDigits.
type digitLimit struct {
	max   int
	pow10 *big.Int // 10^max, computed on first need
}

// exceeds reports whether |x| has more than d.max decimal digits. The bit
// length settles almost every case; only values within a bit or two of
// 10^max are compared exactly.
func (d *digitLimit) exceeds(x *big.Int) bool {
	b := x.BitLen()
	if b == 0 {
		return false
	}
	// 2^(b-1) <= |x| < 2^b, so the digit count lies between these bounds;
	// the extra 1 absorbs rounding in the float64 products.
	if int(float64(b)*log10of2)+2 <= d.max {
		return false
	}
	if int(float64(b-1)*log10of2) > d.max+1 {
		return true
	}
	if d.pow10 == nil {
		d.pow10 = pow10(int64(d.max))
	}
	return x.CmpAbs(d.pow10) >= 0
}

// ratExceeds reports whether the numerator or denominator of q is too long.
func (d *digitLimit) ratExceeds(q *big.Rat) bool {
	return d.exceeds(q.Num()) || d.exceeds(q.Denom())
}

// maxBits is the binary exponent matching d.max decimal digits: a float of at
// least 2^maxBits in magnitude has an integer part longer than d.max digits.
func (d *digitLimit) maxBits() int {
	return int(math.Ceil(float64(d.max) * log2of10))
}

// pow10 returns 10^n for n >= 0.
func pow10(n int64) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil)
}
