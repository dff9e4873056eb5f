package calc

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

// evalCase is one expression and the result Eval must give for it.
type evalCase struct {
	name      string
	expr      string
	precision int // 0 means the default
	want      string
	exact     bool
}

func runEvalCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Eval(c.expr, c.precision, Limits{})
			if err != nil {
				t.Fatalf("Eval(%q) failed: %v", c.expr, err)
			}
			if v.Text != c.want || v.Exact != c.exact {
				t.Errorf("Eval(%q) = %q (exact %v), want %q (exact %v)", c.expr, v.Text, v.Exact, c.want, c.exact)
			}
			if v.String() != v.Text {
				t.Errorf("String() = %q, want Text %q", v.String(), v.Text)
			}
		})
	}
}

func TestPrecedenceAndAssociativity(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"multiplication binds tighter than addition", "1+2*3", 0, "7", true},
		{"parentheses override precedence", "(1+2)*3", 0, "9", true},
		{"subtraction is left-associative", "10-4-3", 0, "3", true},
		{"division is left-associative", "64/4/2", 0, "8", true},
		{"remainder shares the multiplicative level", "2+7%4*2", 0, "8", true},
		{"power is right-associative", "2^3^2", 0, "512", true},
		{"double star is the same power operator", "2**3**2", 0, "512", true},
		{"power binds tighter than multiplication", "2*3^2", 0, "18", true},
		{"unary minus applies after the power", "-2^2", 0, "-4", true},
		{"parenthesised negative base is squared", "(-2)^2", 0, "4", true},
		{"exponent may carry a sign", "2^-1", 0, "0.5", true},
		{"signed exponent of a power tower", "2^-2^2", 0, "0.0625", true},
		{"double negation is positive", "--3", 0, "3", true},
		{"unary plus is accepted", "+3-+2", 0, "1", true},
		{"minus of a negative", "1--1", 0, "2", true},
		{"unary minus binds tighter than multiplication", "-2*-3", 0, "6", true},
		{"whitespace is allowed between tokens", " \t( 1 +\n2 ) * 3 ", 0, "9", true},
		{"nested parentheses", "((((7))))", 0, "7", true},
		{"three quarters of nine", "(1+2)*3/4", 0, "2.25", true},
	})
}

func TestNumbers(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"decimal fractions add exactly", "0.1+0.2", 0, "0.3", true},
		{"leading dot", ".5", 0, "0.5", true},
		{"trailing dot", "5.", 0, "5", true},
		{"scientific notation", "1e3", 0, "1000", true},
		{"scientific notation with capital E and negative exponent", "2.5E-4", 0, "0.00025", true},
		{"scientific notation with explicit plus", "1.5e+2", 0, "150", true},
		{"leading zeros are ignored", "007.50", 0, "7.5", true},
		{"zero with a huge exponent is zero", "0e999999999999999999999", 0, "0", true},
		{"negative decimal", "-12.5", 0, "-12.5", true},
		{"large integers keep every digit", "2^200", 0, "1606938044258990275541962092341162602522202993782792835301376", true},
		{"big integer products are exact", "99999999999999999999*99999999999999999999", 0, "9999999999999999999800000000000000000001", true},
		{"a million", "1000*1000", 0, "1000000", true},
	})
}

func TestExactness(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"a repeating fraction is rounded and inexact", "4535/2228", 0, "2.03545780969479353680430879713", false},
		{"one third", "1/3", 0, "0.333333333333333333333333333333", false},
		{"two thirds rounds the last digit up", "2/3", 0, "0.666666666666666666666666666667", false},
		{"a terminating fraction is exact", "1/8", 0, "0.125", true},
		{"a negative power of two is an exact decimal", "2^-10", 0, "0.0009765625", true},
		{"a tiny terminating decimal uses scientific notation", "2^-100", 0, "7.888609052210118054117285652827862296732064351090230047702789306640625e-31", true},
		{"a long terminating decimal prints every digit", "1+2^-60", 0, "1.000000000000000000867361737988403547205962240695953369140625", true},
		{"integer powers with negative exponents are exact reciprocals", "(2/3)^-3", 0, "3.375", true},
		{"fractions cancel exactly", "(1/3)*3", 0, "1", true},
		{"a repeating fraction times its denominator is exact", "4535/2228*2228", 0, "4535", true},
		{"zero to the zero is one", "0^0", 0, "1", true},
		{"zero times an irrational is exactly zero", "0*pi", 0, "0", true},
		{"an irrational to the zero is exactly one", "pi^0", 0, "1", true},
		{"sqrt(2) squared is 2 but only approximately", "sqrt(2)^2", 0, "2", false},
		{"powers of minus one with huge exponents are cheap", "(-1)^1000000001", 0, "-1", true},
		{"powers of one with huge exponents are cheap", "1^(10^5000)", 0, "1", true},
	})
}

// TestExactZeroTimesAnInexactValue checks the shortcut in mul: an exact
// zero times an approximation (pi, e, an irrational root) is exactly 0, in
// either operand order and wherever the product sits in an expression. A
// one-sided shortcut would show as pi*0 failing: the product of the balls
// straddles zero, and its first digit could never be determined.
func TestExactZeroTimesAnInexactValue(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"zero times pi", "0*pi", 0, "0", true},
		{"pi times zero", "pi*0", 0, "0", true},
		{"zero times e", "0*e", 0, "0", true},
		{"e times zero", "e*0", 0, "0", true},
		{"zero times an irrational root", "0*sqrt(2)", 0, "0", true},
		{"an irrational root times zero", "sqrt(2)*0", 0, "0", true},
		{"zero divided by pi", "0/pi", 0, "0", true},
		{"zero divided by an irrational root", "0/sqrt(2)", 0, "0", true},
		{"zero remainder by pi", "0%pi", 0, "0", true},
		{"minus zero times pi", "-0*pi", 0, "0", true},
		{"pi times minus zero", "pi*-0", 0, "0", true},
		{"minus pi times zero", "-pi*0", 0, "0", true},
		{"zero times minus pi", "0*(-pi)", 0, "0", true},
		{"zero between two irrationals", "pi*0*pi", 0, "0", true},
		{"zero between two irrationals, grouped right", "pi*(0*pi)", 0, "0", true},
		{"zero between two roots", "sqrt(2)*0*sqrt(3)", 0, "0", true},
		{"zero written as a decimal", "pi*0.0", 0, "0", true},
		{"zero written with an exponent", "e*0e5", 0, "0", true},
		{"an exact zero from a subexpression, right", "pi*(1-1)", 0, "0", true},
		{"an exact zero from a subexpression, left", "(2-2)*(pi+1)", 0, "0", true},
		{"an irrational sum times a zero subexpression", "(pi+1)*(2-2)", 0, "0", true},
		{"a zero power of zero", "e*(3-3)^5", 0, "0", true},
		{"an irrational power times zero", "pi^2*0", 0, "0", true},
		{"zero times an irrational power", "0*pi^2", 0, "0", true},
		{"a value indistinguishable from zero times zero", "(sqrt(2)^2-2)*0", 0, "0", true},
		{"zero times a value indistinguishable from zero", "0*(sqrt(2)^2-2)", 0, "0", true},
		{"pi times zero plus one", "1+pi*0", 0, "1", true},
		{"zero times pi plus one", "0*pi+1", 0, "1", true},
		{"a vanished product in a sum times an integer", "2*(e*0+3)", 0, "6", true},
		{"a vanished product in a divisor", "1/(1+pi*0)", 0, "1", true},
		{"a vanished product over a vanished product plus one", "(0*pi)/(e*0+1)", 0, "0", true},
		{"a vanished product, negated", "-(pi*0)", 0, "0", true},
		{"a vanished product as an exponent", "2^(pi*0)", 0, "1", true},
		{"a vanished product as a base", "(pi*0)^pi", 0, "0", true},
		{"a vanished product squared", "(e*0)^2", 0, "0", true},
		{"the root of a vanished product", "sqrt(pi*0)", 0, "0", true},
		{"functions of a vanished product", "abs(e*0)+floor(pi*0)+max(sqrt(2)*0, -1)", 0, "0", true},
		{"a vanished product keeps a fraction exact", "pi*0+1/4", 0, "0.25", true},
	})
}

// TestZeroProductIsSymmetric checks that 0*x and x*0 give the same exact 0,
// with the rational 0 in Rat, for exact and inexact x alike.
func TestZeroProductIsSymmetric(t *testing.T) {
	for _, x := range []string{"pi", "e", "sqrt(2)", "2^pi", "pi-3", "sqrt(2)^2-2", "pi-pi", "1/3", "7", "-e", "10^400+pi"} {
		left, errL := Eval("0*("+x+")", 0, Limits{})
		right, errR := Eval("("+x+")*0", 0, Limits{})
		if errL != nil || errR != nil {
			t.Errorf("0*(%s): %v; (%s)*0: %v", x, errL, x, errR)
			continue
		}
		for _, v := range []Value{left, right} {
			if v.Text != "0" || !v.Exact || v.Precision != 0 || v.Rat == nil || v.Rat.Sign() != 0 {
				t.Errorf("0*(%s) = %+v, (%s)*0 = %+v; want both exactly 0", x, left, x, right)
				break
			}
		}
	}
}

func TestPowers(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"rational exponent of a perfect square is exact", "4^0.5", 0, "2", true},
		{"rational exponent of a perfect cube is exact", "8^(1/3)", 0, "2", true},
		{"rational exponent of a fraction", "0.25^1.5", 0, "0.125", true},
		{"negative base with an odd root", "(-8)^(1/3)", 0, "-2", true},
		{"negative base with an odd root and even power", "(-8)^(2/3)", 0, "4", true},
		{"irrational square root via power", "2^0.5", 0, "1.41421356237309504880168872421", false},
		{"irrational cube root", "2^(1/3)", 0, "1.25992104989487316476721060728", false},
		{"negative base with an odd irrational root", "(-2)^(1/3)", 0, "-1.25992104989487316476721060728", false},
		{"rational base and exponent", "1.5^(7/3)", 0, "2.57560704574499670256809497686", false},
		{"small exponent", "2^0.1", 0, "1.07177346253629316421300632502", false},
		{"irrational exponent", "2^sqrt(2)", 0, "2.66514414269022518865029724987", false},
		{"two to the pi", "2^pi", 0, "8.82497782707628762385642960421", false},
		{"pi to the e", "pi^e", 0, "22.4591577183610454734271522045", false},
		{"e to the pi", "e^pi", 0, "23.1406926327792690057290863679", false},
		{"e to a negative power", "e^-10", 0, "0.0000453999297624848515355915155606", false},
		{"tiny power stays plain down to 1e-10", "e^-20", 0, "0.00000000206115362243855782796594038016", false},
		{"integer power of an irrational", "sqrt(2)^3", 0, "2.82842712474619009760337744842", false},
		{"negative integer power of an irrational", "pi^-1", 0, "0.318309886183790671537767526745", false},
	})
}

func TestFunctionsAndConstants(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"pi", "pi", 0, "3.14159265358979323846264338328", false},
		{"e", "e", 0, "2.71828182845904523536028747135", false},
		{"sqrt of a perfect square is exact", "sqrt(144)", 0, "12", true},
		{"sqrt of a rational perfect square is the exact rational", "sqrt(16/9)", 0, "1.33333333333333333333333333333", false},
		{"sqrt of a decimal perfect square", "sqrt(0.0625)", 0, "0.25", true},
		{"sqrt of zero", "sqrt(0)", 0, "0", true},
		{"sqrt of two", "sqrt(2)", 0, "1.41421356237309504880168872421", false},
		{"sqrt to fifty digits", "sqrt(3)", 50, "1.7320508075688772935274463415058723669428052538104", false},
		{"sqrt of an approximation", "sqrt(pi)", 0, "1.77245385090551602729816748334", false},
		{"abs of a negative", "abs(-3.5)", 0, "3.5", true},
		{"abs of an approximation", "abs(-pi)", 0, "3.14159265358979323846264338328", false},
		{"floor of a positive fraction", "floor(7/2)", 0, "3", true},
		{"floor of a negative fraction", "floor(-1.2)", 0, "-2", true},
		{"ceil of a positive fraction", "ceil(1.2)", 0, "2", true},
		{"ceil of a negative fraction", "ceil(-1.8)", 0, "-1", true},
		{"floor of an irrational is an exact integer", "floor(pi*10^20)", 0, "314159265358979323846", true},
		{"ceil of an irrational", "ceil(e)", 0, "3", true},
		{"round half away from zero, positive", "round(2.5)", 0, "3", true},
		{"round half away from zero, negative", "round(-2.5)", 0, "-3", true},
		{"round below half", "round(2.49)", 0, "2", true},
		{"round to decimal places", "round(pi, 4)", 0, "3.1416", true},
		{"round to decimal places at a tie", "round(0.125, 2)", 0, "0.13", true},
		{"round to negative places", "round(1250, -2)", 0, "1300", true},
		{"round a repeating fraction", "round(2/3, 3)", 0, "0.667", true},
		{"min of several", "min(3, -1, 2)", 0, "-1", true},
		{"max of several", "max(3, -1, 2)", 0, "3", true},
		{"min of one argument", "min(5)", 0, "5", true},
		{"max of an irrational and an integer", "max(pi, 3)", 0, "3.14159265358979323846264338328", false},
		{"min of an irrational and an integer", "min(pi, 3)", 0, "3", true},
		{"functions nest", "max(sqrt(16), abs(-5), floor(4.9))", 0, "5", true},
		{"remainder has the sign of the dividend", "-7%3", 0, "-1", true},
		{"remainder with a negative divisor", "7%-3", 0, "1", true},
		{"remainder of fractions", "5.5%2", 0, "1.5", true},
		{"remainder of an irrational", "pi%1", 0, "0.14159265358979323846264338328", false},
		{"cancellation is resolved with more precision", "(10^400+pi)-10^400", 0, "3.14159265358979323846264338328", false},
	})
}

func TestPrecision(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"precision five", "pi", 5, "3.1416", false},
		{"precision one", "pi", 1, "3", false},
		{"negative precision means the default", "1/3", -4, "0.333333333333333333333333333333", false},
		{"precision does not round exact results", "123456789.125", 3, "123456789.125", true},
		{"precision ten of a square root", "10^0.5", 10, "3.16227766", false},
		{"trailing zeros are trimmed", "1/3*3.0000000000000000000000000000000001", 0, "1", false},
		{"rounded large values use scientific notation", "pi*10^50", 0, "3.14159265358979323846264338328e+50", false},
		{"rounded values past the precision use scientific notation", "10^7/3", 5, "3.3333e+6", false},
		{"rounded tiny values use scientific notation", "1/(pi*10^30)", 0, "3.18309886183790671537767526745e-31", false},
		{"rounded values within the precision stay plain", "sqrt(10^41+1)", 0, "316227766016837933199.889354443", false},
	})
	t.Run("precision 1000 gives 1000 significant digits", func(t *testing.T) {
		v, err := Eval("1/7", 1000, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		digits := strings.TrimPrefix(v.Text, "0.")
		if len(digits) != 1000 || v.Precision != 1000 {
			t.Errorf("got %d digits with Precision %d, want 1000", len(digits), v.Precision)
		}
	})
}

func TestSeedRational(t *testing.T) {
	// Cross-check 4535/2228 against big.Rat's own rounding: the value lies
	// in [1, 10), so 30 significant digits are 29 decimal places.
	want := big.NewRat(4535, 2228).FloatString(29)
	v, err := Eval("4535/2228", 30, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Text != want || v.Text != "2.03545780969479353680430879713" {
		t.Errorf("Text = %q, want %q", v.Text, want)
	}
	if v.Exact || v.Precision != 30 || v.Rat == nil || v.Rat.Cmp(big.NewRat(4535, 2228)) != 0 {
		t.Errorf("got Exact %v, Precision %d, Rat %v; want false, 30, 4535/2228", v.Exact, v.Precision, v.Rat)
	}
}

func TestValueRat(t *testing.T) {
	v, err := Eval("0.1+0.2", 0, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Rat == nil || v.Rat.Cmp(big.NewRat(3, 10)) != 0 || v.Precision != 0 {
		t.Errorf("Rat = %v, Precision = %d; want 3/10 and 0", v.Rat, v.Precision)
	}
	v, err = Eval("sqrt(2)", 0, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Rat != nil {
		t.Errorf("Rat = %v for an irrational, want nil", v.Rat)
	}
}

func TestErrorIsTyped(t *testing.T) {
	_, err := Eval("1/0", 0, Limits{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not *Error", err)
	}
	if e.Msg != "division by zero" || e.Column != 3 || e.Expr != "1/0" {
		t.Errorf("got %+v", e)
	}
	if _, err := Eval("1+1", 0, Limits{}); err != nil {
		t.Errorf("successful Eval returned non-nil error %v", err)
	}
}

func TestEvalIsSafeForConcurrentUse(t *testing.T) {
	exprs := []string{"pi", "sqrt(2)", "4535/2228", "2^200", "2^pi", "(10^400+pi)-10^400"}
	want := make([]string, len(exprs))
	for i, e := range exprs {
		v, err := Eval(e, 40, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = v.Text
	}
	done := make(chan error)
	for g := range 8 {
		go func() {
			for i := range 20 {
				k := (g + i) % len(exprs)
				v, err := Eval(exprs[k], 40, Limits{})
				if err == nil && v.Text != want[k] {
					err = errors.New(exprs[k] + " gave " + v.Text + ", want " + want[k])
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
