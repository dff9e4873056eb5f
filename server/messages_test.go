package server

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

func TestEveryServerMessageHasEnglishAndChinese(t *testing.T) {
	leftOver := regexp.MustCompile(`\{[1-9]\}`)
	if err := catalog.Check(numMsgs); err != nil {
		t.Error(err)
	}
	for id := msgID(0); id < numMsgs; id++ {
		for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
			if out := say(lang, id, "read_file", "2", "3"); leftOver.MatchString(out) {
				t.Errorf("message %d in %s leaves a placeholder: %q", id, lang, out)
			}
		}
	}
}

func TestAnArgumentHoldingAPlaceholderStaysAsItIs(t *testing.T) {
	if got, want := say(i18n.English, msgLoop, "{2}", "3"), "You have called {2} with the same arguments 3 times in a row; the result will not change. Use the answer you have, or change the arguments."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTheServersOwnSentencesAreInItsLanguage(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		handle func(ctx context.Context, c *Call) (*CallToolResult, error)
		en, zh string
	}{
		{name: "a timeout", opts: Options{ToolTimeout: 20 * time.Millisecond},
			handle: func(ctx context.Context, c *Call) (*CallToolResult, error) { <-ctx.Done(); return nil, ctx.Err() },
			en:     "The call to slow did not finish within 20ms and was stopped; nothing more will come of it. Try a smaller request, such as a narrower path or fewer files.",
			zh:     "对 slow 的调用未能在 20ms 内完成，已被停止，不会再有结果。请缩小请求，例如用更具体的路径或更少的文件。"},
		{name: "an internal error", handle: func(context.Context, *Call) (*CallToolResult, error) {
			return nil, Internal(context.Canceled)
		},
			en: "The tool slow failed with an internal error; the details are in the server log.",
			zh: "工具 slow 因内部错误而失败；详情见服务器日志。"},
		{name: "no result", handle: func(context.Context, *Call) (*CallToolResult, error) { return nil, nil },
			en: "The tool slow returned no result; this is a bug in the tool.",
			zh: "工具 slow 没有返回结果；这是工具的缺陷。"},
		{name: "a panic", handle: func(context.Context, *Call) (*CallToolResult, error) { panic("boom") },
			en: "The tool slow failed with an internal error; the details are in the server log. Try again, or use another way.",
			zh: "工具 slow 因内部错误而失败；详情见服务器日志。请重试，或换一种方式。"},
		{name: "a confirmation outside a session", opts: Options{ConfirmWrites: true},
			handle: func(ctx context.Context, c *Call) (*CallToolResult, error) { return nil, c.Confirm(ctx, "Delete it.") },
			en:     "This server asks the user to confirm every change, and outside a session there is nobody to ask; nothing was changed.",
			zh:     "本服务器要求用户确认每项修改，而在会话之外无人可问；未做任何修改。"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
				opts := tt.opts
				opts.Lang = lang
				srv := New(opts)
				tl := &tool{spec: ToolSpec{Name: "slow", Description: "Fails."}, handler: tt.handle}
				tl.info.InputSchema = json.RawMessage(`{"type":"object"}`)
				if err := srv.tools.add(tl); err != nil {
					t.Fatal(err)
				}
				res, err := srv.CallTool(context.Background(), "slow", json.RawMessage(`{}`))
				if err != nil {
					t.Fatal(err)
				}
				want := i18n.Pick(lang, tt.en, tt.zh)
				if got := res.Content[0].Text(); !res.IsError || got != want {
					t.Errorf("in %s:\n got: %s (error %v)\nwant: %s", lang, got, res.IsError, want)
				}
				if strings.Contains(want, "{") {
					t.Errorf("a placeholder is left: %s", want)
				}
			}
		})
	}
}
