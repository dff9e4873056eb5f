package i18n

import (
	"strconv"
	"testing"
)

func TestFillReplacesEachPlaceholderOnceInOnePass(t *testing.T) {
	args := []string{"a.txt", "{1}", "三"}
	arg := func(i int) string { return args[i] }
	tests := []struct {
		tpl  string
		n    int
		want string
	}{
		{"no placeholder", 3, "no placeholder"},
		{"{1} then {3}", 3, "a.txt then 三"},
		{"{3}，{1}", 3, "三，a.txt"},
		{"an argument's braces stay: {2}", 3, "an argument's braces stay: {1}"},
		{"{1}{1}", 3, "a.txta.txt"},
		{"beyond the arguments: {3}", 2, "beyond the arguments: {3}"},
		{"no arguments: {1}", 0, "no arguments: {1}"},
		{"other braces {x} {} {0} {12} and an end {", 3, "other braces {x} {} {0} {12} and an end {"},
		{"{", 3, "{"},
		{"{1", 3, "{1"},
	}
	for _, tt := range tests {
		if got := Fill(tt.tpl, tt.n, arg); got != tt.want {
			t.Errorf("Fill(%q, %d) = %q, want %q", tt.tpl, tt.n, got, tt.want)
		}
	}
}

func BenchmarkFill(b *testing.B) {
	tpl := "{1} is {2} bytes ({3}), more than the {4} bytes edit_file works on"
	args := []string{`"big.txt"`, strconv.Itoa(8 << 20), "8.0 MiB", strconv.Itoa(4 << 20)}
	b.ReportAllocs()
	for b.Loop() {
		_ = Fill(tpl, len(args), func(i int) string { return args[i] })
	}
}
