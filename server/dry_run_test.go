package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

type putArgs struct {
	Name   string `json:"name" description:"What to write."`
	DryRun bool   `json:"dry_run,omitempty" description:"Only say what would be written."`
}

// dryRunServer serves put, a write tool whose dry_run argument is its
// ToolSpec.DryRun, on a server that confirms writes. put asks for
// confirmation on every call, a dry run too, so that only the server
// keeps a dry run from being confirmed.
func dryRunServer(t *testing.T) *servertest.Client {
	t.Helper()
	srv := server.New(server.Options{ConfirmWrites: true})
	err := server.AddTool(srv, server.ToolSpec{Name: "put", Description: "d", Level: security.Write, DryRun: "dry_run"},
		func(ctx context.Context, call *server.Call, in putArgs) (Greeting, error) {
			if err := call.Confirm(ctx, "Write "+in.Name+"?"); err != nil {
				return Greeting{}, err
			}
			if call.DryRun() {
				return Greeting{Text: "would write " + in.Name}, nil
			}
			return Greeting{Text: "wrote " + in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return servertest.Connect(t, srv)
}

// TestADryRunIsNeverSentForConfirmation: to a client that declared
// elicitation, a call with its dry-run argument true is answered without
// an elicitation/create, while the same call without it, or with it
// false, asks the user first.
func TestADryRunIsNeverSentForConfirmation(t *testing.T) {
	c := dryRunServer(t)
	c.Initialize(`{"elicitation":{}}`)
	put := func(id, args string) {
		c.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"put","arguments":` + args + `}}`)
	}
	answered := func(id, want string) {
		t.Helper()
		if got := c.Recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+id+`,"result":`) || !strings.Contains(got, want) {
			t.Fatalf("want the answer to %s with %q, got %s", id, want, got)
		}
	}
	asked := func(answer string) {
		t.Helper()
		var req struct {
			ID     json.RawMessage
			Method string
			Params struct{ Message string }
		}
		line := c.Recv()
		if err := json.Unmarshal([]byte(line), &req); err != nil || req.Method != "elicitation/create" || req.Params.Message != "Write a?" {
			t.Fatalf("want elicitation/create, got %s", line)
		}
		c.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"action":"` + answer + `"}}`)
	}

	put("1", `{"name":"a","dry_run":true}`)
	answered("1", `would write a`)
	put("2", `{"name":"a"}`)
	asked("accept")
	answered("2", `wrote a`)
	put("3", `{"name":"a","dry_run":false}`)
	asked("decline")
	answered("3", `The user declined this change`)
	put("4", `{"dry_run":true,"name":"a"}`)
	answered("4", `would write a`)
	put("5", `{ "name" : "a" , "dry_run" : true }`)
	answered("5", `would write a`)
}

// TestADryRunIsNeverSentForConfirmationInTheModernEra: under MCP
// 2026-07-28 a dry run is answered at once, with no input_required round
// and whether or not the request declares elicitation; the same call
// without it asks.
func TestADryRunIsNeverSentForConfirmationInTheModernEra(t *testing.T) {
	c := dryRunServer(t)
	put := func(id, args, caps string) string {
		c.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"put","arguments":` + args +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`)
		return c.Recv()
	}
	cases := []struct{ id, args, caps, want string }{
		{"1", `{"name":"a","dry_run":true}`, `{"elicitation":{}}`, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"text\":\"would write a\"}"}]`},
		{"2", `{"name":"a","dry_run":true}`, `{}`, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"text\":\"would write a\"}"}]`},
		{"3", `{"name":"a"}`, `{"elicitation":{}}`, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required"`},
		{"4", `{"name":"a","dry_run":false}`, `{"elicitation":{}}`, `{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required"`},
		{"5", `{"name":"a"}`, `{}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32021`},
	}
	for _, tc := range cases {
		if got := put(tc.id, tc.args, tc.caps); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s with capabilities %s:\n got  %s\n want %s…", tc.args, tc.caps, got, tc.want)
		}
	}
}
