package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// TestModernClientCapabilitiesMustBeAnObject: a request of MCP 2026-07-28
// whose _meta carries clientCapabilities that are not an object (null, a
// string, a number, an array, a boolean) is refused with -32602, on
// stdio and over HTTP (400); an object, {} included, is served.
func TestModernClientCapabilitiesMustBeAnObject(t *testing.T) {
	const refusal = `"error":{"code":-32602,"message":"Invalid params: a 2026-07-28 request needs _meta[\"io.modelcontextprotocol/clientCapabilities\"], an object of the client's capabilities (it may be {})"}}`
	cases := []struct {
		caps  string
		serve bool
	}{
		{`null`, false},
		{`"elicitation"`, false},
		{`""`, false},
		{`0`, false},
		{`1`, false},
		{`-1`, false},
		{`[]`, false},
		{`[{}]`, false},
		{`true`, false},
		{`false`, false},
		{`{}`, true},
		{`{ }`, true},
		{`{"elicitation":{}}`, true},
	}
	requests := []struct{ method, params, served string }{
		{"tools/list", ``, `"result":{"tools":[{"name":"greet"`},
		{"tools/call", `"name":"greet","arguments":{"name":"Ada"},`, `"result":{"resultType":"complete","content":[{"type":"text","text":"{\"text\":\"Hello, Ada\"}"}]`},
	}
	line := func(id int, method, params, caps string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":%s}}}`, id, method, params, caps)
	}
	want := func(id int, served string, serve bool) string {
		if serve {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s`, id, served)
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s`, id, refusal)
	}
	srv := modernServer(t, server.Options{})

	t.Run("stdio", func(t *testing.T) {
		c := servertest.Connect(t, srv)
		id := 0
		for _, tc := range cases {
			for _, r := range requests {
				id++
				c.Send(line(id, r.method, r.params, tc.caps))
				if got, w := c.Recv(), want(id, r.served, tc.serve); !strings.HasPrefix(got, w) {
					t.Errorf("%s with clientCapabilities %s:\n got  %.300s\n want %s", r.method, tc.caps, got, w)
				}
			}
		}
	})

	t.Run("HTTP", func(t *testing.T) {
		h := srv.HTTPHandler(server.HTTPOptions{})
		id := 0
		for _, tc := range cases {
			for _, r := range requests {
				id++
				req := httptest.NewRequest("POST", "/mcp", strings.NewReader(line(id, r.method, r.params, tc.caps)))
				req.Host = "localhost"
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("MCP-Protocol-Version", "2026-07-28")
				req.Header.Set("Mcp-Method", r.method)
				if r.method == "tools/call" {
					req.Header.Set("Mcp-Name", "greet")
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				status := http.StatusBadRequest
				if tc.serve {
					status = http.StatusOK
				}
				if wantBody := want(id, r.served, tc.serve); w.Code != status || !strings.HasPrefix(w.Body.String(), wantBody) {
					t.Errorf("%s with clientCapabilities %s: %d %.300s\n want %d %s", r.method, tc.caps, w.Code, w.Body, status, wantBody)
				}
			}
		}
	})
}
