package calc

import "testing"

func BenchmarkEval(b *testing.B) {
	cases := []struct {
		name      string
		expr      string
		precision int
	}{
		{"small", "(1+2)*3/4", 0},
		{"bigint", "2^1000", 0},
		{"repeating", "4535/2228", 30},
		{"sqrt", "sqrt(2)", 30},
		{"power", "2^pi", 30},
		{"pi1000", "pi", 1000},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Eval(c.expr, c.precision, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAbuse measures how long the limits take to stop the
// expressions of TestAbuseIsRefusedQuickly.
func BenchmarkAbuse(b *testing.B) {
	for _, c := range abuseCases() {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = Eval(c.expr, 0, Limits{})
			}
		})
	}
}
