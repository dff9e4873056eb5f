package main

import (
	"testing"

	"github.com/stdiotools/toolserver/i18n"
)

func TestEveryAgentMessageHasEnglishAndChinese(t *testing.T) {
	if err := catalog.Check(numMsgs); err != nil {
		t.Error(err)
	}
}

func TestTheAgentSpeaksItsLanguage(t *testing.T) {
	tests := []struct {
		lang i18n.Lang
		id   msgID
		args []string
		want string
	}{
		{i18n.English, msgBadJSON, []string{"2", "read_file", "17"}, "Your call 2 (read_file) did not run: its arguments are not valid JSON (at byte 17)."},
		{i18n.Chinese, msgBadJSON, []string{"2", "read_file", "17"}, "你的第 2 个调用（read_file）未执行：参数不是有效的 JSON（第 17 字节处）。"},
		{i18n.English, msgSoFar, []string{`{"path":"{1}"`}, ` Its arguments so far were: {"path":"{1}"`},
		{i18n.Chinese, msgErrorPrefix, nil, "错误："},
	}
	for _, tt := range tests {
		a := &agent{lang: tt.lang}
		if got := a.msg(tt.id, tt.args...); got != tt.want {
			t.Errorf("msg(%d) in %s = %q, want %q", tt.id, tt.lang, got, tt.want)
		}
	}
}
