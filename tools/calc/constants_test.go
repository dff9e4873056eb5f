package calc

import (
	"math/big"
	"strings"
	"testing"
)

// The first 50 decimals of pi and e, from the published tables.
const (
	pi50 = "3.14159265358979323846264338327950288419716939937510"
	e50  = "2.71828182845904523536028747135266249775724709369995"
)

func TestConstantsFirst50Digits(t *testing.T) {
	cases := []struct{ expr, want string }{
		// 50 significant digits: the 51st digit of pi is 0, so it rounds down.
		{"pi", "3.1415926535897932384626433832795028841971693993751"},
		// e ends ...09369995, so 50 digits carry into ...0937000, trimmed.
		{"e", "2.7182818284590452353602874713526624977572470937"},
	}
	for _, c := range cases {
		v, err := Eval(c.expr, 50, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if v.Text != c.want || v.Exact {
			t.Errorf("%s to 50 digits = %s (exact %v), want %s", c.expr, v.Text, v.Exact, c.want)
		}
	}
	for _, c := range []struct{ expr, table string }{{"pi", pi50}, {"e", e50}} {
		v, err := Eval(c.expr, 60, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(v.Text, c.table) {
			t.Errorf("%s to 60 digits = %s, want prefix %s", c.expr, v.Text, c.table)
		}
	}
}

// TestConstantsTo1000Digits compares pi and e at the maximum precision with
// values computed here by different methods: the Gauss-Legendre iteration
// for pi and Brothers' series sum (2k+2)/(2k+1)! for e.
func TestConstantsTo1000Digits(t *testing.T) {
	const bits = 3500 // about 1050 decimal digits
	cases := []struct {
		expr string
		want *big.Float
		tail string // last digits of the 1000-digit rounding, from an independent table
	}{
		{"pi", gaussLegendrePi(bits), "2171226806613001927876611195909216420199"},
		{"e", brothersE(bits), "4171898610687396965521267154688957035035"},
	}
	for _, c := range cases {
		v, err := Eval(c.expr, 1000, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := c.want.Text('g', 1000)
		if v.Text != want {
			t.Errorf("%s to 1000 digits differs from the reference:\n got %s\nwant %s", c.expr, v.Text, want)
		}
		if !strings.HasSuffix(v.Text, c.tail) || len(v.Text) != 1001 {
			t.Errorf("%s to 1000 digits ends %s (length %d), want …%s", c.expr, v.Text[len(v.Text)-40:], len(v.Text), c.tail)
		}
	}
}

func gaussLegendrePi(prec uint) *big.Float {
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	a, b, t, p := f(1), f(0.5), f(0.25), f(1)
	b.Sqrt(b)
	for range 15 { // doubles the correct digits each time: 2^15 > 1050
		an := f(0).Add(a, b)
		an.Quo(an, f(2))
		bn := f(0).Mul(a, b)
		bn.Sqrt(bn)
		d := f(0).Sub(a, an)
		d.Mul(d, d)
		d.Mul(d, p)
		t.Sub(t, d)
		p.Mul(p, f(2))
		a, b = an, bn
	}
	s := f(0).Add(a, b)
	s.Mul(s, s)
	return s.Quo(s, t.Mul(t, f(4)))
}

func brothersE(prec uint) *big.Float {
	sum := new(big.Rat)
	fact := big.NewInt(1) // (2k+1)!
	for k := int64(0); k < 300; k++ {
		if k > 0 {
			fact.Mul(fact, big.NewInt(2*k))
			fact.Mul(fact, big.NewInt(2*k+1))
		}
		sum.Add(sum, new(big.Rat).SetFrac(big.NewInt(2*k+2), fact))
	}
	return new(big.Float).SetPrec(prec).SetRat(sum)
}
