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

func TestExpandReplacesNamedPlaceholdersInOnePass(t *testing.T) {
	values := map[string]string{"path": `"a.txt"`, "op": "read", "1": "{op}", "n2": "三", "a0": "zero", "z9": "nine"}
	value := func(name string) (string, bool) { v, ok := values[name]; return v, ok }
	tests := []struct{ tpl, want string }{
		{"no placeholder", "no placeholder"},
		{"cannot {op} {path}", `cannot read "a.txt"`},
		{"{path}{path}", `"a.txt""a.txt"`},
		{"a value's braces stay: {1}", "a value's braces stay: {op}"},
		{"letters and digits: {n2}", "letters and digits: 三"},
		{"the ends of the digits: {a0} {z9}", "the ends of the digits: zero nine"},
		{"an unknown name stays: {where} {path}", `an unknown name stays: {where} "a.txt"`},
		{`other braces \u{…} {} {a b} {path and an end {`, `other braces \u{…} {} {a b} {path and an end {`},
		{"{{path}}", `{"a.txt"}`},
		{"{path", "{path"},
		{"{", "{"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Expand(tt.tpl, value); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.tpl, got, tt.want)
		}
	}
	// Empty braces hold no name, even for a value that knows every one.
	every := func(name string) (string, bool) { return "<" + name + ">", true }
	if got, want := Expand("{}{x}{ }", every), "{}<x>{ }"; got != want {
		t.Errorf("Expand with every name known = %q, want %q", got, want)
	}
}

func FuzzExpand(f *testing.F) {
	for _, seed := range []string{"{1} then {3}", "{3}，{1}{1}", "{12} {x} {} {", "{1", "{{2}}", "{path} {9}", ""} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, tpl string, n int) {
		n = max(0, min(n, 9))
		args := []string{"a", "{2}", "c", "d", "e", "f", "g", "h", "i"}
		// With numbers for names, Expand is Fill.
		got := Expand(tpl, func(name string) (string, bool) {
			if len(name) == 1 && '1' <= name[0] && int(name[0]-'1') < n {
				return args[name[0]-'1'], true
			}
			return "", false
		})
		if want := Fill(tpl, n, func(i int) string { return args[i] }); got != want {
			t.Errorf("Expand(%q) = %q, but Fill with %d arguments gives %q", tpl, got, n, want)
		}
		// A name nobody knows leaves the text as it is.
		if got := Expand(tpl, func(string) (string, bool) { return "x", false }); got != tpl {
			t.Errorf("Expand(%q) with no names known = %q", tpl, got)
		}
	})
}
