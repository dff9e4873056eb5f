package topk_test

import (
	"fmt"
	"strings"

	"github.com/stdiotools/toolserver/internal/topk"
)

func Example() {
	first := topk.New(3, strings.Compare)
	for _, name := range strings.Fields("pear fig apple kiwi banana cherry date") {
		first.Add(name)
	}
	fmt.Println(first.Sorted())
	// Output: [apple banana cherry]
}
