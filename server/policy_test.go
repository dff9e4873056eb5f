package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// TestPoliciesApplyToEveryCall checks that Options.Policies run, in
// order, around calls over the protocol and through CallTool alike, and
// that a policy can refuse a call without running the tool.
func TestPoliciesApplyToEveryCall(t *testing.T) {
	var order []string
	mark := func(name string) server.Policy {
		return func(next server.ToolHandler) server.ToolHandler {
			return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
				order = append(order, name)
				if name == "deny" && strings.Contains(string(call.Arguments()), "Eve") {
					return nil, errors.New("Eve may not be greeted")
				}
				return next(ctx, call)
			}
		}
	}
	runs := 0
	srv := server.New(server.Options{Policies: []server.Policy{mark("outer"), mark("deny")}})
	if err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			runs++
			return Greeting{Text: "hi " + in.Name}, nil
		}); err != nil {
		t.Fatal(err)
	}
	res, err := srv.CallTool(context.Background(), "greet", []byte(`{"name":"Eve"}`))
	if err != nil || !res.IsError || res.Content[0].Text() != "Eve may not be greeted" || runs != 0 {
		t.Fatalf("CallTool: %+v %v (runs %d)", res, err, runs)
	}
	c := servertest.Start(t, srv)
	if r := c.CallTool("greet", map[string]any{"name": "Eve"}); !r.IsError || r.Text() != "Eve may not be greeted" || runs != 0 {
		t.Fatalf("tools/call: %+v (runs %d)", r, runs)
	}
	if r := c.CallTool("greet", map[string]any{"name": "Ada"}); r.IsError || runs != 1 {
		t.Fatalf("tools/call: %+v (runs %d)", r, runs)
	}
	if got := strings.Join(order, ","); got != "outer,deny,outer,deny,outer,deny" {
		t.Fatalf("policies ran in the order %s", got)
	}
}
