package toolcall

import "github.com/stdiotools/toolserver/i18n"

// msgID names one text toolcall writes for a model: the sentence of a
// [Mismatch], or a word such a sentence is built from.
type msgID uint8

// The catalog entries.
const (
	msgTheArguments msgID = iota // the path of the arguments object itself

	// The sentences of Mismatch.Message: {1} is the path, then what the
	// mismatch holds.
	msgWrongType
	msgNoValue
	msgNotAllowed
	msgMissing
	msgUnknownNone
	msgUnknown
	msgMinimum
	msgExclusiveMinimum
	msgMaximum
	msgExclusiveMaximum
	msgMinLength
	msgMaxLength
	msgMinItems
	msgMaxItems
	msgOtherRule

	// The names of JSON types, and the "or" between them; null is the
	// JSON literal in every language.
	msgTypeOr
	msgTypeBoolean
	msgTypeObject
	msgTypeArray
	msgTypeNumber
	msgTypeString
	msgTypeInteger

	numMsgs
)

// catalog holds every text in English and in Chinese. {1}, {2}, … stand
// for the arguments, in the order the code passes them.
var catalog = i18n.Catalog[msgID]{
	msgTheArguments: {"the arguments", "参数"},

	msgWrongType:        {"{1}: {2} was given where {3} is required.", "{1}：需要{3}，却给了{2}。"},
	msgNoValue:          {"{1}: no value is allowed here.", "{1}：此处不允许任何值。"},
	msgNotAllowed:       {"{1}: {2} is not allowed; use one of: {3}.", "{1}：{2} 不被允许；请使用其中之一：{3}。"},
	msgMissing:          {"{1}: this argument is required but missing.", "{1}：缺少这个必需的参数。"},
	msgUnknownNone:      {"{1}: this argument is not known; the tool takes none.", "{1}：未知参数；该工具不接受参数。"},
	msgUnknown:          {"{1}: this argument is not known; the known ones are: {2}.", "{1}：未知参数；已知的参数有：{2}。"},
	msgMinimum:          {"{1}: {2} is below the minimum {3}.", "{1}：{2} 小于最小值 {3}。"},
	msgExclusiveMinimum: {"{1}: {2} must be greater than {3}.", "{1}：{2} 必须大于 {3}。"},
	msgMaximum:          {"{1}: {2} is above the maximum {3}.", "{1}：{2} 大于最大值 {3}。"},
	msgExclusiveMaximum: {"{1}: {2} must be less than {3}.", "{1}：{2} 必须小于 {3}。"},
	msgMinLength:        {"{1}: {2} characters; at least {3} are required.", "{1}：{2} 个字符；至少需要 {3} 个。"},
	msgMaxLength:        {"{1}: {2} characters; at most {3} are allowed.", "{1}：{2} 个字符；最多允许 {3} 个。"},
	msgMinItems:         {"{1}: {2} elements; at least {3} are required.", "{1}：{2} 个元素；至少需要 {3} 个。"},
	msgMaxItems:         {"{1}: more than {3} elements; at most {3} are allowed.", "{1}：多于 {3} 个元素；最多允许 {3} 个。"},
	msgOtherRule:        {"{1}: {2}", "{1}: {2}"}, // {2} is the keyword, code in both languages

	msgTypeOr:      {" or ", "或"},
	msgTypeBoolean: {"boolean", "布尔值"},
	msgTypeObject:  {"object", "对象"},
	msgTypeArray:   {"array", "数组"},
	msgTypeNumber:  {"number", "数字"},
	msgTypeString:  {"string", "字符串"},
	msgTypeInteger: {"integer", "整数"},
}
