package i18n

import (
	"strconv"
	"strings"
	"testing"
)

type testID int8

const (
	tNone testID = iota
	tGone
	tSize
	tPair
	tSep
	numT
)

var testCatalog = Catalog[testID]{
	tGone: {"{1} does not exist", "{1} 不存在"},
	tSize: {"{1} is {2}", "{1} 有 {2}"},
	tPair: {"{2} then {1}", "先 {1} 后 {2}"},
	tSep:  {", ", "、"},
}

// bytes is an argument whose words depend on the language.
type bytes int

func (n bytes) In(lang Lang) string { return strconv.Itoa(int(n)) + Pick(lang, " bytes", " 字节") }

// lit is an argument shown as it is.
type lit string

func (s lit) In(Lang) string { return string(s) }

func TestTextIsTheEntryInTheLanguageAsked(t *testing.T) {
	tests := []struct {
		name string
		lang Lang
		id   testID
		want string
	}{
		{name: "English", lang: English, id: tGone, want: "{1} does not exist"},
		{name: "Chinese", lang: Chinese, id: tGone, want: "{1} 不存在"},
		{name: "an unknown language is English", lang: "fr", id: tSize, want: "{1} is {2}"},
		{name: "the empty language is English", lang: "", id: tSep, want: ", "},
		{name: "the last entry", lang: Chinese, id: tSep, want: "、"},
		{name: "an id past the end is empty", lang: English, id: numT, want: ""},
		{name: "a negative id is empty", lang: English, id: -1, want: ""},
		{name: "an empty entry is empty", lang: Chinese, id: tNone, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testCatalog.Text(tt.lang, tt.id); got != tt.want {
				t.Errorf("Text(%q, %d) = %q, want %q", tt.lang, tt.id, got, tt.want)
			}
		})
	}
}

func TestSayFillsTheArgumentsInTheirLanguagesOrder(t *testing.T) {
	tests := []struct {
		lang Lang
		id   testID
		args []string
		want string
	}{
		{English, tPair, []string{"a", "b"}, "b then a"},
		{Chinese, tPair, []string{"a", "b"}, "先 a 后 b"},
		{English, tGone, []string{`"{2}"`, "x"}, `"{2}" does not exist`},
		{English, tSize, []string{"a"}, "a is {2}"},
		{English, tSep, nil, ", "},
		{Chinese, numT, []string{"a"}, ""},
	}
	for _, tt := range tests {
		if got := testCatalog.Say(tt.lang, tt.id, tt.args...); got != tt.want {
			t.Errorf("Say(%q, %d, %q) = %q, want %q", tt.lang, tt.id, tt.args, got, tt.want)
		}
	}
}

func TestAMessageIsWrittenOutInTheLanguageItIsRead(t *testing.T) {
	inner := testCatalog.Message(tGone, lit(`"a.txt"`))
	m := testCatalog.Message(tSize, inner, bytes(3))
	if got, want := m.In(English), `"a.txt" does not exist is 3 bytes`; got != want {
		t.Errorf("in English: %q, want %q", got, want)
	}
	if got, want := m.In(Chinese), `"a.txt" 不存在 有 3 字节`; got != want {
		t.Errorf("in Chinese: %q, want %q", got, want)
	}
	if args := m.Args(); len(args) != 2 || args[1] != bytes(3) {
		t.Errorf("Args() = %v, want the two arguments given", args)
	}
	if m.IsZero() {
		t.Error("a message with a text is zero")
	}
}

func TestAMessageWithoutATextIsZero(t *testing.T) {
	for _, tt := range []struct {
		name string
		m    Message
	}{
		{"the zero Message", Message{}},
		{"an empty entry", testCatalog.Message(tNone, lit("x"))},
		{"an id past the end", testCatalog.Message(numT)},
		{"a negative id", testCatalog.Message(-1)},
	} {
		if !tt.m.IsZero() || tt.m.In(English) != "" || tt.m.In(Chinese) != "" || tt.m.Args() != nil {
			t.Errorf("%s: IsZero %v, %q, %q, %v", tt.name, tt.m.IsZero(), tt.m.In(English), tt.m.In(Chinese), tt.m.Args())
		}
	}
	// An entry with only one language is still a message.
	one := Catalog[testID]{tGone: {Zh: "不存在"}}
	if m := one.Message(tGone); m.IsZero() || m.In(Chinese) != "不存在" || m.In(English) != "" {
		t.Errorf("an entry in Chinese only: IsZero %v, %q, %q", m.IsZero(), m.In(Chinese), m.In(English))
	}
	if m := (Catalog[testID]{tGone: {En: "gone"}}).Message(tGone); m.IsZero() || m.In(English) != "gone" {
		t.Errorf("an entry in English only: IsZero %v, %q", m.IsZero(), m.In(English))
	}
}

func TestCheckReportsEveryEntryThatFails(t *testing.T) {
	tests := []struct {
		name   string
		c      Catalog[testID]
		end    testID
		except []testID
		want   []string // parts of the error, in order; none for nil
	}{
		{name: "a complete catalog passes", c: testCatalog, end: numT, except: []testID{tNone}},
		{name: "the catalog's first entry is checked", c: testCatalog, end: numT,
			want: []string{"message 0: ", "both are needed"}},
		{name: "an untranslated entry fails", c: Catalog[testID]{tGone: {"gone", "gone"}}, end: tSize, except: []testID{tNone},
			want: []string{"message 1: ", "not translated"}},
		{name: "each failing entry is named", c: Catalog[testID]{tGone: {"gone {1}", "不存在"}, tSize: {"big", ""}}, end: tPair, except: []testID{tNone},
			want: []string{"message 1: ", "placeholders", "\nmessage 2: ", "both are needed"}},
		{name: "an id the catalog does not reach is missing", c: Catalog[testID]{tGone: {"gone", "不存在"}}, end: tPair, except: []testID{tNone},
			want: []string{"message 2 is missing"}},
		{name: "the last id below the end is checked", c: testCatalog[:tSep], end: numT, except: []testID{tNone},
			want: []string{"message 4 is missing"}},
		{name: "several ids may be excepted", c: Catalog[testID]{tSize: {"x", "x"}, tPair: {"y", "y"}, tSep: {"{1}", "{1}"}}, end: numT, except: []testID{tNone, tGone, tSize, tPair}},
		{name: "an entry without an id fails", c: testCatalog, end: tSep, except: []testID{tNone},
			want: []string{"holds 5 entries, more than the 4 ids below 4"}},
		{name: "an empty catalog of no ids passes", c: nil, end: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Check(tt.end, tt.except...)
			if len(tt.want) == 0 {
				if err != nil {
					t.Errorf("Check = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Check = nil, want an error saying %q", tt.want)
			}
			rest := err.Error()
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Check = %q, want %q in this order", err, tt.want)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// BenchmarkCatalogText backs the claim of Catalog's doc: looking a text
// up allocates nothing.
func BenchmarkCatalogText(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = testCatalog.Text(Chinese, tPair)
	}
}

func BenchmarkCatalogSay(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = testCatalog.Say(Chinese, tPair, `"notes/big.txt"`, "8388608")
	}
}

func BenchmarkMessageIn(b *testing.B) {
	m := testCatalog.Message(tSize, lit(`"notes/big.txt"`), bytes(8<<20))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.In(Chinese)
	}
}
