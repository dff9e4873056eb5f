package calc

import (
	"strconv"

	"github.com/stdiotools/toolserver/i18n"
)

// msgID names one text of the catalog: a message, a hint, a phrase that
// messages are built from, or a joiner of Error.Error.
type msgID uint8

// The catalog entries, in the order of the catalog below.
const (
	msgNone msgID = iota // no message: an Error without a hint

	// Messages about the request as a whole.
	msgPrecision
	msgTooLong
	msgEmpty
	msgNearZero
	msgRoundingBoundary

	// Messages of the evaluation.
	msgTooManyDigits
	msgDivisionByZero
	msgDivisorNearZero
	msgSqrtNegative
	msgSqrtNearZero
	msgFloorUndecided
	msgCeilUndecided
	msgRoundUndecided
	msgRemainderUndecided
	msgRoundPlacesNotWhole
	msgRoundPlacesLimit
	msgExponentRange
	msgNegativeBaseFraction
	msgNegativeBaseIrrational
	msgBaseNearZero
	msgExponentNearZero
	msgPowerInaccurate

	// Messages of the lexer and the parser.
	msgUnexpectedChar
	msgExponentNoDigits
	msgInvalidUTF8
	msgTooDeep
	msgLiteralTooManyDigits
	msgConstantCalled
	msgUnknownName
	msgExpectedParen
	msgArityExactlyOne
	msgArityExactly
	msgArityAtLeastOne
	msgArityAtLeast
	msgArityEither
	msgUnclosedParen
	msgUnmatchedClose
	msgExpectedNumberAfter
	msgExpectedNumber
	msgUnexpectedComma
	msgExpectedOperator

	// Hints.
	msgHintEmpty
	msgHintMaybeZero
	msgHintOtherPrecision
	msgHintDivisorZero
	msgHintBaseZero
	msgHintZeroNegativePower
	msgHintOddDenominator
	msgHintWrite
	msgHintDigit
	msgHintExponentDigits
	msgHintTimesSign
	msgHintDivideSign
	msgHintMinusSign
	msgHintGrouping
	msgHintNoEquals
	msgHintAllowed
	msgHintSimplify
	msgHintConstantTimes
	msgHintCaseSensitive
	msgHintKnownNames
	msgHintAddParen
	msgHintCommas
	msgHintMultiply

	// Phrases: the tokens a message names.
	msgEnd
	msgTheNumber
	msgTheName
	msgTheSymbol

	// The joiners of Error.Error.
	msgAt
	msgWithHint

	numMsgs
)

// catalog holds every text calc shows, in English and in Chinese. {1},
// {2}, … stand for the arguments of the message, in the order the code
// passes them; a language may place them in any order. Names, numbers and
// parts of the expression are arguments, quoted the same way in both
// languages.
var catalog = i18n.Catalog[msgID]{
	msgPrecision: {
		"precision {1} is more than the maximum of {2} significant digits",
		"精度 {1} 超过了 {2} 位有效数字的上限"},
	msgTooLong: {
		"the expression is {1} bytes long, more than the limit of {2} bytes",
		"表达式长 {1} 字节，超过了 {2} 字节的上限"},
	msgEmpty: {
		"the expression is empty",
		"表达式为空"},
	msgNearZero: {
		"the result is too close to zero to determine even its first digit; its magnitude is below 1e{1}",
		"结果太接近零，连第一位数字都无法确定；其绝对值小于 1e{1}"},
	msgRoundingBoundary: {
		"the result lies too close to a rounding boundary to round it to {1} significant digits",
		"结果太接近舍入边界，无法舍入到 {1} 位有效数字"},

	msgTooManyDigits: {
		"the result would have more than {1} digits",
		"结果将超过 {1} 位数字"},
	msgDivisionByZero: {
		"division by zero",
		"除以零"},
	msgDivisorNearZero: {
		"division by a number too close to zero to tell it apart from zero",
		"除数太接近零，无法与零区分"},
	msgSqrtNegative: {
		"square root of a negative number",
		"对负数求平方根"},
	msgSqrtNearZero: {
		"the argument of sqrt is too close to zero to tell whether it is negative",
		"sqrt 的参数太接近零，无法判断它是否为负"},
	msgFloorUndecided: {
		"floor cannot be decided because its argument is too close to a whole number",
		"floor 的参数太接近整数，无法确定结果"},
	msgCeilUndecided: {
		"ceil cannot be decided because its argument is too close to a whole number",
		"ceil 的参数太接近整数，无法确定结果"},
	msgRoundUndecided: {
		"round cannot be decided because its argument is too close to a halfway point",
		"round 的参数太接近两个整数的中点，无法确定结果"},
	msgRemainderUndecided: {
		"the remainder cannot be decided because the quotient is too close to a whole number",
		"商太接近整数，无法确定余数"},
	msgRoundPlacesNotWhole: {
		"the number of decimal places given to round must be a whole number",
		"传给 round 的小数位数必须是整数"},
	msgRoundPlacesLimit: {
		"round to {1} decimal places is beyond the limit of {2}",
		"round 到 {1} 位小数超出了上限 {2}"},
	msgExponentRange: {
		"the exponent {1} is outside the allowed range -{2} to {2}",
		"指数 {1} 超出了允许的范围 -{2} 到 {2}"},
	msgNegativeBaseFraction: {
		"a negative number to the power {1} has no real value",
		"负数的 {1} 次幂没有实数值"},
	msgNegativeBaseIrrational: {
		"a negative number to a power that is not an exact fraction has no real value",
		"指数不是精确分数时，负数的幂没有实数值"},
	msgBaseNearZero: {
		"the base is too close to zero to tell its sign",
		"底数太接近零，无法判断其正负"},
	msgExponentNearZero: {
		"the exponent is too close to zero to tell whether 0 to that power is 0 or a division by zero",
		"指数太接近零，无法判断 0 的该次幂是 0 还是除以零"},
	msgPowerInaccurate: {
		"the power cannot be computed accurately enough at this precision",
		"在此精度下无法足够准确地计算该幂"},

	msgUnexpectedChar: {
		"unexpected character {1}",
		"意外的字符 {1}"},
	msgExponentNoDigits: {
		"the number {1} has no digits after its exponent marker {2}",
		"数字 {1} 的指数标记 {2} 之后没有数字"},
	msgInvalidUTF8: {
		"invalid UTF-8 byte {1}",
		"无效的 UTF-8 字节 {1}"},
	msgTooDeep: {
		"the expression is nested more than {1} levels deep",
		"表达式的嵌套超过了 {1} 层"},
	msgLiteralTooManyDigits: {
		"the number {1} would have more than {2} digits",
		"数字 {1} 将超过 {2} 位"},
	msgConstantCalled: {
		"{1} is a constant, not a function",
		"{1} 是常数，不是函数"},
	msgUnknownName: {
		"unknown name {1}",
		"未知名称 {1}"},
	msgExpectedParen: {
		"expected '(' after the function name {1}, found {2}",
		"函数名 {1} 之后应为 '('，实际是{2}"},
	msgArityExactlyOne: {
		"{1} takes exactly 1 argument but got {2}",
		"{1} 需要恰好 1 个参数，实际收到 {2} 个"},
	msgArityExactly: {
		"{1} takes exactly {2} arguments but got {3}",
		"{1} 需要恰好 {2} 个参数，实际收到 {3} 个"},
	msgArityAtLeastOne: {
		"{1} takes at least 1 argument but got {2}",
		"{1} 至少需要 1 个参数，实际收到 {2} 个"},
	msgArityAtLeast: {
		"{1} takes at least {2} arguments but got {3}",
		"{1} 至少需要 {2} 个参数，实际收到 {3} 个"},
	msgArityEither: {
		"{1} takes {2} or {3} arguments but got {4}",
		"{1} 需要 {2} 或 {3} 个参数，实际收到 {4} 个"},
	msgUnclosedParen: {
		"the '(' has no matching ')'",
		"此处的 '(' 没有匹配的 ')'"},
	msgUnmatchedClose: {
		"the ')' has no matching '('",
		"此处的 ')' 没有匹配的 '('"},
	msgExpectedNumberAfter: {
		"expected a number after {1}, found {2}",
		"{1} 之后应为数字，实际是{2}"},
	msgExpectedNumber: {
		"expected a number, found {1}",
		"此处应为数字，实际是{1}"},
	msgUnexpectedComma: {
		"unexpected ','",
		"意外的 ','"},
	msgExpectedOperator: {
		"expected an operator after {1}, found {2}",
		"{1} 之后应为运算符，实际是{2}"},

	msgHintEmpty: {
		"give an arithmetic expression such as 1+2",
		"请给出算术表达式，例如 1+2"},
	msgHintMaybeZero: {
		"the exact value may well be 0, as for sqrt(2)^2-2",
		"精确值很可能就是 0，例如 sqrt(2)^2-2"},
	msgHintOtherPrecision: {
		"try a different precision",
		"请换一个精度再试"},
	msgHintDivisorZero: {
		"the divisor may well be exactly 0",
		"除数很可能恰好是 0"},
	msgHintBaseZero: {
		"the base may well be exactly 0",
		"底数很可能恰好是 0"},
	msgHintZeroNegativePower: {
		"0 cannot be raised to a negative power",
		"0 不能取负数次幂"},
	msgHintOddDenominator: {
		"a negative base needs an exponent whose denominator is odd, as in (-8)^(1/3)",
		"底数为负时，指数的分母必须是奇数，例如 (-8)^(1/3)"},
	msgHintWrite: {
		"write {1}",
		"请写成 {1}"},
	msgHintDigit: {
		"a number needs at least one digit, like 0.5 or .5",
		"数字至少要有一位数字，例如 0.5 或 .5"},
	msgHintExponentDigits: {
		"write the exponent as digits, like 1e3, or use * to multiply by the constant e",
		"指数请用数字书写，例如 1e3；要乘以常数 e 请用 *"},
	msgHintTimesSign: {
		"use * for multiplication",
		"乘法请用 *"},
	msgHintDivideSign: {
		"use / for division",
		"除法请用 /"},
	msgHintMinusSign: {
		"use - for subtraction",
		"减法请用 -"},
	msgHintGrouping: {
		"use parentheses for grouping",
		"分组请用圆括号"},
	msgHintNoEquals: {
		"give only the expression, without '='",
		"只给出表达式，不要写 '='"},
	msgHintAllowed: {
		"only numbers, + - * / % ^ **, parentheses and the names sqrt, abs, floor, ceil, round, min, max, pi and e are allowed",
		"只允许数字、+ - * / % ^ **、圆括号，以及名称 sqrt、abs、floor、ceil、round、min、max、pi 和 e"},
	msgHintSimplify: {
		"simplify the expression",
		"请简化表达式"},
	msgHintConstantTimes: {
		"use * to multiply, like {1}*(2)",
		"乘法请用 *，例如 {1}*(2)"},
	msgHintCaseSensitive: {
		"did you mean {1}? names are case-sensitive",
		"是否应为 {1}？名称区分大小写"},
	msgHintKnownNames: {
		"known functions: sqrt, abs, floor, ceil, round, min, max; known constants: pi, e",
		"已知函数：sqrt、abs、floor、ceil、round、min、max；已知常数：pi、e"},
	msgHintAddParen: {
		"add ')'",
		"请补上 ')'"},
	msgHintCommas: {
		"commas only separate function arguments, like max(1, 2)",
		"逗号只用于分隔函数参数，例如 max(1, 2)"},
	msgHintMultiply: {
		"use * to multiply",
		"相乘请用 *"},

	msgEnd: {
		"the end of the expression",
		"表达式结尾"},
	msgTheNumber: {
		"the number {1}",
		"数字 {1}"},
	msgTheName: {
		"{1}",
		"名称 {1}"},
	msgTheSymbol: {
		"{1}",
		"符号 {1}"},

	msgAt: {
		"{1} at column {2} in {3}",
		"{1}，位于 {3} 的第 {2} 列"},
	msgWithHint: {
		"{1}; {2}",
		"{1}；{2}"},
}

// An arg is one argument of a message, written out in the message's
// language.
type arg = i18n.Arg

// num is a count, a limit or a column, written in decimal.
type num int

func (n num) In(i18n.Lang) string { return strconv.Itoa(int(n)) }

// lit is text shown as it is in every language: a name, a number or a
// character from the expression, already quoted where the message quotes
// it.
type lit string

func (s lit) In(i18n.Lang) string { return string(s) }

// message is an entry of the catalog with its arguments. It is written out
// only when read, so that an error can be shown in any language; a
// message can be the argument of another, as a token's description is.
// The zero message is empty.
type message = i18n.Message

// say returns the message id of the catalog with its arguments.
func say(id msgID, args ...arg) message { return catalog.Message(id, args...) }
