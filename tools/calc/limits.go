package calc

// Defaults for the fields of Limits that are zero.
const (
	DefaultMaxExprLen  = 4096
	DefaultMaxDepth    = 64
	DefaultMaxExponent = 100000
	DefaultMaxDigits   = 10000
)

// DefaultPrecision is the number of significant digits Eval rounds to when
// it is given a precision of zero or less.
const DefaultPrecision = 30

// MaxPrecision is the largest number of significant digits Eval accepts.
const MaxPrecision = 1000

// maxDigitsCap bounds Limits.MaxDigits. It keeps the binary exponents of
// intermediate floats far inside the range big.Float supports and the
// working precision of approximate results affordable.
const maxDigitsCap = 1_000_000

// Limits bounds the work one expression may cause. The zero value means the
// defaults; so does any field that is zero or negative.
type Limits struct {
	// MaxExprLen is the longest accepted expression, in bytes.
	MaxExprLen int
	// MaxDepth is the deepest accepted nesting of parentheses, unary signs,
	// function calls and exponents.
	MaxDepth int
	// MaxExponent is the largest accepted absolute value of an exponent.
	// Powers of 0, 1 and -1 are exempt because they cost nothing.
	MaxExponent int64
	// MaxDigits is the largest number of decimal digits allowed in any
	// intermediate or final integer, numerator or denominator, and in the
	// integer part of an approximate value. Approximate values smaller than
	// 10^-MaxDigits are refused as well, as their exact counterparts would
	// need denominators that long. Values above 1,000,000 are treated as
	// 1,000,000.
	MaxDigits int
}

// withDefaults returns l with every unset field replaced by its default.
func (l Limits) withDefaults() Limits {
	if l.MaxExprLen <= 0 {
		l.MaxExprLen = DefaultMaxExprLen
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxExponent <= 0 {
		l.MaxExponent = DefaultMaxExponent
	}
	if l.MaxDigits <= 0 {
		l.MaxDigits = DefaultMaxDigits
	}
	l.MaxDigits = min(l.MaxDigits, maxDigitsCap)
	return l
}
