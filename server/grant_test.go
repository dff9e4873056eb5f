package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// grantServer serves a read tool, a write tool that counts its runs and
// an admin tool, behind a middleware that grants each request the level
// its X-Level header names.
func grantServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	srv := New(Options{Logger: nopLogger(), AllowAdmin: true})
	var wrote atomic.Int32
	for _, spec := range []ToolSpec{
		{Name: "look", Description: "Reads.", Level: security.Read},
		{Name: "put", Description: "Writes.", Level: security.Write},
		{Name: "wipe", Description: "Destroys.", Level: security.Admin},
	} {
		if err := AddTool(srv, spec, func(_ context.Context, c *Call, in httpEchoIn) (httpEchoOut, error) {
			if c.Tool != "look" {
				wrote.Add(1)
			}
			return httpEchoOut(in), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	read := func(_ context.Context, _ *Call, uri string, _ map[string]string) ([]ResourceContents, error) {
		return []ResourceContents{{URI: uri, Text: "admin-only"}}, nil
	}
	if err := AddResource(srv, ResourceSpec{URI: "admin://secret", Name: "secret", Level: security.Admin}, read); err != nil {
		t.Fatal(err)
	}
	challenge := func(scope, description string) string {
		return `Bearer error="insufficient_scope", scope="` + scope + `", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`
	}
	names := map[security.Level]string{security.Read: "files:read", security.Write: "files:write", security.Admin: "files:admin"}
	h := srv.HTTPHandler(HTTPOptions{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		switch r.Header.Get("X-Level") {
		case "read":
			ctx = WithGrant(ctx, &Grant{Level: security.Read, Scope: func(l security.Level) string { return names[l] }, Challenge: challenge})
		case "write":
			ctx = WithGrant(ctx, &Grant{Level: security.Write, Scope: func(l security.Level) string { return names[l] }, Challenge: challenge})
		}
		h.ServeHTTP(w, r.WithContext(ctx))
	}))
	t.Cleanup(ts.Close)
	return ts, &wrote
}

// TestAGrantListsAndRunsOnlyTheToolsOfItsLevel: in either era, a request
// granted the read level lists the read tools only (cacheScope private
// in 2026-07-28, since the list depends on the token), and its call of a
// write or admin tool is refused with 403 and the challenge naming the
// scope, the tool never run; a request granted write runs write tools
// but not admin ones; one with no grant is served every tool.
func TestAGrantListsAndRunsOnlyTheToolsOfItsLevel(t *testing.T) {
	ts, wrote := grantServer(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	list := func(level string, modern bool) (tools []string, body string) {
		body = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
		h := map[string]string{"X-Level": level}
		if modern {
			body = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`
			h["MCP-Protocol-Version"], h["Mcp-Method"] = "2026-07-28", "tools/list"
		}
		rep := post(t, ts, "POST", body, h)
		var r struct {
			Result struct {
				Tools []struct{ Name string }
			}
		}
		if err := json.Unmarshal([]byte(rep.body), &r); err != nil {
			t.Fatalf("%s", rep.body)
		}
		for _, tl := range r.Result.Tools {
			tools = append(tools, tl.Name)
		}
		return tools, rep.body
	}
	for _, tc := range []struct{ level, want string }{{"read", "look"}, {"write", "look put"}, {"", "look put wipe"}} {
		got, _ := list(tc.level, false)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("listed for %q: %v, want %s", tc.level, got, tc.want)
		}
	}
	if _, body := list("read", true); !strings.Contains(body, `"cacheScope":"private"`) {
		t.Errorf("a granted modern list: %s", body)
	}
	if _, body := list("", true); !strings.Contains(body, `"cacheScope":"public"`) {
		t.Errorf("a list without grant: %s", body)
	}

	call := func(level, tool string, modern bool) httpReply {
		body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"text":"x"}}}`
		h := map[string]string{"X-Level": level}
		if modern {
			body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"text":"x"},` + meta + `}}`
			h["MCP-Protocol-Version"], h["Mcp-Method"], h["Mcp-Name"] = "2026-07-28", "tools/call", tool
		}
		return post(t, ts, "POST", body, h)
	}
	for _, modern := range []bool{false, true} {
		for _, tc := range []struct{ level, tool, scope string }{{"read", "put", "files:write"}, {"read", "wipe", "files:admin"}, {"write", "wipe", "files:admin"}} {
			rep := call(tc.level, tc.tool, modern)
			ch := rep.header.Get("WWW-Authenticate")
			if rep.status != http.StatusForbidden || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, `scope="`+tc.scope+`"`) ||
				!strings.Contains(ch, `resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`) {
				t.Errorf("%s calling %s (modern %v): %d %q", tc.level, tc.tool, modern, rep.status, ch)
			}
			if !strings.Contains(rep.body, `"code":-32021`) || !strings.Contains(rep.body, `"data":{"scope":"`+tc.scope+`"}`) || !strings.Contains(rep.body, `needs the scope \"`+tc.scope+`\"`) {
				t.Errorf("the body of the refusal: %s", rep.body)
			}
		}
	}
	if n := wrote.Load(); n != 0 {
		t.Fatalf("a refused tool ran %d times", n)
	}
	for _, tc := range []struct{ level, tool string }{{"read", "look"}, {"write", "put"}, {"", "wipe"}} {
		if rep := call(tc.level, tc.tool, false); rep.status != 200 || strings.Contains(rep.body, `"error"`) {
			t.Errorf("%s calling %s: %d %s", tc.level, tc.tool, rep.status, rep.body)
		}
	}
	if n := wrote.Load(); n != 2 {
		t.Fatalf("the allowed writes ran %d times, want 2", n)
	}
}

// TestAGrantHidesTheResourcesAboveItsLevel: a resource of the admin
// level is neither listed nor read for a request granted less, as a tool
// of that level is not; without a grant it is.
func TestAGrantHidesTheResourcesAboveItsLevel(t *testing.T) {
	ts, _ := grantServer(t)
	list := `{"jsonrpc":"2.0","id":1,"method":"resources/list"}`
	read := `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"admin://secret"}}`
	for _, tc := range []struct {
		level string
		shown bool
	}{{"read", false}, {"write", false}, {"", true}} {
		h := map[string]string{"X-Level": tc.level}
		if got := post(t, ts, "POST", list, h).body; strings.Contains(got, "admin://secret") != tc.shown {
			t.Errorf("listed for %q: %s", tc.level, got)
		}
		if got := post(t, ts, "POST", read, h).body; strings.Contains(got, "admin-only") != tc.shown {
			t.Errorf("read for %q: %s", tc.level, got)
		}
	}
}

// TestEachPrincipalHasItsOwnCachedResults: over HTTP, a cached tool's
// result is taken from the cache for the principal that got it, and run
// again for another.
func TestEachPrincipalHasItsOwnCachedResults(t *testing.T) {
	srv := New(Options{Logger: nopLogger()})
	var runs atomic.Int32
	if err := AddTool(srv, ToolSpec{Name: "look", Description: "Reads.", CacheTTL: time.Minute}, func(_ context.Context, _ *Call, in httpEchoIn) (httpEchoOut, error) {
		runs.Add(1)
		return httpEchoOut(in), nil
	}); err != nil {
		t.Fatal(err)
	}
	h := srv.HTTPHandler(HTTPOptions{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), r.Header.Get("X-Who"))))
	}))
	defer ts.Close()
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look","arguments":{"text":"x"}}}`
	for i, who := range []string{"alice", "alice", "bob", "bob", "alice"} {
		if rep := post(t, ts, "POST", call, map[string]string{"X-Who": who}); rep.status != 200 || strings.Contains(rep.body, `"isError":true`) {
			t.Fatalf("call %d of %s: %d %s", i, who, rep.status, rep.body)
		}
	}
	if n := runs.Load(); n != 2 {
		t.Fatalf("the tool ran %d times for two principals, want 2", n)
	}
}
