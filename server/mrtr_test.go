package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

type writeIn struct {
	Name string `json:"name" description:"What to write."`
}

// mrtrServer serves a write tool that asks for confirmation, and counts
// the writes it makes.
func mrtrServer(t *testing.T, now *time.Time) (*servertest.Client, *atomic.Int32) {
	t.Helper()
	var writes atomic.Int32
	opts := server.Options{ConfirmWrites: true, StateKey: []byte("a key shared by every process...")}
	if now != nil {
		opts.Now = func() time.Time { return *now }
	}
	srv := server.New(opts)
	err := server.AddTool(srv, server.ToolSpec{Name: "write", Description: "d", Level: security.Write},
		func(ctx context.Context, call *server.Call, in writeIn) (Greeting, error) {
			if err := call.Confirm(ctx, "Write "+in.Name+"?"); err != nil {
				return Greeting{}, err
			}
			writes.Add(1)
			return Greeting{Text: "wrote " + in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return servertest.Connect(t, srv), &writes
}

const elicitMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

func writeCall(id, name, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"write","arguments":{"name":"` + name + `"},` + elicitMeta + extra + `}}`
}

// askFirst sends the first round and returns the requestState.
func askFirst(t *testing.T, c *servertest.Client, id, name string) string {
	t.Helper()
	c.Send(writeCall(id, name, ""))
	line := c.Recv()
	var r struct {
		Result struct {
			ResultType    string
			InputRequests map[string]struct {
				Method string
				Params struct{ Message string }
			}
			RequestState string
		}
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	ask := r.Result.InputRequests["confirm"]
	if r.Result.ResultType != "input_required" || ask.Method != "elicitation/create" || ask.Params.Message != "Write "+name+"?" || !strings.HasPrefix(r.Result.RequestState, "v1.") {
		t.Fatalf("want a confirmation to ask, got %s", line)
	}
	return r.Result.RequestState
}

func TestAModernConfirmationTakesTwoRounds(t *testing.T) {
	c, writes := mrtrServer(t, nil)
	state := askFirst(t, c, "1", "a")
	if writes.Load() != 0 {
		t.Fatal("wrote before the user answered")
	}
	c.Send(writeCall("2", "a", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+state+`"`))
	if got := c.Recv(); !strings.Contains(got, `"id":2,"result":{"resultType":"complete"`) || !strings.Contains(got, "wrote a") || writes.Load() != 1 {
		t.Fatalf("accepted: %s (writes %d)", got, writes.Load())
	}
	// The same state again is refused: a nonce is accepted once.
	c.Send(writeCall("3", "a", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+state+`"`))
	if got := c.Recv(); !strings.Contains(got, `"id":3,"error":{"code":-32602`) || !strings.Contains(got, "used already") || writes.Load() != 1 {
		t.Fatalf("replayed: %s", got)
	}
}

func TestAModernConfirmationRefusesWhatItCannotTrust(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	c, writes := mrtrServer(t, &now)
	state := askFirst(t, c, "1", "a")
	flipped := []byte(state)
	flipped[5] ^= 1
	cases := []struct{ name, send, want string }{
		{"a flipped byte", writeCall("2", "a", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+string(flipped)+`"`), `"code":-32602,"message":"Invalid params: requestState failed verification`},
		{"other arguments", writeCall("3", "b", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+state+`"`), `requestState was issued for another call`},
		{"a malformed answer", writeCall("4", "a", `"inputResponses":{"confirm":"yes"},"requestState":"`+state+`"`), `"code":-32602,"message":"Invalid params: inputResponses[\"confirm\"] must be an elicitation result`},
		{"no elicitation declared", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"write","arguments":{"name":"a"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			`"code":-32021,"message":"Missing required client capability: this server asks the user to confirm every change, through elicitation, which the request's clientCapabilities do not declare","data":{"requiredCapabilities":{"elicitation":{}}}`},
	}
	for _, tc := range cases {
		c.Send(tc.send)
		if got := c.Recv(); !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
	// No answer yet: asked again.
	c.Send(writeCall("6", "a", `"inputResponses":{},"requestState":"`+state+`"`))
	if got := c.Recv(); !strings.Contains(got, `"id":6,"result":{"resultType":"input_required"`) {
		t.Errorf("no answer: %s", got)
	}
	// Declined: an error result, and nothing written.
	c.Send(writeCall("7", "a", `"inputResponses":{"confirm":{"action":"decline"}},"requestState":"`+state+`"`))
	if got := c.Recv(); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "The user declined this change") {
		t.Errorf("declined: %s", got)
	}
	// Expired: refused.
	state = askFirst(t, c, "8", "a")
	now = now.Add(time.Hour)
	c.Send(writeCall("9", "a", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+state+`"`))
	if got := c.Recv(); !strings.Contains(got, "requestState has expired") {
		t.Errorf("expired: %s", got)
	}
	if writes.Load() != 0 {
		t.Errorf("%d writes", writes.Load())
	}
}
