package calc

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/server"
)

var placeholderRE = regexp.MustCompile(`\{[0-9]\}`)

func TestEveryMessageHasEnglishAndChinese(t *testing.T) {
	args := []arg{lit(`"x"`), num(2), say(msgEnd), num(4)}
	if err := catalog.Check(numMsgs, msgNone); err != nil {
		t.Error(err)
	}
	for id := msgNone + 1; id < numMsgs; id++ {
		en := placeholderRE.FindAllString(catalog.Text(i18n.English, id), -1)
		slices.Sort(en)
		en = slices.Compact(en)
		for i, p := range en {
			if want := "{" + string(rune('1'+i)) + "}"; p != want {
				t.Errorf("message %d: placeholders %v skip %s", id, en, want)
				break
			}
		}
		m := say(id, args[:len(en)]...)
		for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
			if out := m.In(lang); strings.ContainsAny(out, "{}\n") {
				t.Errorf("message %d in %s leaves a placeholder: %q", id, lang, out)
			}
		}
	}
}

func TestTheHintsNameEveryFunction(t *testing.T) {
	for _, name := range []string{"sqrt", "abs", "floor", "ceil", "round", "min", "max"} {
		if _, _, ok := arity(name); !ok {
			t.Fatalf("%s is not a function", name)
		}
		for _, id := range []msgID{msgHintAllowed, msgHintKnownNames} {
			if !strings.Contains(catalog.Text(i18n.English, id), name) || !strings.Contains(catalog.Text(i18n.Chinese, id), name) {
				t.Errorf("message %d does not name %s in both languages", id, name)
			}
		}
	}
}

func TestErrorsInChinese(t *testing.T) {
	tests := []struct {
		name, expr string
		precision  int
		want       string
	}{
		{name: "division by zero", expr: "1/0",
			want: `除以零，位于 "1/0" 的第 3 列`},
		{name: "a precision over the maximum", expr: "1", precision: 1001,
			want: `精度 1001 超过了 1000 位有效数字的上限`},
		{name: "an empty expression", expr: " ",
			want: `表达式为空；请给出算术表达式，例如 1+2`},
		{name: "a typeset multiplication sign", expr: "3 × 4",
			want: `意外的字符 '×'，位于 "3 × 4" 的第 3 列；乘法请用 *`},
		{name: "a name in the wrong case", expr: "PI",
			want: `未知名称 "PI"，位于 "PI" 的第 1 列；是否应为 "pi"？名称区分大小写`},
		{name: "an unknown function", expr: "sin(1)",
			want: `未知名称 "sin"，位于 "sin(1)" 的第 1 列；已知函数：sqrt、abs、floor、ceil、round、min、max；已知常数：pi、e`},
		{name: "a missing operator", expr: "2pi",
			want: `数字 2 之后应为运算符，实际是名称 "pi"，位于 "2pi" 的第 2 列；相乘请用 *`},
		{name: "an operator at the end", expr: "1+",
			want: `符号 '+' 之后应为数字，实际是表达式结尾，位于 "1+" 的第 3 列`},
		{name: "a function without parentheses", expr: "sqrt 4",
			want: `函数名 sqrt 之后应为 '('，实际是数字 4，位于 "sqrt 4" 的第 6 列；请写成 sqrt(x)`},
		{name: "too many arguments", expr: "round(1,2,3)",
			want: `round 需要 1 或 2 个参数，实际收到 3 个，位于 "round(1,2,3)" 的第 1 列`},
		{name: "an unclosed parenthesis", expr: "2*(3+(4)",
			want: `此处的 '(' 没有匹配的 ')'，位于 "2*(3+(4)" 的第 3 列；请补上 ')'`},
		{name: "an exponent without digits", expr: "2e",
			want: `数字 "2e" 的指数标记 'e' 之后没有数字，位于 "2e" 的第 1 列；指数请用数字书写，例如 1e3；要乘以常数 e 请用 *`},
		{name: "an even root of a negative number", expr: "(-8)^0.5",
			want: `负数的 0.5 次幂没有实数值，位于 "(-8)^0.5" 的第 5 列；底数为负时，指数的分母必须是奇数，例如 (-8)^(1/3)`},
		{name: "a divisor indistinguishable from zero", expr: "1/(sqrt(2)^2-2)",
			want: `除数太接近零，无法与零区分，位于 "1/(sqrt(2)^2-2)" 的第 2 列；除数很可能恰好是 0`},
		{name: "a result over the digit limit", expr: "9^9^9^9",
			want: `结果将超过 10000 位数字，位于 "9^9^9^9" 的第 4 列`},
		{name: "a long expression is shortened as in English", expr: strings.Repeat("(", 65) + "1" + strings.Repeat(")", 65),
			want: `表达式的嵌套超过了 64 层，位于 "…(((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))…" 的第 65 列；请简化表达式`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Eval(tt.expr, tt.precision, Limits{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Eval(%q) = %v, want an *Error", tt.expr, err)
			}
			english := e.Error()
			e.Lang = i18n.Chinese
			if got := e.Error(); got != tt.want {
				t.Errorf("in Chinese\n got: %s\nwant: %s", got, tt.want)
			}
			e.Lang = "fr"
			if got := e.Error(); got != english {
				t.Errorf("an unknown language reads %q, want the English %q", got, english)
			}
		})
	}
}

func TestAnErrorBuiltByHandReadsAsItsFields(t *testing.T) {
	e := &Error{Msg: "bad", Column: 2, Expr: "1?", Hint: "fix it", Lang: i18n.Chinese}
	if got, want := e.Error(), `bad，位于 "1?" 的第 2 列；fix it`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	e.Lang = ""
	if got, want := e.Error(), `bad at column 2 in "1?"; fix it`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestTheToolAnswersInTheServersLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.English, `division by zero at column 3 in "1/0"`},
		{i18n.Chinese, `除以零，位于 "1/0" 的第 3 列`},
	} {
		srv := server.New(server.Options{Lang: tt.lang})
		if err := Register(srv); err != nil {
			t.Fatal(err)
		}
		res, err := srv.CallTool(context.Background(), "calc", json.RawMessage(`{"expr":"1/0"}`))
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || len(res.Content) == 0 || res.Content[0].Text() != tt.want {
			t.Errorf("with --lang %s: got %+v, want the error %q", tt.lang, res, tt.want)
		}
	}
}
