package calc

import (
	"context"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Args are the arguments of the calc tool.
type Args struct {
	Expr      string `json:"expr" chars:"expr" minLength:"1" maxLength:"4096" description:"Such as (1+2)*3/7 or sqrt(2)^2: + - * / % ^ (or **), parentheses, 1.5e3, sqrt abs floor ceil round min max, pi, e."`
	Precision int    `json:"precision" default:"30" minimum:"1" maximum:"1000" description:"Significant digits of an answer that is not exact."`
}

// Result is what the calc tool returns.
type Result struct {
	Value     string `json:"value" description:"The result in decimal, every digit when exact."`
	Exact     bool   `json:"exact" description:"False when value was rounded to precision significant digits."`
	Precision int    `json:"precision,omitempty" description:"The significant digits value was rounded to; absent when exact."`
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
		Description: "Evaluates arithmetic exactly, in rationals rather than floating point (0.1+0.2 is 0.3). " +
			"Use it for any arithmetic instead of working it out yourself. Returns value, and exact=false when rounded to precision digits; errors give the column.",
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
