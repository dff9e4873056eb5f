package calc

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
)

// fuzzDeadline is far above any legitimate evaluation time; an input that
// exceeds it has found a way around the limits.
const fuzzDeadline = 10 * time.Second

func FuzzEval(f *testing.F) {
	seeds := []string{
		"1+2*3", "(1+2)*3/4", "0.1+0.2", "4535/2228", "2^200", "1/0", "{1+1}", "1+a",
		"9^9^9^9", "10^99999*10^99999", "-2^2", "2^-1", "2**3**2", "1e3", "2.5E-4", ".5", "5.",
		"sqrt(2)", "sqrt(16/9)", "abs(-3)", "floor(-1.5)", "ceil(1.5)", "round(2.5)", "round(pi, 3)",
		"min(1,2,3)", "max(pi,e)", "pi", "e", "2^0.5", "8^(1/3)", "(-8)^(1/3)", "(-8)^0.5", "2^pi",
		"7%-3", "pi%1", "sqrt(2)^2-2", "floor(sqrt(2)^2)", "1/(pi-pi)", "(10^400+pi)-10^400",
		"e^-30000", "0^0", "0^-1", "1e-99999", "((((1))))", "--1", "1,2", "sqrt()", "π", "1+\xff", "", "NaN", "Inf", "-Infinity", "null",
	}
	for i, s := range seeds {
		f.Add(s, i%40)
	}
	f.Fuzz(func(t *testing.T, expr string, precision int) {
		precision %= 60 // keep each run fast; 0 and below mean the default
		start := time.Now()
		// Smaller limits than the defaults keep every input well under a
		// millisecond or so: a slow input at the end of -fuzztime makes the
		// fuzzer report "context deadline exceeded". The limits tests cover
		// the defaults.
		v, err := Eval(expr, precision, Limits{MaxExprLen: 512, MaxDigits: 2000, MaxExponent: 10000})
		if d := time.Since(start); d > fuzzDeadline {
			t.Fatalf("Eval(%q, %d) took %v", expr, precision, d)
		}
		if err != nil {
			checkError(t, expr, err)
			return
		}
		checkValue(t, expr, precision, v)
	})
}

// checkError verifies that err is a well-formed *Error for expr.
func checkError(t *testing.T, expr string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Eval(%q) returned %T, want *Error", expr, err)
	}
	if e.Msg == "" || e.Expr != expr || e.undecided {
		t.Fatalf("Eval(%q) returned a malformed error %#v", expr, e)
	}
	if e.Column < 0 || e.Column > utf8.RuneCountInString(expr)+1 {
		t.Fatalf("Eval(%q) error column %d is outside the expression", expr, e.Column)
	}
	if e.msg.IsZero() || e.Msg != e.msg.In(i18n.English) || e.Hint != e.hint.In(i18n.English) {
		t.Fatalf("Eval(%q) returned an error %#v whose English is not its catalog message", expr, e)
	}
	if zh := e.msg.In(i18n.Chinese) + e.hint.In(i18n.Chinese); placeholderRE.MatchString(zh) {
		t.Fatalf("Eval(%q) error leaves a placeholder in Chinese: %s", expr, zh)
	}
	// Messages quote the input, so only inputs free of these words can be
	// checked for them.
	if msg := e.Error(); !strings.Contains(expr, "NaN") && !strings.Contains(expr, "Inf") &&
		(strings.Contains(msg, "NaN") || strings.Contains(msg, "Inf")) {
		t.Fatalf("Eval(%q) error mentions NaN or Inf: %s", expr, msg)
	}
}

// checkValue verifies that v is a decimal number consistent with its flags.
func checkValue(t *testing.T, expr string, precision int, v Value) {
	t.Helper()
	if !isDecimal(v.Text) {
		t.Fatalf("Eval(%q) = %q, which is not a decimal number", expr, v.Text)
	}
	got, ok := new(big.Rat).SetString(v.Text)
	if !ok {
		t.Fatalf("Eval(%q) = %q does not parse", expr, v.Text)
	}
	if v.Exact {
		if v.Rat == nil || got.Cmp(v.Rat) != 0 {
			t.Fatalf("Eval(%q) = %q is marked exact but Rat is %v", expr, v.Text, v.Rat)
		}
		return
	}
	if precision <= 0 {
		precision = DefaultPrecision
	}
	if v.Precision != precision {
		t.Fatalf("Eval(%q) Precision = %d, want %d", expr, v.Precision, precision)
	}
	if n := significantDigits(v.Text); n > precision {
		t.Fatalf("Eval(%q) = %q has %d significant digits, more than %d", expr, v.Text, n, precision)
	}
	if v.Rat != nil {
		// The rounding error is at most half a unit in the last place,
		// hence below 10^(1-precision) relative to the value.
		diff := new(big.Rat).Sub(got, v.Rat)
		diff.Abs(diff)
		tol := new(big.Rat).Abs(v.Rat)
		tol.Quo(tol, new(big.Rat).SetInt(pow10(int64(precision-1))))
		if diff.Cmp(tol) > 0 {
			t.Fatalf("Eval(%q) = %q is too far from %s", expr, v.Text, v.Rat.RatString())
		}
	}
}

// isDecimal reports whether s has the form -?D+(.D+)?(e[+-]D+)?.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(s, "e")
	if hasExp {
		if len(exp) < 2 || exp[0] != '+' && exp[0] != '-' || !allDigits(exp[1:]) {
			return false
		}
	}
	whole, frac, hasPoint := strings.Cut(mant, ".")
	return allDigits(whole) && (!hasPoint || allDigits(frac))
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// significantDigits counts the digits of a decimal from its first nonzero
// digit to the end of its mantissa.
func significantDigits(s string) int {
	mant, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	mant = strings.TrimLeft(strings.ReplaceAll(mant, ".", ""), "0")
	return len(mant)
}

// FuzzIntegerArithmetic builds random integer expressions from the fuzz
// input, prints them with as few parentheses as precedence allows, and
// compares Eval against big.Int arithmetic on the tree.
func FuzzIntegerArithmetic(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("precedence and associativity"))
	f.Add([]byte{3, 200, 17, 4, 99, 2, 250, 1, 0, 3, 3, 3, 42})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &exprGen{data: data}
		expr, want := g.gen(0, 0, false)
		v, err := Eval(expr, 0, Limits{})
		if err != nil {
			var e *Error
			if errors.As(err, &e) && strings.HasPrefix(e.Msg, "the result would have more than") && float64(g.bits)*log10of2 > DefaultMaxDigits-2 {
				return // an intermediate value broke the digit limit
			}
			t.Fatalf("Eval(%q) failed: %v (want %s)", expr, err, want)
		}
		if !v.Exact || v.Text != want.String() {
			t.Fatalf("Eval(%q) = %q (exact %v), want %s", expr, v.Text, v.Exact, want)
		}
	})
}

// exprGen turns bytes into an expression tree, printing and evaluating it
// at the same time.
type exprGen struct {
	data  []byte
	pos   int
	nodes int // operators generated so far, bounded to keep within MaxExprLen
	bits  int // largest bit length of any intermediate value
}

func (g *exprGen) byte() byte {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return b
}

// Precedence levels of the printed grammar.
const (
	precSum   = 1
	precProd  = 2
	precUnary = 3
	precPow   = 4
)

// gen returns an expression and its value. parent is the precedence of the
// enclosing operator; tight is set when an operand of equal precedence
// would regroup (the right operand of a left-associative operator).
func (g *exprGen) gen(depth, parent int, tight bool) (string, *big.Int) {
	b := g.byte()
	if depth > 12 || b < 80 || g.nodes >= 60 {
		n := new(big.Int).SetUint64(uint64(g.byte()) * uint64(b%7+1))
		if b%5 == 0 {
			n.Mul(n, big.NewInt(1_000_000_007))
		}
		return n.String(), n
	}
	g.nodes++
	var s string
	var v *big.Int
	prec := precSum
	switch b % 6 {
	case 0, 1:
		op := "+-"[b%2 : b%2+1]
		l, lv := g.gen(depth+1, precSum, false)
		r, rv := g.gen(depth+1, precSum, true)
		s = l + op + r
		if op == "+" {
			v = new(big.Int).Add(lv, rv)
		} else {
			v = new(big.Int).Sub(lv, rv)
		}
	case 2, 3:
		prec = precProd
		l, lv := g.gen(depth+1, precProd, false)
		r, rv := g.gen(depth+1, precProd, true)
		s, v = l+"*"+r, new(big.Int).Mul(lv, rv)
	case 4:
		prec = precUnary
		x, xv := g.gen(depth+1, precUnary, false)
		s, v = "-"+x, new(big.Int).Neg(xv)
	default:
		prec = precPow
		// The base of a power must be atomic: any operator would regroup.
		x, xv := g.gen(depth+1, precPow+1, false)
		k := int64(g.byte() % 4)
		if xv.BitLen()*int(k) > 100_000 {
			k = 1 // keep the reference arithmetic cheap; Eval refuses such sizes anyway
		}
		op := []string{"^", "**"}[g.byte()%2]
		s, v = x+op+strconv.FormatInt(k, 10), new(big.Int).Exp(xv, big.NewInt(k), nil)
	}
	g.bits = max(g.bits, v.BitLen())
	if prec < parent || prec == parent && tight || g.byte()%9 == 0 {
		s = "(" + s + ")"
	}
	return s, v
}
