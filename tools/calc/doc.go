// Package calc evaluates arithmetic expressions exactly.
//
// Eval parses an expression with a hand-written lexer and recursive-descent
// parser and evaluates it with math/big. Numbers are held as exact rationals
// (*big.Rat) for as long as the mathematics allows, so 0.1+0.2 is exactly 0.3
// and 2^200 keeps every digit. Only the irrational parts of the language, the
// constants pi and e, square roots of non-squares and powers with non-integer
// exponents, are approximated. They are computed as balls: a midpoint plus a
// rigorous error bound. The digits Eval reports for an approximate result are
// therefore correctly rounded; when the working precision cannot settle them,
// Eval repeats the evaluation with more digits, and reports an error rather
// than a wrong digit when even that fails (as for sqrt(2)^2-2, which is zero
// but can only be shown to be very small).
//
// # Language
//
// Numbers are decimal: 42, 0.25, .5, 5., 1e3, 2.5E-4. The operators are, from
// lowest to highest precedence:
//
//	a+b  a-b          addition and subtraction, left-associative
//	a*b  a/b  a%b     multiplication, division and remainder, left-associative
//	+a   -a           unary plus and minus
//	a^b  a**b         power, right-associative: 2^3^2 is 2^9
//
// Power binds tighter than unary minus on its left, so -2^2 is -4, and its
// right operand may itself carry a sign, so 2^-1 is 0.5. The remainder a % b
// has the sign of a: it is a - b*trunc(a/b), also for fractions.
//
// The functions are sqrt, abs, floor, ceil, round (half away from zero, with
// an optional second argument giving the number of decimal places, which may
// be negative), min and max (one or more arguments). The constants are pi and
// e. Names are case-sensitive. Whitespace may appear between tokens; any other
// character is a syntax error.
//
// A power with a non-integer rational exponent p/q is exact when the base is
// a perfect q-th power (8^(1/3) is 2, 0.25^1.5 is 0.125). A negative base is
// allowed when q is odd and then means the real root: (-8)^(1/3) is -2. The
// expression 0^0 is 1.
//
// # Results
//
// Value.Text is exact when Value.Exact is true: integers print every digit,
// and so do terminating decimals of up to MaxDigits significant digits (in
// scientific notation when very large or very small). Otherwise Text is the
// value rounded to the requested number of significant digits, as for
// 4535/2228, a repeating decimal, or sqrt(2). Eval never produces NaN or an
// infinity; every failure is an *Error whose message is one sentence,
// naming the column of the offending token when there is one. It is in
// English, or in Chinese when Error.Lang says so; the calc tool sets it to
// the language of the call.
//
// # Limits
//
// Limits bounds the length and nesting of the expression, the size of
// exponents and the number of digits of every intermediate result. Powers
// are refused from an estimate of their size before any work is done, so
// inputs such as 9^9^9^9 fail within microseconds.
package calc
