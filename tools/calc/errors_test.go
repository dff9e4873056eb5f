package calc

import (
	"errors"
	"strings"
	"testing"
)

// errorCase is one expression Eval must refuse, with the full message.
type errorCase struct {
	name   string
	expr   string
	want   string
	column int
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Eval(c.expr, 0, Limits{})
			if err == nil {
				t.Fatalf("Eval(%q) = %q, want error %q", c.expr, v.Text, c.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Eval(%q) returned %T, want *Error", c.expr, err)
			}
			if err.Error() != c.want {
				t.Errorf("Eval(%q) error\n got: %s\nwant: %s", c.expr, err.Error(), c.want)
			}
			if e.Column != c.column {
				t.Errorf("Column = %d, want %d", e.Column, c.column)
			}
			if e.Expr != c.expr {
				t.Errorf("Expr = %q, want %q", e.Expr, c.expr)
			}
			if e.undecided {
				t.Errorf("undecided flag leaked out of Eval")
			}
		})
	}
}

func TestArithmeticErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{"division by zero points at the divisor", "1/0", `division by zero at column 3 in "1/0"`, 3},
		{"division by an expression that is zero points at where it starts", "1/(2-2)", `division by zero at column 3 in "1/(2-2)"`, 3},
		{"remainder by zero", "1%0", `division by zero at column 3 in "1%0"`, 3},
		{"zero to a negative power", "0^-1", `division by zero at column 2 in "0^-1"; 0 cannot be raised to a negative power`, 2},
		{"zero to a negative fractional power", "0^-0.5", `division by zero at column 2 in "0^-0.5"; 0 cannot be raised to a negative power`, 2},
		{"square root of a negative number", "sqrt(-4)", `square root of a negative number at column 1 in "sqrt(-4)"`, 1},
		{"square root of a negative irrational", "1+sqrt(-pi)", `square root of a negative number at column 3 in "1+sqrt(-pi)"`, 3},
		{"even root of a negative number", "(-8)^0.5", `a negative number to the power 0.5 has no real value at column 5 in "(-8)^0.5"; a negative base needs an exponent whose denominator is odd, as in (-8)^(1/3)`, 5},
		{"irrational power of a negative number", "(-2)^pi", `a negative number to a power that is not an exact fraction has no real value at column 5 in "(-2)^pi"`, 5},
		{"round with fractional places", "round(1, 0.5)", `the number of decimal places given to round must be a whole number at column 1 in "round(1, 0.5)"; write round(x, 2)`, 1},
		{"round with too many places", "round(1, 10001)", `round to 10001 decimal places is beyond the limit of 10000 at column 1 in "round(1, 10001)"`, 1},
	})
}

func TestUndecidableErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{"floor of a value indistinguishable from an integer", "floor(sqrt(2)^2)",
			`floor cannot be decided because its argument is too close to a whole number at column 1 in "floor(sqrt(2)^2)"`, 1},
		{"division by a value indistinguishable from zero", "1/(sqrt(2)^2-2)",
			`division by a number too close to zero to tell it apart from zero at column 2 in "1/(sqrt(2)^2-2)"; the divisor may well be exactly 0`, 2},
		{"square root of a value indistinguishable from zero", "sqrt(pi-pi)",
			`the argument of sqrt is too close to zero to tell whether it is negative at column 1 in "sqrt(pi-pi)"`, 1},
		{"zero divided by a value indistinguishable from zero", "0/(pi-pi)",
			`division by a number too close to zero to tell it apart from zero at column 2 in "0/(pi-pi)"; the divisor may well be exactly 0`, 2},
		{"zero times pi divided by a value indistinguishable from zero", "pi*0/(e-e)",
			`division by a number too close to zero to tell it apart from zero at column 5 in "pi*0/(e-e)"; the divisor may well be exactly 0`, 5},
	})
	t.Run("a result indistinguishable from zero", func(t *testing.T) {
		_, err := Eval("sqrt(2)^2-2", 0, Limits{})
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, "the result is too close to zero to determine even its first digit; its magnitude is below 1e-") || e.Column != 0 {
			t.Fatalf("got %v", err)
		}
		if !strings.HasSuffix(err.Error(), "; the exact value may well be 0, as for sqrt(2)^2-2") {
			t.Errorf("missing hint: %v", err)
		}
	})
}

func TestSyntaxErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{"empty expression", "", `the expression is empty; give an arithmetic expression such as 1+2`, 0},
		{"blank expression", " \t\n", `the expression is empty; give an arithmetic expression such as 1+2`, 0},
		{"braces are not grouping", "{1+1}", `unexpected character '{' at column 1 in "{1+1}"; use parentheses for grouping`, 1},
		{"brackets are not grouping", "[1]", `unexpected character '[' at column 1 in "[1]"; use parentheses for grouping`, 1},
		{"equals sign", "1 = 1", `unexpected character '=' at column 3 in "1 = 1"; give only the expression, without '='`, 3},
		{"semicolon", "1;2", `unexpected character ';' at column 2 in "1;2"; only numbers, + - * / % ^ **, parentheses and the names sqrt, abs, floor, ceil, round, min, max, pi and e are allowed`, 2},
		{"double quotes", `"1"`, `unexpected character '"' at column 1 in "\"1\""; only numbers, + - * / % ^ **, parentheses and the names sqrt, abs, floor, ceil, round, min, max, pi and e are allowed`, 1},
		{"unicode multiplication sign", "3 × 4", `unexpected character '×' at column 3 in "3 × 4"; use * for multiplication`, 3},
		{"unicode pi", "2*π", `unexpected character 'π' at column 3 in "2*π"; write pi`, 3},
		{"columns count runes not bytes", "π+é", `unexpected character 'π' at column 1 in "π+é"; write pi`, 1},
		{"invalid UTF-8", "1+\xff", `invalid UTF-8 byte 0xff at column 3 in "1+\xff"`, 3},
		{"unknown letter", "1+a", `unknown name "a" at column 3 in "1+a"; known functions: sqrt, abs, floor, ceil, round, min, max; known constants: pi, e`, 3},
		{"unknown function", "sin(1)", `unknown name "sin" at column 1 in "sin(1)"; known functions: sqrt, abs, floor, ceil, round, min, max; known constants: pi, e`, 1},
		{"names are case-sensitive", "PI", `unknown name "PI" at column 1 in "PI"; did you mean "pi"? names are case-sensitive`, 1},
		{"function names are case-sensitive", "Sqrt(4)", `unknown name "Sqrt" at column 1 in "Sqrt(4)"; did you mean "sqrt"? names are case-sensitive`, 1},
		{"lone dot", "1+.", `unexpected character '.' at column 3 in "1+."; a number needs at least one digit, like 0.5 or .5`, 3},
		{"exponent without digits", "2e", `the number "2e" has no digits after its exponent marker 'e' at column 1 in "2e"; write the exponent as digits, like 1e3, or use * to multiply by the constant e`, 1},
		{"exponent sign without digits", "1+2E-", `the number "2E-" has no digits after its exponent marker 'E' at column 3 in "1+2E-"; write the exponent as digits, like 1e3, or use * to multiply by the constant e`, 3},
		{"unexpected end after an operator", "1+", `expected a number after '+', found the end of the expression at column 3 in "1+"`, 3},
		{"two operators in a row", "1+*2", `expected a number after '+', found '*' at column 3 in "1+*2"`, 3},
		{"doubled caret", "2^^3", `expected a number after '^', found '^' at column 3 in "2^^3"`, 3},
		{"triple star", "2***3", `expected a number after '**', found '*' at column 4 in "2***3"`, 4},
		{"leading binary operator", "*2", `expected a number, found '*' at column 1 in "*2"`, 1},
		{"empty parentheses", "()", `expected a number after '(', found ')' at column 2 in "()"`, 2},
		{"unclosed parenthesis names the open one", "2*(3+(4)", `the '(' has no matching ')' at column 3 in "2*(3+(4)"; add ')'`, 3},
		{"unclosed function call", "sqrt(4", `the '(' has no matching ')' at column 5 in "sqrt(4"; add ')'`, 5},
		{"unmatched closing parenthesis", "1+2)", `the ')' has no matching '(' at column 4 in "1+2)"`, 4},
		{"lone closing parenthesis", ")", `the ')' has no matching '(' at column 1 in ")"`, 1},
		{"missing operator between numbers", "1 2", `expected an operator after the number 1, found the number 2 at column 3 in "1 2"; use * to multiply`, 3},
		{"implicit multiplication by a name", "2pi", `expected an operator after the number 2, found "pi" at column 2 in "2pi"; use * to multiply`, 2},
		{"implicit multiplication by parentheses", "2(3)", `expected an operator after the number 2, found '(' at column 2 in "2(3)"; use * to multiply`, 2},
		{"second decimal point", "1.2.3", `expected an operator after the number 1.2, found the number .3 at column 4 in "1.2.3"; use * to multiply`, 4},
		{"comma outside a call", "1,2", `unexpected ',' at column 2 in "1,2"; commas only separate function arguments, like max(1, 2)`, 2},
		{"missing argument after a comma", "max(1,)", `expected a number after ',', found ')' at column 7 in "max(1,)"`, 7},
		{"function without parentheses", "sqrt 4", `expected '(' after the function name sqrt, found the number 4 at column 6 in "sqrt 4"; write sqrt(x)`, 6},
		{"function name alone", "sqrt", `expected '(' after the function name sqrt, found the end of the expression at column 5 in "sqrt"; write sqrt(x)`, 5},
		{"constant called like a function", "pi(2)", `pi is a constant, not a function at column 1 in "pi(2)"; use * to multiply, like pi*(2)`, 1},
		{"too few arguments", "sqrt()", `sqrt takes exactly 1 argument but got 0 at column 1 in "sqrt()"`, 1},
		{"too many arguments", "1+sqrt(1,2)", `sqrt takes exactly 1 argument but got 2 at column 3 in "1+sqrt(1,2)"`, 3},
		{"min needs an argument", "min()", `min takes at least 1 argument but got 0 at column 1 in "min()"`, 1},
		{"round takes one or two arguments", "round(1,2,3)", `round takes 1 or 2 arguments but got 3 at column 1 in "round(1,2,3)"`, 1},
	})
}

func TestLimitErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{"a power tower is refused from its size", "9^9^9^9", `the result would have more than 10000 digits at column 4 in "9^9^9^9"`, 4},
		{"a product of huge powers is refused", "10^99999*10^99999", `the result would have more than 10000 digits at column 3 in "10^99999*10^99999"`, 3},
		{"a product crossing the digit limit", "10^5000*10^5000*10", `the result would have more than 10000 digits at column 8 in "10^5000*10^5000*10"`, 8},
		{"one digit over the limit", "10^9999*10", `the result would have more than 10000 digits at column 8 in "10^9999*10"`, 8},
		{"a huge reciprocal is refused", "2^-40000", `the result would have more than 10000 digits at column 2 in "2^-40000"`, 2},
		{"an exponent too large to represent", "2^(10^30)", `the result would have more than 10000 digits at column 2 in "2^(10^30)"`, 2},
		{"an exponent beyond the limit", "pi^100001", `the exponent 100001 is outside the allowed range -100000 to 100000 at column 3 in "pi^100001"`, 3},
		{"a fractional exponent beyond the limit", "2^100000.5", `the exponent 100000.5 is outside the allowed range -100000 to 100000 at column 2 in "2^100000.5"`, 2},
		{"a huge irrational power", "e^30000", `the result would have more than 10000 digits at column 2 in "e^30000"`, 2},
		{"a literal with too many digits", "1e10000", `the number 1e10000 would have more than 10000 digits at column 1 in "1e10000"`, 1},
		{"a literal with a tiny exponent", "1e-20000", `the number 1e-20000 would have more than 10000 digits at column 1 in "1e-20000"`, 1},
		{"a literal with an overflowing exponent", "1e99999999999999999999", `the number 1e99999999999999999999 would have more than 10000 digits at column 1 in "1e99999999999999999999"`, 1},
		{"nesting too deep", strings.Repeat("(", 65) + "1" + strings.Repeat(")", 65),
			`the expression is nested more than 64 levels deep at column 65 in "…(((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))…"; simplify the expression`, 65},
		{"a unary chain too deep", strings.Repeat("-", 65) + "1",
			`the expression is nested more than 64 levels deep at column 65 in "…-----------------------------------------------------------1"; simplify the expression`, 65},
	})
}

func TestRequestErrors(t *testing.T) {
	long := strings.Repeat("1+", 2049) + "1"
	_, err := Eval(long, 0, Limits{})
	if err == nil || err.Error() != "the expression is 4099 bytes long, more than the limit of 4096 bytes" {
		t.Errorf("long expression: got %v", err)
	}
	_, err = Eval("1+1", 1001, Limits{})
	if err == nil || err.Error() != "precision 1001 is more than the maximum of 1000 significant digits" {
		t.Errorf("precision: got %v", err)
	}
}

func TestLongExpressionsAreShortenedInMessages(t *testing.T) {
	expr := strings.Repeat("1+", 100) + "1/0" + strings.Repeat("+1", 100)
	_, err := Eval(expr, 0, Limits{})
	want := `division by zero at column 203 in "…1+1+1+1+1+1+1+1+1+1+1+1+1+1+1/0+1+1+1+1+1+1+1+1+1+1+1+1+1+1+…"`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func TestCustomLimits(t *testing.T) {
	lim := Limits{MaxExprLen: 10, MaxDepth: 2, MaxExponent: 10, MaxDigits: 5}
	cases := []struct{ expr, want string }{
		{"12345678901", "the expression is 11 bytes long, more than the limit of 10 bytes"},
		{"((1))", "ok"},
		{"(((1)))", `the expression is nested more than 2 levels deep at column 3 in "(((1)))"; simplify the expression`},
		{"99999+1", `the result would have more than 5 digits at column 6 in "99999+1"`},
		{"pi^11", `the exponent 11 is outside the allowed range -10 to 10 at column 3 in "pi^11"`},
		{"1/99999", "ok"},
		{"1/100000", `the number 100000 would have more than 5 digits at column 3 in "1/100000"`},
	}
	for _, c := range cases {
		_, err := Eval(c.expr, 0, lim)
		got := "ok"
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Eval(%q) = %s, want %s", c.expr, got, c.want)
		}
	}
}
