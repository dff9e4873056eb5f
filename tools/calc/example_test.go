package calc_test

import (
	"fmt"

	"github.com/stdiotools/toolserver/tools/calc"
)

func ExampleEval() {
	for _, expr := range []string{"0.1+0.2", "4535/2228", "2^100", "1/0"} {
		v, err := calc.Eval(expr, 12, calc.Limits{})
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(v.Text, v.Exact)
	}
	// Output:
	// 0.3 true
	// 2.03545780969 false
	// 1267650600228229401496703205376 true
	// division by zero at column 3 in "1/0"
}
