package calc

import (
	"math/big"
	"testing"
)

// within reports whether |x - y| <= tol.
func within(x, y, tol *big.Float) bool {
	d := new(big.Float).SetPrec(x.Prec()+64).Sub(x, y)
	return d.Abs(d).Cmp(tol) <= 0
}

func TestExpAndLnAgree(t *testing.T) {
	for _, prec := range []uint{64, 200, 3400} {
		tol := pow2(-int(prec) + 8)
		e := eBall(prec + 64).mid
		if got := expFloat(newMid(prec).SetInt64(1), prec); !within(got, e, new(big.Float).Mul(tol, big.NewFloat(4))) {
			t.Errorf("prec %d: exp(1) = %s, want e = %s", prec, got.Text('g', 40), e.Text('g', 40))
		}
		if got := lnFloat(e, prec); !within(got, newMid(prec).SetInt64(1), tol) {
			t.Errorf("prec %d: ln(e) = %s, want 1", prec, got.Text('g', 40))
		}
		for _, s := range []string{"0.001", "0.5", "1", "2", "12345.678", "1e300", "1e-300"} {
			x, _ := newMid(prec).SetString(s)
			l := lnFloat(x, prec+32)
			back := expFloat(l, prec)
			relTol := new(big.Float).Mul(tol, absf(x))
			if !within(back, x, relTol) {
				t.Errorf("prec %d: exp(ln(%s)) = %s", prec, s, back.Text('g', 40))
			}
		}
	}
}

func TestBallsContainTheTrueValue(t *testing.T) {
	const prec, ref = 100, 400
	check := func(name string, b ball, truth *big.Float) {
		t.Helper()
		if !within(b.mid, truth, b.rad) {
			t.Errorf("%s: ball %s ± %s misses %s", name, b.mid.Text('g', 35), b.rad.Text('g', 5), truth.Text('g', 35))
		}
	}
	third := big.NewRat(1, 3)
	check("1/3", ballFromRat(third, prec), newMid(ref).SetRat(third))
	pi := piBall(prec)
	piRef := piBall(ref).mid
	check("pi", pi, piRef)
	check("e", eBall(prec), eBall(ref).mid)
	two := ballFromRat(big.NewRat(2, 1), prec)
	check("sqrt(2)", ballSqrt(two, prec), newMid(ref).Sqrt(newMid(ref).SetInt64(2)))
	check("pi*pi", ballMul(pi, pi, prec), newMid(ref).Mul(piRef, piRef))
	check("1/pi", ballQuo(ballFromRat(big.NewRat(1, 1), prec), pi, prec), newMid(ref).Quo(newMid(ref).SetInt64(1), piRef))
	check("pi-1/3", ballSub(pi, ballFromRat(third, prec), prec), newMid(ref).Sub(piRef, newMid(ref).SetRat(third)))
	check("ln(pi)", lnBall(pi, prec), lnFloat(piRef, ref))
	check("exp(pi)", expBall(pi, prec), expFloat(piRef, ref))
}

func TestIntRoot(t *testing.T) {
	cases := []struct {
		n    string
		k    int64
		root string
		ok   bool
	}{
		{"0", 3, "0", true},
		{"1", 7, "1", true},
		{"16", 2, "4", true},
		{"17", 2, "", false},
		{"27", 3, "3", true},
		{"28", 3, "", false},
		{"1267650600228229401496703205376", 100, "2", true}, // 2^100
		{"1267650600228229401496703205377", 100, "", false},
		{"1000000000000000000000000000000000000000000000000000000000000", 3, "100000000000000000000", true},
		{"2", 5, "", false},
	}
	for _, c := range cases {
		n, _ := new(big.Int).SetString(c.n, 10)
		r, ok := intRoot(n, c.k)
		if ok != c.ok || ok && r.String() != c.root {
			t.Errorf("intRoot(%s, %d) = %v, %v; want %s, %v", c.n, c.k, r, ok, c.root, c.ok)
		}
	}
	// A large perfect power: (3^1000 + 7)^7.
	base := new(big.Int).Exp(big.NewInt(3), big.NewInt(1000), nil)
	base.Add(base, big.NewInt(7))
	n := new(big.Int).Exp(base, big.NewInt(7), nil)
	if r, ok := intRoot(n, 7); !ok || r.Cmp(base) != 0 {
		t.Errorf("intRoot of a large 7th power failed")
	}
	if _, ok := intRoot(n.Add(n, big.NewInt(1)), 7); ok {
		t.Errorf("intRoot accepted a large non-power")
	}
}
