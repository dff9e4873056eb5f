package decimal

import (
	"encoding/json"
	"math/big"
	"strings"
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

// checkAgainstRat compares Compare and IsInt with big.Rat on two
// literals big.Rat reads quickly.
func checkAgainstRat(t *testing.T, a, b string) {
	t.Helper()
	got, ok := Compare(a, b)
	if !ok {
		t.Fatalf("Compare(%q, %q) refused them", a, b)
	}
	if want := ratOf(t, a).Cmp(ratOf(t, b)); got != want {
		t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
	}
	if got, want := IsInt(a), ratOf(t, a).IsInt(); got != want {
		t.Errorf("IsInt(%q) = %v, want %v", a, got, want)
	}
}

func TestCompareAgreesWithBigRat(t *testing.T) {
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
		checkAgainstRat(t, tt[0], tt[1])
		checkAgainstRat(t, tt[1], tt[0])
	}
}

func TestDecimalsCompareAndKnowWholeNumbers(t *testing.T) {
	tests := []struct {
		a, b   string
		cmp    int
		aWhole bool
	}{
		{"1", "1.0", 0, true},
		{"1e2", "100", 0, true},
		{"0.1e1", "1", 0, true},
		{"-0", "0", 0, true},
		{"0.0e-5", "0", 0, true},
		{"1.5", "1", 1, false},
		{"-1.5", "-1", -1, false},
		{"10", "9.99999", 1, true},
		{"0.001", "1e-3", 0, false},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e29", 0, true},
		{"1e999999999", "1e999999998", 1, true},
		{"1e-999999999", "0", 1, false},
		{"-1e-999999999", "0", -1, false},
		{"12.50", "12.5", 0, false},
		{"1E+2", "1e2", 0, true},
	}
	for _, tt := range tests {
		a, ok1 := Parse(tt.a)
		b, ok2 := Parse(tt.b)
		if !ok1 || !ok2 {
			t.Errorf("%s or %s not read", tt.a, tt.b)
			continue
		}
		if got := a.Cmp(b); got != tt.cmp {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.cmp)
		}
		if got := b.Cmp(a); got != -tt.cmp {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.cmp)
		}
		if a.IsInt() != tt.aWhole {
			t.Errorf("%s whole: %v", tt.a, a.IsInt())
		}
		if a.String() != tt.a {
			t.Errorf("Parse(%q).String() = %q", tt.a, a.String())
		}
	}
}

func TestParseRefusesWhatIsNotALiteral(t *testing.T) {
	for _, s := range []string{
		"", "-", "+1", ".5", "1.", "1e", "1e+", "0x10", "1 ", " 1", "NaN", "Infinity", "1..2", "1e5e5",
		"01", "-01", "00", "1x", "--1",
	} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) accepted it", s)
		}
	}
}

func TestHugeExponentsKeepTheirOrder(t *testing.T) {
	// Exponents that big.Rat would take long to expand, and some that
	// saturate, are still ordered correctly against any other literal.
	tests := []struct {
		a, b string
		want int
	}{
		{"1e-99999999999999999999", "1e-400", -1},
		{"1e-99999999999999999999", "0", 1},
		{"-1e-99999999999999999999", "0", -1},
		{"1e99999999999999999999", "1e400", 1},
		{"-1e99999999999999999999", "-1e400", -1},
		{"1e99999999999999999999", "9e999999999999999", 1},
	}
	for _, tt := range tests {
		if got, ok := Compare(tt.a, tt.b); !ok || got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, %v; want %d", tt.a, tt.b, got, ok, tt.want)
		}
		if got, ok := Compare(tt.b, tt.a); !ok || got != -tt.want {
			t.Errorf("Compare(%q, %q) = %d, %v; want %d", tt.b, tt.a, got, ok, -tt.want)
		}
	}
}

func TestUintReadsCounts(t *testing.T) {
	tests := []struct {
		lit    string
		digits int
		want   uint64
		ok     bool
	}{
		{"0", 9, 0, true},
		{"-0", 9, 0, true},
		{"3", 9, 3, true},
		{"3.0", 9, 3, true},
		{"30e-1", 9, 3, true},
		{"1.2e3", 9, 1200, true},
		{"100", 9, 100, true},
		{"999999999", 9, 999999999, true},
		{"1e9", 9, 0, false},
		{"1000000000", 9, 0, false},
		{"-1", 9, 0, false},
		{"2.5", 9, 0, false},
		{"1e999999999", 9, 0, false},
		{"18446744073709551615", 18, 0, false},
		{"999999999999999999", 18, 999999999999999999, true},
		{"5", 19, 0, false},
	}
	for _, tt := range tests {
		d, ok := Parse(tt.lit)
		if !ok {
			t.Fatalf("Parse(%q) refused it", tt.lit)
		}
		if got, ok := d.Uint(tt.digits); got != tt.want || ok != tt.ok {
			t.Errorf("Parse(%q).Uint(%d) = %d, %v; want %d, %v", tt.lit, tt.digits, got, ok, tt.want, tt.ok)
		}
	}
}

func TestDecimalDoesNotAllocate(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		Compare("9007199254740993.25e-3", "9007199254740.99325")
		IsInt("1.2500e2")
	})
	if n != 0 {
		t.Errorf("%v allocations per comparison", n)
	}
}

// FuzzDecimalOrdersAsBigRat checks that Parse reads what encoding/json
// reads as one number, and the comparison and IsInt against math/big, on
// literals big.Rat expands quickly.
func FuzzDecimalOrdersAsBigRat(f *testing.F) {
	for _, s := range [][2]string{
		{"0", "-0"}, {"1", "1.0"}, {"0.1", "1e-1"}, {"-12.5e1", "-125"}, {"1e400", "9e399"},
		{"-0.5e-3", "-5e-4"}, {"123.456e2", "12345.6"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, okA := Parse(a)
		db, okB := Parse(b)
		if okA != isNumberLiteral(a) {
			t.Fatalf("%q read as a number: %v; encoding/json says %v", a, okA, !okA)
		}
		if !okA || !okB || len(a) > 100 || len(b) > 100 || hugeExponent(a) || hugeExponent(b) {
			return
		}
		ra, rb := ratOf(t, a), ratOf(t, b)
		if got, want := da.Cmp(db), ra.Cmp(rb); got != want {
			t.Fatalf("Cmp(%s, %s) = %d, big.Rat says %d", a, b, got, want)
		}
		if da.IsInt() != ra.IsInt() {
			t.Fatalf("%s whole: %v, big.Rat says %v", a, da.IsInt(), ra.IsInt())
		}
		if got, ok := da.Uint(18); ok != (ra.IsInt() && ra.Sign() >= 0 && ra.Cmp(big.NewRat(1e18, 1)) < 0) ||
			(ok && new(big.Rat).SetUint64(got).Cmp(ra) != 0) {
			t.Fatalf("Uint(%s) = %d, %v; big.Rat says %s", a, got, ok, ra.RatString())
		}
	})
}

// isNumberLiteral reports whether s decodes as a JSON number alone.
func isNumberLiteral(s string) bool {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return false
	}
	n, ok := v.(json.Number)
	return ok && string(n) == s
}

// hugeExponent reports an exponent big.Rat would take long to expand,
// beyond the ±400 schemagen lets through.
func hugeExponent(s string) bool {
	i := strings.IndexAny(s, "eE")
	return i >= 0 && len(strings.TrimLeft(s[i+1:], "+-0")) > 3
}
