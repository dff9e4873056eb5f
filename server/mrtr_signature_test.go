package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// sigAlphabet is the alphabet of the requestState's signature (base64
// URL encoding, unpadded).
const sigAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// flipSig changes the character at i of a signature to the one whose
// value differs by the bits of mask.
func flipSig(sig string, i, mask int) string {
	v := strings.IndexByte(sigAlphabet, sig[i])
	return sig[:i] + string(sigAlphabet[v^mask]) + sig[i+1:]
}

// TestARequestStateWithABadSignatureIsRefused: the second round of a
// confirmation in MCP 2026-07-28 whose requestState keeps the payload the
// server sealed but not its signature (one character changed, cut short,
// cut to nothing after the last dot, lengthened) is refused as failing
// verification, on stdio and over HTTP, and writes nothing; the state as
// it was issued is then accepted, so the payload was whole and the
// refusals spent no nonce.
func TestARequestStateWithABadSignatureIsRefused(t *testing.T) {
	var writes atomic.Int32
	srv := server.New(server.Options{ConfirmWrites: true, StateKey: []byte("a key shared by every process...")})
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
	h := srv.HTTPHandler(server.HTTPOptions{})
	transports := []struct {
		name string
		// roundTrip sends one request line and returns its answer, with
		// the HTTP status (0 on stdio).
		roundTrip func(line string) (int, string)
	}{
		{"stdio", func() func(string) (int, string) {
			c := servertest.Connect(t, srv)
			return func(line string) (int, string) {
				c.Send(line)
				return 0, c.Recv()
			}
		}()},
		{"HTTP", func(line string) (int, string) {
			req := httptest.NewRequest("POST", "/mcp", strings.NewReader(line))
			req.Host = "localhost"
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "write")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			return w.Code, w.Body.String()
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			writes.Store(0)
			_, first := tr.roundTrip(writeCall("1", "a", ""))
			var r struct {
				Result struct{ ResultType, RequestState string }
			}
			if err := json.Unmarshal([]byte(first), &r); err != nil || r.Result.ResultType != "input_required" {
				t.Fatalf("want a confirmation to ask, got %s", first)
			}
			state := r.Result.RequestState
			dot := strings.LastIndexByte(state, '.')
			head, sig := state[:dot+1], state[dot+1:]
			if strings.Count(state, ".") != 2 || len(sig) != 43 {
				t.Fatalf("not a v1.payload.signature with an HMAC-SHA256: %q", state)
			}
			forged := []struct{ name, state string }{
				{"the first character changed", head + flipSig(sig, 0, 32)},
				{"a middle character changed", head + flipSig(sig, 21, 1)},
				{"the last character changed", head + flipSig(sig, 42, 32)},
				// The last character of 32 bytes carries 4 bits and 2 of
				// padding: a spelling of the same bytes, which only the
				// strict decoding refuses.
				{"the last character's padding bits changed", head + flipSig(sig, 42, 1)},
				{"one character short", head + sig[:42]},
				{"cut to half", head + sig[:22]},
				{"cut to one byte", head + sig[:2]},
				{"empty after the last dot", head},
				{"one character more", head + sig + "A"},
				{"twice over", head + sig + sig},
			}
			for i, f := range forged {
				id := string(rune('a' + i))
				line := writeCall(`"`+id+`"`, "a", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+f.state+`"`)
				want := `{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32602,"message":"Invalid params: requestState failed verification; send the call again without requestState and inputResponses"}}`
				status, got := tr.roundTrip(line)
				if got != want || (status != 0 && status != http.StatusBadRequest) {
					t.Errorf("a signature %s: %d %s\n want %s", f.name, status, got, want)
				}
			}
			if n := writes.Load(); n != 0 {
				t.Fatalf("%d writes on forged states", n)
			}
			_, got := tr.roundTrip(writeCall("2", "a", `"inputResponses":{"confirm":{"action":"accept"}},"requestState":"`+state+`"`))
			if !strings.Contains(got, `"id":2,"result":{"resultType":"complete"`) || !strings.Contains(got, "wrote a") || writes.Load() != 1 {
				t.Fatalf("the state as issued: %s (writes %d)", got, writes.Load())
			}
		})
	}
}
