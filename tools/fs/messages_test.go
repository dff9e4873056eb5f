package fs

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// leftOver finds a placeholder a message did not fill.
var leftOver = regexp.MustCompile(`\{[1-9]\}`)

func TestEveryMessageHasEnglishAndChinese(t *testing.T) {
	args := []arg{lit(`"a.txt"`), num(2), size(3 << 20), say(msgFile), counted(5, msgLine, msgLines), lit("x"), num(7), num(8), num(9)}
	if err := catalog.Check(numMsgs, msgNone); err != nil {
		t.Error(err)
	}
	for id := msgNone + 1; id < numMsgs; id++ {
		for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
			if out := say(id, args...).In(lang); out == "" || leftOver.MatchString(out) {
				t.Errorf("message %d in %s is empty or leaves a placeholder: %q", id, lang, out)
			}
		}
	}
}

func TestArgumentsAreWrittenInTheMessagesLanguage(t *testing.T) {
	tests := []struct {
		name   string
		a      arg
		en, zh string
	}{
		{name: "one byte", a: size(1), en: "1 byte", zh: "1 字节"},
		{name: "bytes below a KiB", a: size(1023), en: "1023 bytes", zh: "1023 字节"},
		{name: "bytes with their unit", a: size(8 << 20), en: "8388608 bytes (8.0 MiB)", zh: "8388608 字节（8.0 MiB）"},
		{name: "one of a count", a: counted(1, msgFile, msgFiles), en: "1 file", zh: "1 个文件"},
		{name: "none of a count", a: counted(0, msgFile, msgFiles), en: "0 files", zh: "0 个文件"},
		{name: "a kind of special file", a: kind(fs.ModeNamedPipe), en: "a named pipe", zh: "命名管道"},
		{name: "a list", a: list{`"a"`, `"b"`}, en: `"a", "b"`, zh: `"a"、"b"`},
		{name: "sentences", a: sentences{say(msgReadEmpty, lit(`"a"`)), message{}, say(msgDeleteShowing, num(1), num(2))},
			en: `"a" is empty. Showing 1 of the 2 paths.`, zh: `"a" 是空文件。显示了 2 个路径中的 1 个。`},
		{name: "an error of the catalog inside another", a: say(msgWithCause, lit("x"), cause{fail(msgNothingMoved)}),
			en: "x: nothing was moved", zh: "x：未移动任何内容"},
		{name: "another error as it is", a: cause{errors.New("disk on fire")}, en: "disk on fire", zh: "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.In(i18n.English); got != tt.en {
				t.Errorf("in English: %q, want %q", got, tt.en)
			}
			if got := tt.a.In(i18n.Chinese); got != tt.zh {
				t.Errorf("in Chinese: %q, want %q", got, tt.zh)
			}
		})
	}
}

func TestAPlaceholderThatIsNoArgumentStaysAsText(t *testing.T) {
	if got, want := say(msgWildcards, lit("bad")).In(i18n.English), "bad; wildcards are * ? [abc] {a,b} and **"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := say(msgGlobStrayBrace, lit("")).In(i18n.English), "'}' has no '{' before it; write [}] for a literal '}'"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAnErrorKeepsWhatItWraps(t *testing.T) {
	inner := fail(msgSourceChanged)
	err := fail(msgNotMovedAcross, lit(`"a"`), lit(`"b"`), cause{inner})
	if !errors.Is(err, inner) {
		t.Errorf("%v does not wrap %v", err, inner)
	}
	if errors.Unwrap(fail(msgNothingMoved)) != nil {
		t.Error("an error without a cause unwraps to something")
	}
}

// newLangEnv is newEnv with the server and the sandbox speaking lang.
func newLangEnv(t *testing.T, lang i18n.Lang, lim security.Limits) *env {
	t.Helper()
	mem := newMemFs()
	sb := security.NewSandbox(mem, security.SandboxOptions{Lang: lang, Limits: lim})
	srv := server.New(server.Options{Lang: lang, AllowAdmin: true})
	if err := Register(srv, sb); err != nil {
		t.Fatal(err)
	}
	return &env{name: "mem", fs: mem, sb: sb, srv: srv}
}

func TestTheToolsAnswerInTheServersLanguage(t *testing.T) {
	tests := []struct {
		name, tool, args string
		fails            bool
		en, zh           string
	}{
		{name: "editing a missing file", tool: "edit_file", fails: true,
			args: `{"path":"gone.txt","edits":[{"old_text":"a","new_text":"b"}]}`,
			en:   `"gone.txt" does not exist; edit_file changes existing files, and write_file creates new ones`,
			zh:   `"gone.txt" 不存在；edit_file 只修改已有文件，新文件请用 write_file 创建`},
		{name: "editing a file too large to edit", tool: "edit_file", fails: true,
			args: `{"path":"big.txt","edits":[{"old_text":"a","new_text":"b"}]}`,
			en:   `"big.txt" is 2048 bytes (2.0 KiB), more than the 1024 bytes (1.0 KiB) edit_file works on; change it with smaller tools, or replace it whole with write_file`,
			zh:   `"big.txt" 有 2048 字节（2.0 KiB），超过了 edit_file 能处理的 1024 字节（1.0 KiB）；请用其他工具分块修改，或用 write_file 整体替换`},
		{name: "text that occurs twice", tool: "edit_file", fails: true,
			args: `{"path":"a.txt","edits":[{"old_text":"x","new_text":"y"}]}`,
			en:   `edits[0].old_text occurs 2 times in "a.txt" (lines 1 and 2), and must occur once; add surrounding lines to it to make it unique, or set replace_all to replace every one; the file was not changed`,
			zh:   `edits[0].old_text 在 "a.txt" 中出现了 2 次（第 1 和 2 行），但必须只出现一次；请加上前后的行使其唯一，或设置 replace_all 以替换每一处；文件未被修改`},
		{name: "writing over a directory", tool: "write_file", fails: true,
			args: `{"path":"d","content":"x"}`,
			en:   `"d" is a directory, and only files can be written; give a path inside it, such as "d/new.txt"`,
			zh:   `"d" 是目录，只能写入文件；请给出其中的路径，例如 "d/new.txt"`},
		{name: "a malformed pattern", tool: "search_files", fails: true,
			args: `{"path":".","pattern":"a["}`,
			en:   `the pattern "a[" is malformed: '[' at character 2 is never closed by ']'; write [[] for a literal '['; wildcards are * ? [abc] {a,b} and **`,
			zh:   `模式 "a[" 格式错误：'['（第 2 个字符）没有对应的 ']'；字面的 '[' 请写成 [[]；通配符有 * ? [abc] {a,b} 和 **`},
		{name: "a dry run of a write", tool: "write_file",
			args: `{"path":"new.txt","content":"hello","dry_run":true}`,
			en:   `Dry run: write_file would create "new.txt" with 5 bytes. Nothing was written.`,
			zh:   `试运行：write_file 将创建 "new.txt"，内容 5 字节。未写入任何内容。`},
		{name: "a part of a file", tool: "read_file",
			args: `{"path":"a.txt","limit":1}`,
			en:   "x\n\nLine 1 of 2 of a.txt. Call read_file with offset=2 to read on. [version V]",
			zh:   "x\n\na.txt 的第 1 行（共 2 行）。用 offset=2 调用 read_file 可继续读取。[版本 V]"},
		{name: "head with tail", tool: "read_file", fails: true,
			args: `{"path":"a.txt","head":1,"tail":1}`,
			en:   "head and tail cannot be combined; use head for the start of the file, tail for its end, or offset and limit for lines in between",
			zh:   "head 和 tail 不能同时使用；读开头用 head，读结尾用 tail，读中间的行用 offset 和 limit"},
		{name: "an empty directory", tool: "list_directory",
			args: `{"path":"d"}`,
			en:   `"d" is empty.` + "\n",
			zh:   `"d" 是空目录。` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
				e := newLangEnv(t, lang, security.Limits{MaxReadBytes: 1024, MaxEditBytes: 1024})
				e.writeAll(t, map[string]string{"a.txt": "x\nx\n", "big.txt": strings.Repeat("a", 2048)})
				e.mkdir(t, "d")
				res := e.call(t, tt.tool, tt.args)
				if res.IsError != tt.fails {
					t.Fatalf("in %s: %s(%s) IsError = %v: %s", lang, tt.tool, tt.args, res.IsError, text(res))
				}
				want := i18n.Pick(lang, tt.en, tt.zh)
				if got := anyVersion(text(res)); got != want {
					t.Errorf("in %s:\n got: %s\nwant: %s", lang, got, want)
				}
			}
		})
	}
}

func TestAConfirmationIsAskedInTheServersLanguage(t *testing.T) {
	e := newLangEnv(t, i18n.Chinese, security.Limits{})
	e.write(t, "a.txt", "abc")
	s := newSessionWith(t, e, server.Options{AllowAdmin: true, ConfirmWrites: true, Lang: i18n.Chinese})
	s.answer = "decline"
	_, isErr, asked := s.callTool("delete_file", `{"path":"a.txt"}`)
	if want := `即将删除文件 "a.txt"（3 字节）。此操作无法撤销。`; !isErr || len(asked) != 1 || asked[0] != want {
		t.Errorf("asked %q (error %v), want %q", asked, isErr, want)
	}
}

func TestTheLanguageIsNoPartOfTheResultsJSON(t *testing.T) {
	e := newLangEnv(t, i18n.Chinese, security.Limits{})
	e.write(t, "a.txt", "abc")
	res := e.ok(t, "write_file", `{"path":"a.txt","content":"abcd","dry_run":true}`)
	if s := fmt.Sprint(object(t, res)); strings.Contains(s, "lang") || strings.Contains(s, "zh") {
		t.Errorf("the structured content holds the language: %s", s)
	}
}

func TestEveryReasonAnEntryIsSkippedForHasWords(t *testing.T) {
	reasons := []string{"too_deep", "too_many_directories"}
	for r := security.Reason(0); ; r++ {
		name := r.String()
		if name == "other" && r > 0 {
			break
		}
		reasons = append(reasons, name)
	}
	for _, reason := range reasons {
		p, ok := reasonPhrase(reason).(message)
		if !ok {
			t.Errorf("reason %s has no catalog entry", reason)
			continue
		}
		if got, want := p.In(i18n.English), strings.ReplaceAll(reason, "_", " "); got != want {
			t.Errorf("reason %s in English is %q, want %q", reason, got, want)
		}
	}
}

func TestARegexpErrorIsInTheServersLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.English, `query "a(b" is not a valid regular expression: missing closing ) in "a(b"; fix it (RE2 syntax), or leave regex out to search for the text as it is`},
		{i18n.Chinese, `query "a(b" 不是有效的正则表达式："a(b" 处出错（缺少右括号 )）；请按 RE2 语法修正，或去掉 regex 按原文搜索`},
	} {
		e := newLangEnv(t, tt.lang, security.Limits{})
		if got := e.fail(t, "grep", `{"path":".","query":"a(b","regex":true}`); got != tt.want {
			t.Errorf("in %s:\n got: %s\nwant: %s", tt.lang, got, tt.want)
		}
	}
}

// BenchmarkMessage writes out one error of edit_file as the catalog does,
// in each language, beside the fmt.Sprintf it replaced (whose sizes come
// from byteSize, the catalog's English now, so that only the filling of
// the sentence differs).
func BenchmarkMessage(b *testing.B) {
	m := say(msgTooLargeToChange, lit(`"notes/big.txt"`), size(9<<20), size(8<<20), lit("edit_file"))
	for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
		b.Run("catalog "+string(lang), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.In(lang)
			}
		})
	}
	b.Run("fmt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = fmt.Sprintf("%s is %s, more than the %s %s works on; change it with smaller tools, or replace it whole with write_file",
				`"notes/big.txt"`, byteSize(9<<20), byteSize(8<<20), "edit_file")
		}
	})
}
