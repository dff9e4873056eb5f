package calc

import (
	"context"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Args are the arguments of the calc tool.
type Args struct {
	Expr      string `json:"expr" chars:"expr" minLength:"1" maxLength:"4096" description:"The arithmetic expression, e.g. (1+2)*3/7 or sqrt(2)^2. Operators + - * / % ^ (or **), parentheses, decimals, scientific notation (1.5e3); functions sqrt abs floor ceil round min max; constants pi and e."`
	Precision int    `json:"precision" default:"30" minimum:"1" maximum:"1000" description:"Significant digits of the answer when it cannot be written exactly (a repeating decimal, an irrational number)."`
}

// Result is what the calc tool returns.
type Result struct {
	Value     string `json:"value" description:"The result in decimal. Every digit is shown when exact is true."`
	Exact     bool   `json:"exact" description:"True when value is exactly the result; false when it was rounded to precision significant digits."`
	Precision int    `json:"precision,omitempty" description:"The number of significant digits value was rounded to; absent when exact."`
}

// Register adds the calc tool to s, with the default limits.
func Register(s *server.Server) error {
	return RegisterWith(s, Limits{})
}

// RegisterWith adds the calc tool to s with the given limits.
func RegisterWith(s *server.Server, lim Limits) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "calc",
		Schemas: savedSchemas("calc"),
		Title:   "Exact calculator",
		Description: "Evaluates an arithmetic expression exactly, with rational arithmetic instead of floating point: " +
			"0.1+0.2 is 0.3 and big integers keep every digit. Use it for any arithmetic instead of computing in your head. " +
			"Results that cannot be written exactly are rounded to precision significant digits and marked exact=false. " +
			"Division by zero and syntax errors are reported with the column.",
		Level: security.Read,
	}, func(ctx context.Context, call *server.Call, in Args) (Result, error) {
		v, err := eval(in.Expr, in.Precision, lim)
		if err != nil {
			err.Lang = call.Lang()
			return Result{}, err
		}
		return Result{Value: v.Text, Exact: v.Exact, Precision: v.Precision}, nil
	})
}
