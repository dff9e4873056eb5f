package toolcall

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

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
		a, ok1 := parseDecimal(tt.a)
		b, ok2 := parseDecimal(tt.b)
		if !ok1 || !ok2 {
			t.Errorf("%s or %s not read", tt.a, tt.b)
			continue
		}
		if got := a.cmp(b); got != tt.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.cmp)
		}
		if got := b.cmp(a); got != -tt.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.cmp)
		}
		if a.isInt() != tt.aWhole {
			t.Errorf("%s whole: %v", tt.a, a.isInt())
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1x", "0x10", "--1"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("%q read as a number", bad)
		}
	}
}

func FuzzDecimalOrdersAsBigRat(f *testing.F) {
	f.Add("1", "1.0")
	f.Add("-0.5e-3", "-5e-4")
	f.Add("123.456e2", "12345.6")
	f.Fuzz(func(t *testing.T, a, b string) {
		da, okA := parseDecimal(a)
		db, okB := parseDecimal(b)
		if okA != isNumberLiteral(a) {
			t.Fatalf("%q read as a number: %v; encoding/json says %v", a, okA, !okA)
		}
		if !okA || !okB || len(a) > 60 || len(b) > 60 || hugeExponent(a) || hugeExponent(b) {
			return
		}
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		if got, want := da.cmp(db), ra.Cmp(rb); got != want {
			t.Fatalf("cmp(%s, %s) = %d, big.Rat says %d", a, b, got, want)
		}
		if da.isInt() != ra.IsInt() {
			t.Fatalf("%s whole: %v, big.Rat says %v", a, da.isInt(), ra.IsInt())
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

// hugeExponent reports an exponent big.Rat would take long to expand.
func hugeExponent(s string) bool {
	i := strings.IndexAny(s, "eE")
	return i >= 0 && len(strings.TrimLeft(s[i+1:], "+-0")) > 3
}
