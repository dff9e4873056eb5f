package calc

import (
	"strings"
	"testing"
	"time"
)

// abuseCase is an expression crafted to cost much, and its name.
type abuseCase struct{ name, expr string }

// abuseCases are expressions the limits must stop before they cost much.
func abuseCases() []abuseCase {
	return []abuseCase{
		{"a power tower", "9^9^9^9"},
		{"a product of huge powers", "10^99999*10^99999"},
		{"a huge exponent literal", "2^1e999999"},
		{"a huge exponent computed", "2^(10^9999)"},
		{"a repeated product at the digit limit", strings.Repeat("3^9000*", 300) + "1"},
		{"repeated additions of huge fractions", strings.Repeat("1/(3^9000+1)+", 40) + "0"},
		{"floor of a huge irrational", "floor(pi*10^9990)"},
		{"round to many places", "round(pi, 10000)"},
		{"a deep tower of roots", strings.Repeat("sqrt(", 60) + "2" + strings.Repeat(")", 60)},
		{"an irrational power near the limit", "pi^99999"},
		{"a huge rational root", "(3^9000+1)^(1/7)"},
		{"cancellation that never settles", "sqrt(2)^2-2"},
		{"many cancelling powers", strings.Repeat("2^pi-2^pi+", 100) + "0"},
		{"a power of a tiny ball", "(pi-pi+1e-9000)^99999"},
		{"many digits of many constants", strings.Repeat("pi*e+", 300) + "0"},
	}
}

// TestAbuseIsRefusedQuickly runs inputs designed to cost time or memory and
// checks that each ends (BenchmarkAbuse says how fast).
func TestAbuseIsRefusedQuickly(t *testing.T) {
	for _, c := range abuseCases() {
		t.Run(c.name, func(t *testing.T) {
			// A guard against a stall, not a measure of speed (which
			// BenchmarkAbuse reports): on a loaded machine under -race
			// these take about a second, and the limits keep each far
			// below a minute.
			start := time.Now()
			_, err := Eval(c.expr, 0, Limits{})
			if d := time.Since(start); d > time.Minute {
				t.Errorf("Eval took %v (error: %v)", d, err)
			}
		})
	}
}

func TestDigitLimitBoundary(t *testing.T) {
	v, err := Eval("10^9999*9", 0, Limits{})
	if err != nil {
		t.Fatalf("a 10000-digit integer was refused: %v", err)
	}
	if len(v.Text) != 10000 || !v.Exact {
		t.Errorf("got %d digits, exact %v; want all 10000, exact", len(v.Text), v.Exact)
	}
	if _, err := Eval("10^9999*10", 0, Limits{}); err == nil {
		t.Errorf("a 10001-digit integer was accepted")
	}
}

func TestNestingLimitBoundary(t *testing.T) {
	ok := strings.Repeat("(", 64) + "1" + strings.Repeat(")", 64)
	if _, err := Eval(ok, 0, Limits{}); err != nil {
		t.Errorf("64 levels of parentheses were refused: %v", err)
	}
	calls := strings.Repeat("abs(", 64) + "1" + strings.Repeat(")", 64)
	if _, err := Eval(calls, 0, Limits{}); err != nil {
		t.Errorf("64 nested calls were refused: %v", err)
	}
	if _, err := Eval("abs("+calls+")", 0, Limits{}); err == nil {
		t.Errorf("65 nested calls were accepted")
	}
}

func TestLimitsDefaults(t *testing.T) {
	got := Limits{MaxDepth: -1, MaxDigits: 1 << 40}.withDefaults()
	want := Limits{MaxExprLen: DefaultMaxExprLen, MaxDepth: DefaultMaxDepth, MaxExponent: DefaultMaxExponent, MaxDigits: maxDigitsCap}
	if got != want {
		t.Errorf("withDefaults = %+v, want %+v", got, want)
	}
}
