package toolcall

import (
	"testing"

	"github.com/stdiotools/toolserver/i18n"
)

func TestEveryMismatchReadsAsASentenceInBothLanguages(t *testing.T) {
	tests := []struct {
		m      Mismatch
		en, zh string
	}{
		{Mismatch{Kind: WrongType, Path: "/head", Rule: "type", Want: "integer", Got: "string"},
			"/head: a string was given where an integer is required.",
			"/head：需要整数，却给了字符串。"},
		{Mismatch{Kind: WrongType, Path: "", Rule: "type", Want: "object", Got: "array"},
			"the arguments: an array was given where an object is required.",
			"参数：需要对象，却给了数组。"},
		{Mismatch{Kind: WrongType, Path: "/n", Rule: "type", Want: "integer or null", Got: "boolean"},
			"/n: a boolean was given where an integer or null is required.",
			"/n：需要整数或null，却给了布尔值。"},
		{Mismatch{Kind: WrongType, Path: "/n", Rule: "type", Want: "number or string", Got: "null"},
			"/n: null was given where a number or string is required.",
			"/n：需要数字或字符串，却给了null。"},
		{Mismatch{Kind: WrongType, Path: "/n", Rule: "type", Want: "decimal", Got: "object"},
			"/n: an object was given where a decimal is required.",
			"/n：需要decimal，却给了对象。"},
		{Mismatch{Kind: NotAllowed, Path: "/mode", Rule: "enum", Want: "\"text\", \"base64\"", Got: "\"hex\""},
			"/mode: \"hex\" is not allowed; use one of: \"text\", \"base64\".",
			"/mode：\"hex\" 不被允许；请使用其中之一：\"text\", \"base64\"。"},
		{Mismatch{Kind: NotAllowed, Path: "/x", Rule: "false", Want: "", Got: ""},
			"/x: no value is allowed here.",
			"/x：此处不允许任何值。"},
		{Mismatch{Kind: Missing, Path: "/path", Rule: "required", Want: "", Got: ""},
			"/path: this argument is required but missing.",
			"/path：缺少这个必需的参数。"},
		{Mismatch{Kind: Unknown, Path: "/extra", Rule: "additionalProperties", Want: "head, mode", Got: ""},
			"/extra: this argument is not known; the known ones are: head, mode.",
			"/extra：未知参数；已知的参数有：head, mode。"},
		{Mismatch{Kind: Unknown, Path: "/extra", Rule: "additionalProperties", Want: "", Got: ""},
			"/extra: this argument is not known; the tool takes none.",
			"/extra：未知参数；该工具不接受参数。"},
		{Mismatch{Kind: TooSmall, Path: "/a", Rule: "minimum", Want: "1", Got: "0"},
			"/a: 0 is below the minimum 1.",
			"/a：0 小于最小值 1。"},
		{Mismatch{Kind: TooSmall, Path: "/a", Rule: "exclusiveMinimum", Want: "1", Got: "1"},
			"/a: 1 must be greater than 1.",
			"/a：1 必须大于 1。"},
		{Mismatch{Kind: TooLarge, Path: "/a", Rule: "maximum", Want: "9", Got: "10"},
			"/a: 10 is above the maximum 9.",
			"/a：10 大于最大值 9。"},
		{Mismatch{Kind: TooLarge, Path: "/a", Rule: "exclusiveMaximum", Want: "9", Got: "9"},
			"/a: 9 must be less than 9.",
			"/a：9 必须小于 9。"},
		{Mismatch{Kind: TooSmall, Path: "/s", Rule: "minLength", Want: "3", Got: "2"},
			"/s: 2 characters; at least 3 are required.",
			"/s：2 个字符；至少需要 3 个。"},
		{Mismatch{Kind: TooLarge, Path: "/s", Rule: "maxLength", Want: "3", Got: "4"},
			"/s: 4 characters; at most 3 are allowed.",
			"/s：4 个字符；最多允许 3 个。"},
		{Mismatch{Kind: TooSmall, Path: "/t", Rule: "minItems", Want: "2", Got: "1"},
			"/t: 1 elements; at least 2 are required.",
			"/t：1 个元素；至少需要 2 个。"},
		{Mismatch{Kind: TooLarge, Path: "/t", Rule: "maxItems", Want: "2", Got: ""},
			"/t: more than 2 elements; at most 2 are allowed.",
			"/t：多于 2 个元素；最多允许 2 个。"},
		{Mismatch{Kind: TooLarge, Path: "/t", Rule: "multipleOf", Want: "2", Got: "3"},
			"/t",
			"/t"},
		{Mismatch{Kind: MismatchKind(99), Path: "/q", Rule: "format", Want: "", Got: ""},
			"/q: format",
			"/q: format"},
	}
	for _, tt := range tests {
		if got := tt.m.Message(i18n.English); got != tt.en {
			t.Errorf("%+v in English:\n got: %s\nwant: %s", tt.m, got, tt.en)
		}
		if got := tt.m.Message(i18n.Chinese); got != tt.zh {
			t.Errorf("%+v in Chinese:\n got: %s\nwant: %s", tt.m, got, tt.zh)
		}
		if got := tt.m.Message("fr"); got != tt.en {
			t.Errorf("%+v in an unknown language: %s, want the English %s", tt.m, got, tt.en)
		}
	}
}

func TestAValueHoldingAPlaceholderStaysAsItIs(t *testing.T) {
	m := Mismatch{Kind: NotAllowed, Path: "/{2}", Rule: "enum", Want: `"{1}"`, Got: `"{3}"`}
	if got, want := m.Message(i18n.English), `/{2}: "{3}" is not allowed; use one of: "{1}".`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestEveryToolcallMessageHasEnglishAndChinese(t *testing.T) {
	if err := catalog.Check(numMsgs); err != nil {
		t.Error(err)
	}
	for _, name := range []string{"boolean", "object", "array", "number", "string", "integer"} {
		if id, ok := typeMessage(name); !ok || catalog.Text(i18n.English, id) != name {
			t.Errorf("type %s has no entry of its name", name)
		}
	}
}
