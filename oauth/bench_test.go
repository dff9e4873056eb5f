package oauth_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/oauth"
	"github.com/stdiotools/toolserver/server"
)

// BenchmarkRoundTrip measures one MCP request (a ping, the cheapest, so
// that the check weighs most) through the HTTP handler: with the static
// token, with an OAuth token verified before (the cache), and with an
// OAuth token whose RS256 signature is checked every time (two tokens
// alternating in a cache of one); over loopback HTTP with a kept-alive
// connection, as a client sends it, and in memory (the handler alone).
func BenchmarkRoundTrip(b *testing.B) {
	o := startOP(b)
	srv := server.New(server.Options{})
	one, two := token(b, o, "agent", resource, "files:read"), token(b, o, "reader", resource, "files:read")
	for _, tc := range []struct {
		name   string
		h      http.Handler
		tokens []string
	}{
		{"static-token", srv.HTTPHandler(server.HTTPOptions{Token: "a-static-token"}), []string{"a-static-token"}},
		{"oauth-cached", newResource(b, o, oauth.Config{}).Protect(srv.HTTPHandler(server.HTTPOptions{})), []string{one}},
		{"oauth-uncached", newResource(b, o, oauth.Config{CacheSize: 1}).Protect(srv.HTTPHandler(server.HTTPOptions{})), []string{one, two}},
	} {
		b.Run(tc.name+"/loopback", func(b *testing.B) { loopback(b, tc.h, tc.tokens) })
		b.Run(tc.name+"/memory", func(b *testing.B) { memory(b, tc.h, tc.tokens) })
	}
}

// pingBody is the request of BenchmarkRoundTrip.
const pingBody = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

// loopback sends the pings to h over loopback HTTP, the tokens in turn.
func loopback(b *testing.B, h http.Handler, tokens []string) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	client := ts.Client()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(pingBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokens[i%len(tokens)])
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%d", resp.StatusCode)
		}
	}
}

// memory sends the pings to h in memory, the tokens in turn.
func memory(b *testing.B, h http.Handler, tokens []string) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(pingBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokens[i%len(tokens)])
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}
