package schemagen

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

// template is one catalog entry in each language. Placeholders in braces
// are filled from the Problem; see Problem.Message.
type template struct {
	en, zh string
}

// catalog holds every user-visible text, indexed by msgID.
var catalog = [numMsgs]template{
	msgBadUTF8: {
		en: "arguments are not valid UTF-8; send UTF-8 encoded JSON",
		zh: "参数不是有效的 UTF-8；请发送 UTF-8 编码的 JSON",
	},
	msgBadJSON: {
		en: "arguments are not valid JSON (error at character {pos}); send one JSON object",
		zh: "参数不是有效的 JSON（第 {pos} 个字符处出错）；请发送一个 JSON 对象",
	},
	msgTruncated: {
		en: "arguments end in the middle of a JSON value; send a complete JSON object",
		zh: "参数在 JSON 值中间结束；请发送完整的 JSON 对象",
	},
	msgTrailing: {
		en: "arguments have extra text after the JSON object (at character {pos}); send one object",
		zh: "JSON 对象之后还有多余内容（第 {pos} 个字符）；请只发送一个对象",
	},
	msgNotObject: {
		en: "arguments must be a JSON object, got {gotDesc}",
		zh: "参数必须是 JSON 对象，收到的是 {gotDesc}",
	},
	msgDuplicate: {
		en: "argument {arg} appears more than once; send it once",
		zh: "参数 {arg} 出现了多次；请只发送一次",
	},
	msgNumberTooBig: {
		en: "{arg} has too many digits or too large an exponent, got {got}",
		zh: "{arg} 的位数过多或指数过大，收到的是 {got}",
	},
	msgMissing: {
		en: "missing required argument {arg} ({want}); add it",
		zh: "缺少必需参数 {arg}（{want}）；请添加",
	},
	msgWrongType: {
		en: "{arg} must be {want}, got {gotDesc}",
		zh: "{arg} 必须是{want}，收到的是 {gotDesc}",
	},
	msgWrongTypeNull: {
		en: "{arg} must be {want}, got null; send a value or leave it out if optional",
		zh: "{arg} 必须是{want}，收到的是 null；请提供值，可选参数可以省略",
	},
	msgEnum: {
		en: "{arg} must be one of {allowed}; got {got}",
		zh: "{arg} 必须是 {allowed} 之一；收到的是 {got}",
	},
	msgConst: {
		en: "{arg} must be {allowed}; got {got}",
		zh: "{arg} 必须是 {allowed}；收到的是 {got}",
	},
	msgMinimum: {
		en: "{arg} must be at least {limit}, got {got}",
		zh: "{arg} 不能小于 {limit}，收到的是 {got}",
	},
	msgMaximum: {
		en: "{arg} must be at most {limit}, got {got}",
		zh: "{arg} 不能大于 {limit}，收到的是 {got}",
	},
	msgExclusiveMinimum: {
		en: "{arg} must be greater than {limit}, got {got}",
		zh: "{arg} 必须大于 {limit}，收到的是 {got}",
	},
	msgExclusiveMaximum: {
		en: "{arg} must be less than {limit}, got {got}",
		zh: "{arg} 必须小于 {limit}，收到的是 {got}",
	},
	msgNotEmpty: {
		en: "{arg} must not be empty",
		zh: "{arg} 不能为空",
	},
	msgMinLength: {
		en: "{arg} must be at least {limit} characters long, got {count}",
		zh: "{arg} 至少需要 {limit} 个字符，收到 {count} 个",
	},
	msgMaxLength: {
		en: "{arg} must be at most {limit} characters long, got {count}; shorten it",
		zh: "{arg} 最多 {limit} 个字符，收到 {count} 个；请缩短",
	},
	msgMinItems1: {
		en: "{arg} must have at least 1 item, got none",
		zh: "{arg} 至少需要 1 项，收到的是空数组",
	},
	msgMinItems: {
		en: "{arg} must have at least {limit} items, got {count}",
		zh: "{arg} 至少需要 {limit} 项，收到 {count} 项",
	},
	msgMaxItems: {
		en: "{arg} must have at most {limit} items, got {count}",
		zh: "{arg} 最多 {limit} 项，收到 {count} 项",
	},
	msgPattern: {
		en: "{arg} must match the pattern {limit}, got {got}",
		zh: "{arg} 必须匹配模式 {limit}，收到的是 {got}",
	},
	msgDateTime: {
		en: "{arg} must be a date-time like 2006-01-02T15:04:05Z, got {got}",
		zh: "{arg} 必须是日期时间，例如 2006-01-02T15:04:05Z，收到的是 {got}",
	},
	msgBase64: {
		en: "{arg} must be base64-encoded (standard alphabet, padded), got {got}",
		zh: "{arg} 必须是 base64 编码（标准字母表，带填充），收到的是 {got}",
	},
	msgChars: {
		en: "{arg}: character {char} at position {pos} is not allowed; use {class}",
		zh: "{arg}：第 {pos} 个字符 {char} 不允许；请只用{class}",
	},
	msgCharsInvisible: {
		en: "{arg}: invisible character {char} at position {pos} is not allowed; remove it",
		zh: "{arg}：第 {pos} 个字符是不可见字符 {char}，不允许；请删除",
	},
	msgCharsBackslash: {
		en: "{arg}: character '\\' at position {pos} is not allowed; use '/' between directories",
		zh: "{arg}：第 {pos} 个字符 '\\' 不允许；目录之间请用 '/'",
	},
	msgCharsEmpty: {
		en: "{arg} must not be empty; use {class}",
		zh: "{arg} 不能为空；请使用{class}",
	},
	msgKeyChars: {
		en: "{arg} has key {got}: character {char} at position {pos} is not allowed; use {class}",
		zh: "{arg} 的键 {got}：第 {pos} 个字符 {char} 不允许；请只用{class}",
	},
	msgUnknown: {
		en: "unknown argument {arg}; allowed: {allowed}",
		zh: "未知参数 {arg}；允许的参数：{allowed}",
	},
	msgUnknownSuggest: {
		en: "unknown argument {arg}; did you mean {suggest}?",
		zh: "未知参数 {arg}；是否应为 {suggest}？",
	},
	msgUnknownMany: {
		en: "unknown argument {arg}; see the input schema for the allowed names",
		zh: "未知参数 {arg}；请对照输入 schema 中允许的参数名",
	},
	msgUnknownNone: {
		en: "unknown argument {arg}; no arguments are accepted here",
		zh: "未知参数 {arg}；此处不接受任何参数",
	},
	msgInvalid: {
		en: "invalid value for {arg}; check the input schema",
		zh: "{arg} 的值无效；请对照输入 schema",
	},
	msgHookFailed: {
		en: "arguments were rejected by the tool",
		zh: "参数被工具拒绝",
	},

	msgMore: {
		en: "…and {n} more",
		zh: "……还有 {n} 个问题",
	},
	msgArguments: {en: "arguments", zh: "参数"},
	msgGotDesc:   {en: "{got} ({gotType})", zh: "{got}（{gotType}）"},
	msgListSep:   {en: ", ", zh: "、"},

	msgNounString:  {en: "a string", zh: "字符串"},
	msgNounInteger: {en: "an integer", zh: "整数"},
	msgNounNumber:  {en: "a number", zh: "数字"},
	msgNounBoolean: {en: "a boolean", zh: "布尔值"},
	msgNounObject:  {en: "an object", zh: "对象"},
	msgNounArray:   {en: "an array", zh: "数组"},
	msgNounNull:    {en: "null", zh: "null"},
	msgNounAny:     {en: "any JSON value", zh: "任意 JSON 值"},

	// The English class phrases come from security.CharClass.Describe;
	// these entries only serve the other languages.
	msgClassIdent: {zh: "字母、数字、'_' 和 '-'"},
	msgClassPath:  {zh: "可打印字符，'\\' 只能用于 \\u{…} 或 \\x{…} 转义"},
	msgClassGlob:  {zh: "除 '\\' 以外的可打印字符和通配符"},
	msgClassText:  {zh: "除控制字符以外的任意文本（制表符和换行可以）"},
	msgClassExpr:  {zh: "数字、字母、空格和 + - * / % ^ ( ) . , _"},

	// The schema a model reads is in English; the Chinese entries keep the
	// catalog complete.
	msgDescClass:      {en: "{class}", zh: "{class}"},
	msgDescKeys:       {en: "keys: {limit}", zh: "键：{limit}"},
	msgDescKeysValues: {en: "keys: {limit}; values: {class}", zh: "键：{limit}；值：{class}"},
	msgDescNote:       {en: "{detail} ({limit})", zh: "{detail}（{limit}）"},
	msgDescOnly:       {en: "{detail}.", zh: "{detail}。"},
}

// text returns the catalog entry id in lang, falling back to English.
func text(id msgID, lang Lang) string {
	if int(id) >= len(catalog) {
		return ""
	}
	if lang == Chinese && catalog[id].zh != "" {
		return catalog[id].zh
	}
	return catalog[id].en
}
