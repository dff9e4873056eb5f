package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// httpCallFrom posts a tools/call of greet with the given name, as sent
// from the address remote (host:port) with the token (none if ""), and
// returns the status and the result: its text, and whether it is an error.
func httpCallFrom(t *testing.T, h http.Handler, remote, token, name string) (status int, text string, isError bool) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"` + name + `"}}}`
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
	req.RemoteAddr = remote
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var r struct {
		Result *struct {
			Content []struct{ Text string }
			IsError bool
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil || r.Result == nil || len(r.Result.Content) != 1 {
		t.Fatalf("from %s: %d %s", remote, w.Code, w.Body)
	}
	return w.Code, r.Result.Content[0].Text, r.Result.IsError
}

// TestHTTPClientsAreToldApartByTheirAddressOrTheirToken: without a token,
// each host (the port aside) is a client of its own, with its own count
// (MaxCalls), rate (CallsPerSecond) and loop guard (MaxRepeats); with a
// token required, every request that carries it is the one client.
func TestHTTPClientsAreToldApartByTheirAddressOrTheirToken(t *testing.T) {
	frozen := time.Unix(1_800_000_000, 0) // no time passes: the rate's bucket never refills
	type step struct {
		remote, name string
		refused      bool // with the sentence of the limit
	}
	cases := []struct {
		limit  string
		opts   server.Options
		token  string
		refuse string // what the refusal says
		steps  []step
	}{
		{"MaxCalls", server.Options{MaxCalls: 1, MaxRepeats: -1}, "", "has used all 1 tool calls", []step{
			{"10.0.0.1:1111", "a", false},
			{"10.0.0.1:2222", "b", true}, // another port of the same host: the same client
			{"10.0.0.2:1111", "c", false},
			{"10.0.0.2:1111", "d", true},
			{"[fd00::1]:1111", "e", false},
			{"[fd00::1]:2222", "f", true},
			{"[fd00::2]:1111", "g", false},
		}},
		{"CallsPerSecond", server.Options{CallsPerSecond: 1, MaxRepeats: -1, Now: func() time.Time { return frozen }}, "", "at most 1 calls per second", []step{
			{"10.0.0.1:1111", "a", false},
			{"10.0.0.1:2222", "b", true},
			{"10.0.0.2:1111", "c", false},
			{"[fd00::1]:1111", "d", false},
			{"[fd00::1]:2222", "e", true},
		}},
		{"MaxRepeats", server.Options{MaxRepeats: 1}, "", "with the same arguments 2 times in a row", []step{
			{"10.0.0.1:1111", "a", false},
			{"10.0.0.2:1111", "a", false}, // another client's repeat is no repeat of this one's
			{"10.0.0.1:2222", "a", true},
			{"10.0.0.2:2222", "a", true},
			{"10.0.0.3:1111", "a", false},
		}},
		{"MaxCalls, with a token", server.Options{MaxCalls: 1, MaxRepeats: -1}, "s3cret", "has used all 1 tool calls", []step{
			{"10.0.0.1:1111", "a", false},
			{"10.0.0.2:1111", "b", true}, // the token is the client, wherever it calls from
			{"[fd00::1]:1111", "c", true},
		}},
		{"MaxRepeats, with a token", server.Options{MaxRepeats: 1}, "s3cret", "with the same arguments 2 times in a row", []step{
			{"10.0.0.1:1111", "a", false},
			{"10.0.0.2:1111", "a", true},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.limit, func(t *testing.T) {
			srv := server.New(tc.opts)
			err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "d", Level: security.Read},
				func(_ context.Context, _ *server.Call, in GreetArgs) (Greeting, error) {
					return Greeting{Text: "Hello, " + in.Name}, nil
				})
			if err != nil {
				t.Fatal(err)
			}
			h := srv.HTTPHandler(server.HTTPOptions{Token: tc.token})
			for i, s := range tc.steps {
				status, text, isError := httpCallFrom(t, h, s.remote, tc.token, s.name)
				refused := isError && strings.Contains(text, tc.refuse)
				if status != http.StatusOK || refused != s.refused || (!s.refused && text != `{"text":"Hello, `+s.name+`"}`) {
					t.Errorf("step %d, from %s: %d %q; want refused %v", i, s.remote, status, text, s.refused)
				}
			}
		})
	}
}
