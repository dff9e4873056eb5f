package schemagen

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// kindsIn exercises every constraint.
type kindsIn struct {
	Path    string            `json:"path" chars:"path" minLength:"1" maxLength:"12"`
	Head    int               `json:"head,omitempty" minimum:"0" maximum:"1000"`
	Tail    int               `json:"tail,omitempty" exclusiveMinimum:"0" exclusiveMaximum:"10"`
	Sort    string            `json:"sort,omitempty" enum:"name,size"`
	Level   uint8             `json:"level,omitempty"`
	Name    string            `json:"name,omitempty" minLength:"3"`
	Tags    []string          `json:"tags,omitempty" minItems:"1" maxItems:"2"`
	Version string            `json:"version,omitempty" pattern:"^v[0-9]+$"`
	Ident   string            `json:"ident,omitempty"`
	Expr    string            `json:"expr,omitempty" chars:"expr"`
	Text    string            `json:"text,omitempty" chars:"text"`
	Edits   []edit            `json:"edits,omitempty"`
	Env     map[string]string `json:"env,omitempty" chars:"text"`
}

func TestProblemMessages(t *testing.T) {
	s := mustSchema[kindsIn](t)
	tests := []struct {
		name string
		args string
		kind Kind
		path string
		en   string
		zh   string
	}{
		{name: "a missing required argument", args: `{}`, kind: MissingRequired, path: "path",
			en: `missing required argument "path" (a string); add it`,
			zh: `缺少必需参数 "path"（字符串）；请添加`},
		{name: "a missing argument inside an array element", args: `{"path":"a","edits":[{"old_text":"x"}]}`, kind: MissingRequired, path: "edits[0].new_text",
			en: `missing required argument "edits[0].new_text" (a string); add it`,
			zh: `缺少必需参数 "edits[0].new_text"（字符串）；请添加`},
		{name: "a string for an integer", args: `{"path":"a","head":"abc"}`, kind: WrongType, path: "head",
			en: `"head" must be an integer, got "abc" (a string)`,
			zh: `"head" 必须是整数，收到的是 "abc"（字符串）`},
		{name: "a fraction for an integer", args: `{"path":"a","head":2.5}`, kind: WrongType, path: "head",
			en: `"head" must be an integer, got 2.5 (a number)`,
			zh: `"head" 必须是整数，收到的是 2.5（数字）`},
		{name: "null for a required argument", args: `{"path":null}`, kind: WrongType, path: "path",
			en: `"path" must be a string, got null; send a value or leave it out if optional`,
			zh: `"path" 必须是字符串，收到的是 null；请提供值，可选参数可以省略`},
		{name: "an object for an array", args: `{"path":"a","tags":{"a":1}}`, kind: WrongType, path: "tags",
			en: `"tags" must be an array, got {"a":1} (an object)`,
			zh: `"tags" 必须是数组，收到的是 {"a":1}（对象）`},
		{name: "a value outside the enum", args: `{"path":"a","sort":"date"}`, kind: NotAllowed, path: "sort",
			en: `"sort" must be one of "name", "size"; got "date"`,
			zh: `"sort" 必须是 "name"、"size" 之一；收到的是 "date"`},
		{name: "a number above the maximum", args: `{"path":"a","head":5000}`, kind: OutOfRange, path: "head",
			en: `"head" must be at most 1000, got 5000`,
			zh: `"head" 不能大于 1000，收到的是 5000`},
		{name: "a number below the minimum", args: `{"path":"a","head":-1}`, kind: OutOfRange, path: "head",
			en: `"head" must be at least 0, got -1`,
			zh: `"head" 不能小于 0，收到的是 -1`},
		{name: "a number at the exclusive minimum", args: `{"path":"a","tail":0}`, kind: OutOfRange, path: "tail",
			en: `"tail" must be greater than 0, got 0`,
			zh: `"tail" 必须大于 0，收到的是 0`},
		{name: "a number at the exclusive maximum", args: `{"path":"a","tail":10}`, kind: OutOfRange, path: "tail",
			en: `"tail" must be less than 10, got 10`,
			zh: `"tail" 必须小于 10，收到的是 10`},
		{name: "a number beyond the Go type", args: `{"path":"a","level":256}`, kind: OutOfRange, path: "level",
			en: `"level" must be at most 255, got 256`,
			zh: `"level" 不能大于 255，收到的是 256`},
		{name: "an empty string with minLength 1", args: `{"path":""}`, kind: OutOfRange, path: "path",
			en: `"path" must not be empty`,
			zh: `"path" 不能为空`},
		{name: "a string that is too short", args: `{"path":"a","name":"ab"}`, kind: OutOfRange, path: "name",
			en: `"name" must be at least 3 characters long, got 2`,
			zh: `"name" 至少需要 3 个字符，收到 2 个`},
		{name: "a string that is too long", args: `{"path":"abcdefghijklmnop"}`, kind: OutOfRange, path: "path",
			en: `"path" must be at most 12 characters long, got 16; shorten it`,
			zh: `"path" 最多 12 个字符，收到 16 个；请缩短`},
		{name: "an empty array with minItems 1", args: `{"path":"a","tags":[]}`, kind: OutOfRange, path: "tags",
			en: `"tags" must have at least 1 item, got none`,
			zh: `"tags" 至少需要 1 项，收到的是空数组`},
		{name: "an array with too many items", args: `{"path":"a","tags":["a","b","c"]}`, kind: OutOfRange, path: "tags",
			en: `"tags" must have at most 2 items, got 3`,
			zh: `"tags" 最多 2 项，收到 3 项`},
		{name: "a string that misses the pattern", args: `{"path":"a","version":"x1"}`, kind: OutOfRange, path: "version",
			en: `"version" must match the pattern ^v[0-9]+$, got "x1"`,
			zh: `"version" 必须匹配模式 ^v[0-9]+$，收到的是 "x1"`},
		{name: "a pattern failure hides the class failure", args: `{"path":"a","version":"1.0"}`, kind: OutOfRange, path: "version",
			en: `"version" must match the pattern ^v[0-9]+$, got "1.0"`,
			zh: `"version" 必须匹配模式 ^v[0-9]+$，收到的是 "1.0"`},
		{name: "a backslash in a path", args: `{"path":"dir\\x"}`, kind: OutOfRange, path: "path",
			en: `"path": character '\' at position 4 is not allowed; use '/' between directories`,
			zh: `"path"：第 4 个字符 '\' 不允许；目录之间请用 '/'`},
		{name: "a NUL in a path", args: `{"path":"a\u0000b"}`, kind: OutOfRange, path: "path",
			en: `"path": invisible character U+0000 at position 2 is not allowed; remove it`,
			zh: `"path"：第 2 个字符是不可见字符 U+0000，不允许；请删除`},
		{name: "a bidi override in a path", args: `{"path":"a\u202eb"}`, kind: OutOfRange, path: "path",
			en: `"path": invisible character U+202E at position 2 is not allowed; remove it`,
			zh: `"path"：第 2 个字符是不可见字符 U+202E，不允许；请删除`},
		{name: "a dot in an identifier", args: `{"path":"a","ident":"a.b"}`, kind: OutOfRange, path: "ident",
			en: `"ident": character '.' at position 2 is not allowed; use letters, digits, '_' and '-'`,
			zh: `"ident"：第 2 个字符 '.' 不允许；请只用字母、数字、'_' 和 '-'`},
		{name: "an empty identifier", args: `{"path":"a","ident":""}`, kind: OutOfRange, path: "ident",
			en: `"ident" must not be empty; use letters, digits, '_' and '-'`,
			zh: `"ident" 不能为空；请使用字母、数字、'_' 和 '-'`},
		{name: "an emoji in an identifier counts as one character", args: `{"path":"a","ident":"😀x!"}`, kind: OutOfRange, path: "ident",
			en: `"ident": character '😀' at position 1 is not allowed; use letters, digits, '_' and '-'`,
			zh: `"ident"：第 1 个字符 '😀' 不允许；请只用字母、数字、'_' 和 '-'`},
		{name: "a semicolon in an expression", args: `{"path":"a","expr":"1;2"}`, kind: OutOfRange, path: "expr",
			en: `"expr": character ';' at position 2 is not allowed; use digits, letters, spaces and + - * / % ^ ( ) . , _`,
			zh: `"expr"：第 2 个字符 ';' 不允许；请只用数字、字母、空格和 + - * / % ^ ( ) . , _`},
		{name: "an escape character in text", args: `{"path":"a","text":"red\u001b[0m"}`, kind: OutOfRange, path: "text",
			en: `"text": invisible character U+001B at position 4 is not allowed; remove it`,
			zh: `"text"：第 4 个字符是不可见字符 U+001B，不允许；请删除`},
		{name: "a control character in a nested string", args: `{"path":"a","edits":[{"old_text":"x","new_text":"\u0007"}]}`, kind: OutOfRange, path: "edits[0].new_text",
			en: `"edits[0].new_text": invisible character U+0007 at position 1 is not allowed; remove it`,
			zh: `"edits[0].new_text"：第 1 个字符是不可见字符 U+0007，不允许；请删除`},
		{name: "a map key with a space", args: `{"path":"a","env":{"MY VAR":"1"}}`, kind: OutOfRange, path: "env",
			en: `"env" has key "MY VAR": character ' ' at position 3 is not allowed; use letters, digits, '_' and '-'`,
			zh: `"env" 的键 "MY VAR"：第 3 个字符 ' ' 不允许；请只用字母、数字、'_' 和 '-'`},
		{name: "an unknown argument with a close name", args: `{"path":"a","hed":1}`, kind: UnknownArgument, path: "hed",
			en: `unknown argument "hed"; did you mean "head"?`,
			zh: `未知参数 "hed"；是否应为 "head"？`},
		{name: "an unknown argument in a different case", args: `{"path":"a","HEAD":1}`, kind: UnknownArgument, path: "HEAD",
			en: `unknown argument "HEAD"; did you mean "head"?`,
			zh: `未知参数 "HEAD"；是否应为 "head"？`},
		{name: "an unknown argument among many", args: `{"path":"a","bogus":1}`, kind: UnknownArgument, path: "bogus",
			en: `unknown argument "bogus"; see the input schema for the allowed names`,
			zh: `未知参数 "bogus"；请对照输入 schema 中允许的参数名`},
		{name: "an unknown argument in an array element", args: `{"path":"a","edits":[{"old_text":"x","new_text":"y","mode":1}]}`, kind: UnknownArgument, path: "edits[0].mode",
			en: `unknown argument "edits[0].mode"; allowed: "old_text", "new_text"`,
			zh: `未知参数 "edits[0].mode"；允许的参数："old_text"、"new_text"`},
		{name: "a duplicate key", args: `{"path":"a","path":"b"}`, kind: Other, path: "path",
			en: `argument "path" appears more than once; send it once`,
			zh: `参数 "path" 出现了多次；请只发送一次`},
		{name: "a duplicate key in a nested object", args: `{"path":"a","edits":[{"old_text":"a","new_text":"b"},{"old_text":"a","old_text":"b"}]}`, kind: Other, path: "edits[1].old_text",
			en: `argument "edits[1].old_text" appears more than once; send it once`,
			zh: `参数 "edits[1].old_text" 出现了多次；请只发送一次`},
		{name: "arguments that are an array", args: `[1,2]`, kind: WrongType,
			en: `arguments must be a JSON object, got [1,2] (an array)`,
			zh: `参数必须是 JSON 对象，收到的是 [1,2]（数组）`},
		{name: "arguments that are a string", args: `"path=a"`, kind: WrongType,
			en: `arguments must be a JSON object, got "path=a" (a string)`,
			zh: `参数必须是 JSON 对象，收到的是 "path=a"（字符串）`},
		{name: "arguments that are a number", args: `42`, kind: WrongType,
			en: `arguments must be a JSON object, got 42 (an integer)`,
			zh: `参数必须是 JSON 对象，收到的是 42（整数）`},
		{name: "arguments that are null", args: `null`, kind: WrongType,
			en: `arguments must be a JSON object, got null`,
			zh: `参数必须是 JSON 对象，收到的是 null`},
		{name: "arguments that are not JSON", args: `{path: "a"}`, kind: Other,
			en: `arguments are not valid JSON (error at character 2); send one JSON object`,
			zh: `参数不是有效的 JSON（第 2 个字符处出错）；请发送一个 JSON 对象`},
		{name: "arguments cut short", args: `{"path": "a`, kind: Other,
			en: `arguments end in the middle of a JSON value; send a complete JSON object`,
			zh: `参数在 JSON 值中间结束；请发送完整的 JSON 对象`},
		{name: "arguments followed by more text", args: `{"path":"a"} {"path":"b"}`, kind: Other,
			en: `arguments have extra text after the JSON object (at character 14); send one object`,
			zh: `JSON 对象之后还有多余内容（第 14 个字符）；请只发送一个对象`},
		{name: "arguments that are not UTF-8", args: "{\"path\":\"\xff\"}", kind: Other,
			en: `arguments are not valid UTF-8; send UTF-8 encoded JSON`,
			zh: `参数不是有效的 UTF-8；请发送 UTF-8 编码的 JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Decode([]byte(tt.args), new(kindsIn))
			ps := problemsOf(t, err)
			if len(ps) != 1 {
				t.Fatalf("Decode(%s) gave %d problems: %q", tt.args, len(ps), messages(ps, English))
			}
			p := ps[0]
			if p.Kind != tt.kind || p.Path != tt.path {
				t.Errorf("kind, path = %v, %q; want %v, %q", p.Kind, p.Path, tt.kind, tt.path)
			}
			if got := p.Message(English); got != tt.en {
				t.Errorf("English:\n got  %s\n want %s", got, tt.en)
			}
			if got := p.Message(Chinese); got != tt.zh {
				t.Errorf("Chinese:\n got  %s\n want %s", got, tt.zh)
			}
			if n := utf8.RuneCountInString(tt.en); n > 110 {
				t.Errorf("English message is %d characters long", n)
			}
		})
	}
}

func TestProblemFields(t *testing.T) {
	s := mustSchema[kindsIn](t)
	_, err := s.Decode([]byte(`{"path":"a","sort":"date","head":5000,"ident":"a b"}`), new(kindsIn))
	ps := problemsOf(t, err)
	b, err := json.Marshal(ps)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"kind":"not_allowed","path":"sort","rule":"enum","got":"\"date\"","gotType":"string","allowed":["\"name\"","\"size\""]},` +
		`{"kind":"out_of_range","path":"head","rule":"maximum","got":"5000","gotType":"integer","limit":"1000"},` +
		`{"kind":"out_of_range","path":"ident","rule":"chars","got":"\"a b\"","gotType":"string","char":"' '","position":2,"class":"ident"}]`
	if string(b) != want {
		t.Errorf("problems as JSON:\n got  %s\n want %s", b, want)
	}
}

func TestProblemsAreOrdered(t *testing.T) {
	s := mustSchema[kindsIn](t)
	// One of each kind, sent in reverse order of priority, plus two
	// out-of-range problems whose arguments are declared in the opposite
	// order to the one they are sent in.
	args := `{"zzz":1,"name":"ab","head":5000,"sort":"date","tags":5,"edits":[{"new_text":"y"}]}`
	_, err := s.Decode([]byte(args), new(kindsIn))
	ps := problemsOf(t, err)
	want := []string{
		`missing required argument "path" (a string); add it`,
		`missing required argument "edits[0].old_text" (a string); add it`,
		`"tags" must be an array, got 5 (an integer)`,
		`"sort" must be one of "name", "size"; got "date"`,
		`"head" must be at most 1000, got 5000`,
		`"name" must be at least 3 characters long, got 2`,
		`unknown argument "zzz"; see the input schema for the allowed names`,
	}
	if got := messages(ps, English); !slices.Equal(got, want) {
		t.Errorf("problems in order:\n got  %q\n want %q", got, want)
	}
	kinds := []Kind{MissingRequired, MissingRequired, WrongType, NotAllowed, OutOfRange, OutOfRange, UnknownArgument}
	for i, p := range ps {
		if p.Kind != kinds[i] {
			t.Errorf("problem %d kind = %v, want %v", i, p.Kind, kinds[i])
		}
	}
	t.Run("Text lists the first three and counts the rest", func(t *testing.T) {
		wantText := joinLines(want[0], want[1], want[2], "…and 4 more")
		if got := err.Error(); got != wantText {
			t.Errorf("Error():\n%s\nwant:\n%s", got, wantText)
		}
		wantZh := joinLines(
			`缺少必需参数 "path"（字符串）；请添加`,
			`缺少必需参数 "edits[0].old_text"（字符串）；请添加`,
			`"tags" 必须是数组，收到的是 5（整数）`,
			`……还有 4 个问题`)
		if got := err.(*Errors).Text(Chinese); got != wantZh {
			t.Errorf("Text(Chinese):\n%s\nwant:\n%s", got, wantZh)
		}
	})
	t.Run("array indexes sort as numbers", func(t *testing.T) {
		edits := make([]string, 12)
		for i := range edits {
			edits[i] = `{"old_text":"x"}`
		}
		_, err := s.Decode([]byte(`{"path":"a","edits":[`+strings.Join(edits, ",")+`]}`), new(kindsIn))
		ps := problemsOf(t, err)
		if ps[1].Path != "edits[1].new_text" || ps[10].Path != "edits[10].new_text" {
			t.Errorf("paths out of order: %q", messages(ps, English))
		}
	})
}

func TestTextWithFewProblemsHasNoSummary(t *testing.T) {
	s := mustSchema[kindsIn](t)
	_, err := s.Decode([]byte(`{"head":-1,"tail":0}`), new(kindsIn))
	want := joinLines(
		`missing required argument "path" (a string); add it`,
		`"head" must be at least 0, got -1`,
		`"tail" must be greater than 0, got 0`)
	if got := err.Error(); got != want {
		t.Errorf("Error():\n%s\nwant:\n%s", got, want)
	}
}

func TestTextIsDeterministic(t *testing.T) {
	s := mustSchema[kindsIn](t)
	// Unknown keys and map keys come out of Go maps in random order.
	args := []byte(`{"b1":1,"a2":2,"c3":3,"d4":4,"e5":5,"env":{"a b":"x","c d":"y","e f":"z"},"head":"x","sort":1}`)
	_, err := s.Decode(args, new(kindsIn))
	first := err.(*Errors)
	for range 100 {
		_, err := s.Decode(args, new(kindsIn))
		errs := err.(*Errors)
		if errs.Text(English) != first.Text(English) || errs.Text(Chinese) != first.Text(Chinese) {
			t.Fatalf("text changed between runs:\n%s\n---\n%s", first.Text(English), errs.Text(English))
		}
		if !slices.Equal(messages(errs.Problems, English), messages(first.Problems, English)) {
			t.Fatalf("problems changed between runs")
		}
	}
}

func TestNoNoiseInsideAWrongValue(t *testing.T) {
	s := mustSchema[editIn](t)
	tests := []struct {
		name string
		args string
		want []string
	}{
		{name: "a string instead of an array of objects reports only the type",
			args: `{"path":"a","edits":"replace foo with bar"}`,
			want: []string{`"edits" must be an array, got "replace foo with bar" (a string)`}},
		{name: "a number instead of a nested object reports only the type",
			args: `{"path":"a","edits":[{"old_text":"a","new_text":"b"}],"options":5}`,
			want: []string{`"options" must be an object, got 5 (an integer)`}},
		{name: "an oversized number is reported once",
			args: `{"path":"a","edits":[{"old_text":"a","new_text":"b"}],"limit":1e9999}`,
			want: []string{`"limit" has too many digits or too large an exponent, got 1e9999`}},
		{name: "a value outside an enum is not also out of range",
			args: `{"path":"a","edits":[{"old_text":"a","new_text":"b"}],"mode":"a b"}`,
			want: []string{`"mode" must be one of "replace", "append"; got "a b"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Decode([]byte(tt.args), new(editIn))
			if got := messages(problemsOf(t, err), English); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLongValuesAreShortened(t *testing.T) {
	s := mustSchema[kindsIn](t)
	long := strings.Repeat("x", 100)
	_, err := s.Decode([]byte(`{"path":"a","head":"`+long+`"}`), new(kindsIn))
	want := `"head" must be an integer, got "xxxxxxxxxxxxxxxxxxxxxxx…" (a string)`
	if got := messages(problemsOf(t, err), English); !slices.Equal(got, []string{want}) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnknownArgumentsWithFewNamesAreListed(t *testing.T) {
	type small struct {
		Path string `json:"path" chars:"path"`
		Head int    `json:"head,omitempty"`
		Tail int    `json:"tail,omitempty"`
	}
	type none struct{}
	tests := []struct {
		name   string
		schema *Schema
		args   string
		want   string
	}{
		{name: "a short list is shown", schema: mustSchema[small](t), args: `{"path":"a","bogus":1}`,
			want: `unknown argument "bogus"; allowed: "path", "head", "tail"`},
		{name: "a close name already sent is not suggested", schema: mustSchema[small](t), args: `{"path":"a","pth":1}`,
			want: `unknown argument "pth"; allowed: "path", "head", "tail"`},
		{name: "a tool without arguments says so", schema: mustSchema[none](t), args: `{"x":1}`,
			want: `unknown argument "x"; no arguments are accepted here`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.schema.Decode([]byte(tt.args), reflectNew(tt.schema))
			if got := messages(problemsOf(t, err), English); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKind(t *testing.T) {
	tests := []struct {
		kind Kind
		want string
	}{
		{MissingRequired, "missing_required"},
		{WrongType, "wrong_type"},
		{NotAllowed, "not_allowed"},
		{OutOfRange, "out_of_range"},
		{UnknownArgument, "unknown_argument"},
		{Other, "other"},
	}
	for i, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.kind.String(); got != tt.want {
				t.Errorf("String() = %q", got)
			}
			if b, err := tt.kind.MarshalText(); err != nil || string(b) != tt.want {
				t.Errorf("MarshalText() = %q, %v", b, err)
			}
			if i > 0 && tests[i-1].kind >= tt.kind {
				t.Errorf("%v is not more critical than %v", tests[i-1].kind, tt.kind)
			}
		})
	}
	t.Run("an invalid kind has a name but no JSON", func(t *testing.T) {
		if got := Kind(0).String(); got != "kind(0)" {
			t.Errorf("String() = %q", got)
		}
		if _, err := Kind(42).MarshalText(); err == nil {
			t.Error("MarshalText accepted Kind(42)")
		}
	})
}

func TestHandMadeProblems(t *testing.T) {
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{name: "a problem with a detail reads as the detail", p: Problem{Kind: Other, Detail: "end must not be before start"}, want: "end must not be before start"},
		{name: "a problem without a detail names its path", p: Problem{Kind: Other, Path: "end"}, want: `invalid value for "end"; check the input schema`},
		{name: "a problem without a path names the arguments", p: Problem{Kind: Other}, want: "invalid value for arguments; check the input schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Message(English); got != tt.want {
				t.Errorf("Message = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("empty Errors still say something", func(t *testing.T) {
		if got := (&Errors{}).Error(); got == "" {
			t.Error("Error() is empty")
		}
	})
}
