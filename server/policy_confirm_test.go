package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestConfirmsSaysWhetherConfirmAsks(t *testing.T) {
	type in struct {
		DryRun bool `json:"dry_run,omitempty"`
	}
	type out struct {
		Confirms bool `json:"confirms"`
	}
	tests := []struct {
		name    string
		confirm bool
		args    string
		want    bool
	}{
		{name: "a server that requires confirmations asks for a change", confirm: true, args: `{}`, want: true},
		{name: "it does not ask for a dry run", confirm: true, args: `{"dry_run":true}`},
		{name: "a server that requires none never asks", args: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{ConfirmWrites: tt.confirm})
			err := AddTool(s, ToolSpec{Name: "change", Description: "Changes.", Level: security.Write, DryRun: "dry_run"},
				func(ctx context.Context, c *Call, _ in) (out, error) { return out{Confirms: c.Confirms()}, nil })
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.CallTool(context.Background(), "change", json.RawMessage(tt.args))
			if err != nil || res.IsError {
				t.Fatalf("CallTool: %v %+v", err, res)
			}
			var got out
			if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &got); err != nil {
				t.Fatal(err)
			}
			if got.Confirms != tt.want {
				t.Errorf("Confirms() = %v, want %v", got.Confirms, tt.want)
			}
		})
	}
	if (*Call)(nil).Confirms() {
		t.Error("a nil Call confirms")
	}
}
