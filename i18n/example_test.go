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
