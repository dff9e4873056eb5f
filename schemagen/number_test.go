package schemagen

import (
	"math/big"
	"testing"
)

// ratOf returns the exact value of a number literal.
func ratOf(t testing.TB, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat cannot read %q", s)
	}
	return r
}

// checkDecimal compares compareLiterals and isIntegerLiteral with big.Rat
// on two sane number literals.
func checkDecimal(t *testing.T, a, b string) {
	t.Helper()
	got, ok := compareLiterals(a, b)
	if !ok {
		t.Fatalf("compareLiterals(%q, %q) refused them", a, b)
	}
	if want := ratOf(t, a).Cmp(ratOf(t, b)); got != want {
		t.Errorf("compareLiterals(%q, %q) = %d, want %d", a, b, got, want)
	}
	if got, want := isIntegerLiteral(a), ratOf(t, a).IsInt(); got != want {
		t.Errorf("isIntegerLiteral(%q) = %v, want %v", a, got, want)
	}
}

func TestCompareLiterals(t *testing.T) {
	tests := [][2]string{
		{"0", "-0"}, {"-0", "0.0"}, {"0e10", "-0.000e-5"}, {"1", "1.0"}, {"1", "1e0"}, {"1", "0.1e1"}, {"10", "1e1"},
		{"100", "1E+2"}, {"0.1", "1e-1"}, {"0.1", "0.10000000000000001"}, {"0.30000000000000004", "0.3"},
		{"9007199254740993", "9007199254740992"}, {"9223372036854775807", "9223372036854775808"},
		{"-9223372036854775808", "-9223372036854775809"}, {"18446744073709551615", "1.8446744073709551615e19"},
		{"1e400", "1.7976931348623157e308"}, {"-1e400", "-1.7976931348623157e308"}, {"1e-400", "0"}, {"-1e-400", "0"},
		{"1e-400", "1e-399"}, {"123.456", "123.4560"}, {"123.456", "123.4561"}, {"-123.456", "-123.4561"},
		{"0.001", "0.01"}, {"-5", "3"}, {"3", "-5"}, {"12.5e1", "125"}, {"1250e-1", "125"}, {"99", "100"},
		{"0.00099", "0.001"}, {"2.0", "2"}, {"2.5", "2"}, {"1.5e1", "15"}, {"1.25e1", "12.5"}, {"100e-2", "1"},
		{"7e-1", "0.7"}, {"0", "1e-400"}, {"1", "0.9999999999999999999999"},
	}
	for _, tt := range tests {
		checkDecimal(t, tt[0], tt[1])
		checkDecimal(t, tt[1], tt[0])
	}
}

func TestParseDecimalRefusesNonLiterals(t *testing.T) {
	for _, s := range []string{"", "-", "+1", ".5", "1.", "1e", "1e+", "0x10", "1 ", " 1", "NaN", "Infinity", "1..2", "1e5e5"} {
		if _, ok := parseDecimal(s); ok {
			t.Errorf("parseDecimal(%q) accepted it", s)
		}
	}
}

func TestHugeExponentsKeepTheirOrder(t *testing.T) {
	// Bounds with exponents big.Rat would take long to expand are still
	// ordered correctly against any sane literal.
	tests := []struct {
		a, b string
		want int
	}{
		{"1e-99999999999999999999", "1e-400", -1},
		{"1e-99999999999999999999", "0", 1},
		{"-1e-99999999999999999999", "0", -1},
		{"1e99999999999999999999", "1e400", 1},
	}
	for _, tt := range tests {
		if got, ok := compareLiterals(tt.a, tt.b); !ok || got != tt.want {
			t.Errorf("compareLiterals(%q, %q) = %d, %v; want %d", tt.a, tt.b, got, ok, tt.want)
		}
	}
}

func TestDecimalDoesNotAllocate(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		compareLiterals("9007199254740993.25e-3", "9007199254740.99325")
		isIntegerLiteral("1.2500e2")
	})
	if n != 0 {
		t.Errorf("%v allocations per comparison", n)
	}
}

// FuzzCompareLiterals checks the exact comparison of number literals
// against math/big, on literals within the limits Decode allows.
func FuzzCompareLiterals(f *testing.F) {
	for _, s := range [][2]string{{"0", "-0"}, {"1", "1.0"}, {"0.1", "1e-1"}, {"-12.5e1", "-125"}, {"1e400", "9e399"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !isJSONNumber(a) || !isJSONNumber(b) || !saneNumber(a) || !saneNumber(b) {
			return
		}
		checkDecimal(t, a, b)
	})
}
