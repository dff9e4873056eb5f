package i18n

import (
	"strings"
	"testing"
)

func TestCheckHoldsAnEntryToBothLanguages(t *testing.T) {
	tests := []struct {
		name, en, zh string
		wantErr      string // a part of the error; empty for none
	}{
		{name: "a translated sentence passes", en: "{path} does not exist", zh: "{path} 不存在"},
		{name: "placeholders may move and repeat", en: "{1} at column {2} in {3}", zh: "{1}，位于 {3} 的第 {2} 列，{2}"},
		{name: "a joiner of punctuation may stay as it is", en: "{1} ({2})", zh: "{1} ({2})"},
		{name: "braces that are no placeholder are text", en: `use \u{…} escapes`, zh: `请使用 \u{…} 转义`},
		{name: "a missing English text fails", en: "", zh: "文件", wantErr: "both are needed"},
		{name: "a missing Chinese text fails", en: "file", zh: "", wantErr: "both are needed"},
		{name: "an untranslated text fails", en: "file {1}", zh: "file {1}", wantErr: "not translated"},
		{name: "a Chinese text in ASCII fails", en: "file {1}", zh: "wenjian {1}", wantErr: "no Chinese character"},
		{name: "a lost placeholder fails", en: "{1} is {2} bytes", zh: "{1} 太大", wantErr: "placeholders"},
		{name: "an added placeholder fails", en: "{1} is too big", zh: "{1} 有 {2} 字节", wantErr: "placeholders"},
		{name: "a renamed placeholder fails", en: "{path} is gone", zh: "{name} 不存在", wantErr: "placeholders"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.en, tt.zh)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Check(%q, %q) = %v, want nil", tt.en, tt.zh, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Check(%q, %q) = %v, want an error saying %q", tt.en, tt.zh, err, tt.wantErr)
			}
		})
	}
}

func FuzzCheck(f *testing.F) {
	for _, seed := range [][2]string{
		{"{path} does not exist", "{path} 不存在"},
		{"{1} ({2})", "{1}（{2}）"},
		{`\u{X} escapes`, `\u{X} 转义`},
		{"{", "{{1}"},
		{"{1", "}{1}{"},
		{"", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, en, zh string) {
		err := Check(en, zh)
		// The same text in both languages passes only when it has no
		// letter of its own: punctuation and placeholders.
		own, _ := splitPlaceholders(en)
		if same := Check(en, en); (same == nil) != (en != "" && !strings.ContainsFunc(own, isLetter)) {
			t.Errorf("Check(%q, %q) = %v", en, en, same)
		}
		// What passes has the same placeholders in both texts.
		_, enHoles := splitPlaceholders(en)
		_, zhHoles := splitPlaceholders(zh)
		if err == nil && !sameSet(enHoles, zhHoles) {
			t.Errorf("Check(%q, %q) passed with the placeholders %v and %v", en, zh, enHoles, zhHoles)
		}
	})
}
