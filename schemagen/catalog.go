package schemagen

import "github.com/stdiotools/toolserver/i18n"

// msgID names one entry of the message catalog.
type msgID uint8

// The catalog entries. Problem messages, the nouns and phrases they are
// built from, and the "...and N more" line are all here, so that every text
// a model can read is in this file, once per language.
const (
	msgNone msgID = iota // a problem built by hand: Detail, or a default per Kind

	// Parsing.
	msgBadUTF8
	msgBadJSON
	msgTruncated
	msgTrailing
	msgNotObject
	msgDuplicate
	msgNumberTooBig

	// Validation.
	msgMissing
	msgWrongType
	msgWrongTypeNull
	msgEnum
	msgConst
	msgMinimum
	msgMaximum
	msgExclusiveMinimum
	msgExclusiveMaximum
	msgNotEmpty
	msgMinLength
	msgMaxLength
	msgMinItems1
	msgMinItems
	msgMaxItems
	msgPattern
	msgDateTime
	msgBase64
	msgChars
	msgCharsInvisible
	msgCharsBackslash
	msgCharsEmpty
	msgKeyChars
	msgUnknown
	msgUnknownSuggest
	msgUnknownMany
	msgUnknownNone
	msgInvalid
	msgHookFailed

	// Pieces.
	msgMore
	msgArguments
	msgGotDesc
	msgListSep
	msgNounString
	msgNounInteger
	msgNounNumber
	msgNounBoolean
	msgNounObject
	msgNounArray
	msgNounNull
	msgNounAny
	msgClassPath
	msgClassGlob
	msgClassText
	msgClassExpr
	msgClassIdent

	// Notes appended to the descriptions in input schemas.
	msgDescClass
	msgDescKeys
	msgDescKeysValues
	msgDescNote
	msgDescOnly

	numMsgs
)

// catalog holds every user-visible text, indexed by msgID. Placeholders
// in braces are filled from the Problem; see Problem.Message.
var catalog = i18n.Catalog[msgID]{
	msgBadUTF8: {
		En: "arguments are not valid UTF-8; send UTF-8 encoded JSON",
		Zh: "参数不是有效的 UTF-8；请发送 UTF-8 编码的 JSON",
	},
	msgBadJSON: {
		En: "arguments are not valid JSON (error at character {pos}); send one JSON object",
		Zh: "参数不是有效的 JSON（第 {pos} 个字符处出错）；请发送一个 JSON 对象",
	},
	msgTruncated: {
		En: "arguments end in the middle of a JSON value; send a complete JSON object",
		Zh: "参数在 JSON 值中间结束；请发送完整的 JSON 对象",
	},
	msgTrailing: {
		En: "arguments have extra text after the JSON object (at character {pos}); send one object",
		Zh: "JSON 对象之后还有多余内容（第 {pos} 个字符）；请只发送一个对象",
	},
	msgNotObject: {
		En: "arguments must be a JSON object, got {gotDesc}",
		Zh: "参数必须是 JSON 对象，收到的是 {gotDesc}",
	},
	msgDuplicate: {
		En: "argument {arg} appears more than once; send it once",
		Zh: "参数 {arg} 出现了多次；请只发送一次",
	},
	msgNumberTooBig: {
		En: "{arg} has too many digits or too large an exponent, got {got}",
		Zh: "{arg} 的位数过多或指数过大，收到的是 {got}",
	},
	msgMissing: {
		En: "missing required argument {arg} ({want}); add it",
		Zh: "缺少必需参数 {arg}（{want}）；请添加",
	},
	msgWrongType: {
		En: "{arg} must be {want}, got {gotDesc}",
		Zh: "{arg} 必须是{want}，收到的是 {gotDesc}",
	},
	msgWrongTypeNull: {
		En: "{arg} must be {want}, got null; send a value or leave it out if optional",
		Zh: "{arg} 必须是{want}，收到的是 null；请提供值，可选参数可以省略",
	},
	msgEnum: {
		En: "{arg} must be one of {allowed}; got {got}",
		Zh: "{arg} 必须是 {allowed} 之一；收到的是 {got}",
	},
	msgConst: {
		En: "{arg} must be {allowed}; got {got}",
		Zh: "{arg} 必须是 {allowed}；收到的是 {got}",
	},
	msgMinimum: {
		En: "{arg} must be at least {limit}, got {got}",
		Zh: "{arg} 不能小于 {limit}，收到的是 {got}",
	},
	msgMaximum: {
		En: "{arg} must be at most {limit}, got {got}",
		Zh: "{arg} 不能大于 {limit}，收到的是 {got}",
	},
	msgExclusiveMinimum: {
		En: "{arg} must be greater than {limit}, got {got}",
		Zh: "{arg} 必须大于 {limit}，收到的是 {got}",
	},
	msgExclusiveMaximum: {
		En: "{arg} must be less than {limit}, got {got}",
		Zh: "{arg} 必须小于 {limit}，收到的是 {got}",
	},
	msgNotEmpty: {
		En: "{arg} must not be empty",
		Zh: "{arg} 不能为空",
	},
	msgMinLength: {
		En: "{arg} must be at least {limit} characters long, got {count}",
		Zh: "{arg} 至少需要 {limit} 个字符，收到 {count} 个",
	},
	msgMaxLength: {
		En: "{arg} must be at most {limit} characters long, got {count}; shorten it",
		Zh: "{arg} 最多 {limit} 个字符，收到 {count} 个；请缩短",
	},
	msgMinItems1: {
		En: "{arg} must have at least 1 item, got none",
		Zh: "{arg} 至少需要 1 项，收到的是空数组",
	},
	msgMinItems: {
		En: "{arg} must have at least {limit} items, got {count}",
		Zh: "{arg} 至少需要 {limit} 项，收到 {count} 项",
	},
	msgMaxItems: {
		En: "{arg} must have at most {limit} items, got {count}",
		Zh: "{arg} 最多 {limit} 项，收到 {count} 项",
	},
	msgPattern: {
		En: "{arg} must match the pattern {limit}, got {got}",
		Zh: "{arg} 必须匹配模式 {limit}，收到的是 {got}",
	},
	msgDateTime: {
		En: "{arg} must be a date-time like 2006-01-02T15:04:05Z, got {got}",
		Zh: "{arg} 必须是日期时间，例如 2006-01-02T15:04:05Z，收到的是 {got}",
	},
	msgBase64: {
		En: "{arg} must be base64-encoded (standard alphabet, padded), got {got}",
		Zh: "{arg} 必须是 base64 编码（标准字母表，带填充），收到的是 {got}",
	},
	msgChars: {
		En: "{arg}: character {char} at position {pos} is not allowed; use {class}",
		Zh: "{arg}：第 {pos} 个字符 {char} 不允许；请只用{class}",
	},
	msgCharsInvisible: {
		En: "{arg}: invisible character {char} at position {pos} is not allowed; remove it",
		Zh: "{arg}：第 {pos} 个字符是不可见字符 {char}，不允许；请删除",
	},
	msgCharsBackslash: {
		En: "{arg}: character '\\' at position {pos} is not allowed; use '/' between directories",
		Zh: "{arg}：第 {pos} 个字符 '\\' 不允许；目录之间请用 '/'",
	},
	msgCharsEmpty: {
		En: "{arg} must not be empty; use {class}",
		Zh: "{arg} 不能为空；请使用{class}",
	},
	msgKeyChars: {
		En: "{arg} has key {got}: character {char} at position {pos} is not allowed; use {class}",
		Zh: "{arg} 的键 {got}：第 {pos} 个字符 {char} 不允许；请只用{class}",
	},
	msgUnknown: {
		En: "unknown argument {arg}; allowed: {allowed}",
		Zh: "未知参数 {arg}；允许的参数：{allowed}",
	},
	msgUnknownSuggest: {
		En: "unknown argument {arg}; did you mean {suggest}?",
		Zh: "未知参数 {arg}；是否应为 {suggest}？",
	},
	msgUnknownMany: {
		En: "unknown argument {arg}; see the input schema for the allowed names",
		Zh: "未知参数 {arg}；请对照输入 schema 中允许的参数名",
	},
	msgUnknownNone: {
		En: "unknown argument {arg}; no arguments are accepted here",
		Zh: "未知参数 {arg}；此处不接受任何参数",
	},
	msgInvalid: {
		En: "invalid value for {arg}; check the input schema",
		Zh: "{arg} 的值无效；请对照输入 schema",
	},
	msgHookFailed: {
		En: "arguments were rejected by the tool",
		Zh: "参数被工具拒绝",
	},

	msgMore: {
		En: "…and {n} more",
		Zh: "……还有 {n} 个问题",
	},
	msgArguments: {En: "arguments", Zh: "参数"},
	msgGotDesc:   {En: "{got} ({gotType})", Zh: "{got}（{gotType}）"},
	msgListSep:   {En: ", ", Zh: "、"},

	msgNounString:  {En: "a string", Zh: "字符串"},
	msgNounInteger: {En: "an integer", Zh: "整数"},
	msgNounNumber:  {En: "a number", Zh: "数字"},
	msgNounBoolean: {En: "a boolean", Zh: "布尔值"},
	msgNounObject:  {En: "an object", Zh: "对象"},
	msgNounArray:   {En: "an array", Zh: "数组"},
	msgNounNull:    {En: "null", Zh: "null"},
	msgNounAny:     {En: "any JSON value", Zh: "任意 JSON 值"},

	// The English class phrases come from security.CharClass.Describe;
	// these entries only serve the other languages.
	msgClassIdent: {Zh: "字母、数字、'_' 和 '-'"},
	msgClassPath:  {Zh: "可打印字符，'\\' 只能用于 \\u{…} 或 \\x{…} 转义"},
	msgClassGlob:  {Zh: "除 '\\' 以外的可打印字符和通配符"},
	msgClassText:  {Zh: "除控制字符以外的任意文本（制表符和换行可以）"},
	msgClassExpr:  {Zh: "数字、字母、空格和 + - * / % ^ ( ) . , _"},

	// The schema a model reads is in English; the Chinese entries keep the
	// catalog complete.
	msgDescClass:      {En: "{class}", Zh: "{class}"},
	msgDescKeys:       {En: "keys: {limit}", Zh: "键：{limit}"},
	msgDescKeysValues: {En: "keys: {limit}; values: {class}", Zh: "键：{limit}；值：{class}"},
	msgDescNote:       {En: "{detail} ({limit})", Zh: "{detail}（{limit}）"},
	msgDescOnly:       {En: "{detail}.", Zh: "{detail}。"},
}
