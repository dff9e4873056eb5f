package i18n_test

import (
	"fmt"

	"github.com/stdiotools/toolserver/i18n"
)

func ExampleParse() {
	for _, tag := range []string{"en-US", "zh_CN", "fr"} {
		lang, err := i18n.Parse(tag)
		fmt.Println(lang, err)
	}
	fmt.Println(i18n.Pick(i18n.Chinese, "file not found", "文件不存在"))
	// Output:
	// en <nil>
	// zh <nil>
	// en unsupported language "fr"; use "en" or "zh"
	// 文件不存在
}

type msgID uint8

const (
	msgNone msgID = iota
	msgGone
	msgTooBig
	numMsgs
)

func ExampleCatalog() {
	catalog := i18n.Catalog[msgID]{
		msgGone:   {"{1} does not exist", "{1} 不存在"},
		msgTooBig: {"{1} is {2} bytes, more than {3}", "{1} 有 {2} 字节，超过了 {3}"},
	}
	// A test holds every entry to both languages.
	fmt.Println(catalog.Check(numMsgs, msgNone))

	fmt.Println(catalog.Say(i18n.English, msgGone, `"a.txt"`))
	fmt.Println(catalog.Say(i18n.Chinese, msgTooBig, `"b.txt"`, "9", "8"))

	// A Message is written out when it is read, in the reader's language.
	m := catalog.Message(msgGone, catalog.Message(msgTooBig, name("c"), name("2"), name("1")))
	fmt.Println(m.In(i18n.Chinese))
	// Output:
	// <nil>
	// "a.txt" does not exist
	// "b.txt" 有 9 字节，超过了 8
	// c 有 2 字节，超过了 1 不存在
}

// name is an argument shown as it is in every language.
type name string

func (n name) In(i18n.Lang) string { return string(n) }
