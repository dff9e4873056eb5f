package calc

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLayout(t *testing.T) {
	cases := []struct {
		name     string
		negative bool
		digits   string
		exp      int
		maxPlain int
		want     string
	}{
		{"plain integer", false, "1", 6, 40, "1000000"},
		{"plain fraction", false, "125", 0, 40, "1.25"},
		{"plain small value", true, "5", -3, 40, "-0.005"},
		{"smallest plain exponent", false, "1", -10, 40, "0.0000000001"},
		{"below the plain range", false, "1", -11, 40, "1e-11"},
		{"above the plain range", false, "1234", 50, 40, "1.234e+50"},
		{"negative scientific", true, "25", 60, 40, "-2.5e+60"},
		{"rounded value past its precision", false, "33333", 6, 5, "3.3333e+6"},
	}
	for _, c := range cases {
		if got := layout(c.negative, c.digits, c.exp, c.maxPlain); got != c.want {
			t.Errorf("%s: layout = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFormatRat(t *testing.T) {
	cases := []struct {
		name  string
		q     *big.Rat
		want  string
		exact bool
	}{
		{"zero", new(big.Rat), "0", true},
		{"integer", big.NewRat(-42, 1), "-42", true},
		{"half", big.NewRat(1, 2), "0.5", true},
		{"a fifth of a thousandth", big.NewRat(1, 5000), "0.0002", true},
		{"large exact non-integer", new(big.Rat).SetFrac(new(big.Int).Add(pow10(50), big.NewInt(1)), big.NewInt(2)), "5.00000000000000000000000000000000000000000000000005e+49", true},
		{"repeating", big.NewRat(1, 3), "0.333333333333333333333333333333", false},
		{"repeating negative", big.NewRat(-2, 3), "-0.666666666666666666666666666667", false},
		{"repeating just below a third", new(big.Rat).SetFrac(new(big.Int).Sub(pow10(40), big.NewInt(3)), new(big.Int).Mul(pow10(40), big.NewInt(3))), "0.333333333333333333333333333333", false},
		{"repeating value rounding up to a power of ten", new(big.Rat).SetFrac(new(big.Int).Sub(pow10(40), big.NewInt(1)), new(big.Int).Add(pow10(40), big.NewInt(1))), "1", false},
	}
	for _, c := range cases {
		got, exact := formatRat(c.q, 30, 10000)
		if got != c.want || exact != c.exact {
			t.Errorf("%s: formatRat(%s) = %q, %v; want %q, %v", c.name, c.q.RatString(), got, exact, c.want, c.exact)
		}
	}
	// Terminating decimals longer than the digit limit are rounded.
	got, exact := formatRat(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 100)), 5, 20)
	if got != "7.8886e-31" || exact {
		t.Errorf("long terminating decimal: got %q, %v", got, exact)
	}
}

// TestRoundSigMatchesFloatString checks the rounding against big.Rat's own
// FloatString, which also rounds halves away from zero, on random values
// scaled into [1, 10).
func TestRoundSigMatchesFloatString(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		num := big.NewInt(rng.Int64N(1_000_000_000) + 1)
		den := big.NewInt(rng.Int64N(1_000_000_000) + 1)
		q := new(big.Rat).SetFrac(num, den)
		// Scale into [1, 10) so that n significant digits are n-1 places.
		for q.Cmp(big.NewRat(1, 1)) < 0 {
			q.Mul(q, big.NewRat(10, 1))
		}
		for q.Cmp(big.NewRat(10, 1)) >= 0 {
			q.Quo(q, big.NewRat(10, 1))
		}
		n := rng.IntN(40) + 1
		want := q.FloatString(n - 1)
		if strings.HasPrefix(want, "10") {
			continue // rounded up past 10; checked by the cases above
		}
		digits, exp := roundSig(q, n)
		if exp != 0 {
			t.Fatalf("roundSig(%s, %d) exponent %d, want 0", q.RatString(), n, exp)
		}
		wantDigits := strings.TrimRight(strings.ReplaceAll(want, ".", ""), "0")
		if digits != wantDigits {
			t.Fatalf("roundSig(%s, %d) = %s, want %s", q.RatString(), n, digits, wantDigits)
		}
	}
}

func TestDecimalPlaces(t *testing.T) {
	cases := []struct {
		den    int64
		places int
		ok     bool
	}{
		{1, 0, true}, {2, 1, true}, {4, 2, true}, {5, 1, true}, {8, 3, true},
		{10, 1, true}, {25, 2, true}, {40, 3, true}, {3, 0, false}, {6, 0, false},
		{15625, 6, true}, {15626, 0, false}, {125 * 3, 0, false},
	}
	for _, c := range cases {
		places, ok := decimalPlaces(big.NewInt(c.den))
		if ok != c.ok || ok && places != c.places {
			t.Errorf("decimalPlaces(%d) = %d, %v; want %d, %v", c.den, places, ok, c.places, c.ok)
		}
	}
}
