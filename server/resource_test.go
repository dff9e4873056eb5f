package server

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// resourceServer is a server with a fixed resource (notes://index), a
// template of notes (notes://n/{+path}: "missing" is not found, "broken"
// fails, "slow" outlasts a 100 ms timeout, "bin" is binary, anything
// else is its own path as text) and a read counter.
func resourceServer(t *testing.T, opts Options) (*Server, *atomic.Int32) {
	t.Helper()
	opts.Logger = nopLogger()
	srv := New(opts)
	reads := new(atomic.Int32)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(AddResource(srv, ResourceSpec{URI: "notes://index", Name: "index", Title: "The index", MIMEType: "text/plain"},
		func(_ context.Context, _ *Call, uri string, _ map[string]string) ([]ResourceContents, error) {
			reads.Add(1)
			return []ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "a\nb\n"}}, nil
		}))
	complete := func(_ context.Context, _ *Call, argument, value string, args map[string]string) (Completion, error) {
		if value == "broken" {
			return Completion{}, errors.New("cannot complete that")
		}
		var c Completion
		for i := range 150 {
			if v := fmt.Sprintf("n%03d", i); strings.HasPrefix(v, value) {
				c.Values = append(c.Values, v)
				c.Total++
			}
		}
		return c, nil
	}
	must(AddResource(srv, ResourceSpec{URITemplate: "notes://n/{+path}", Name: "notes", Description: "Notes by path.", Timeout: 100 * time.Millisecond, Complete: complete},
		func(ctx context.Context, _ *Call, uri string, vars map[string]string) ([]ResourceContents, error) {
			reads.Add(1)
			switch p := vars["path"]; p {
			case "missing":
				return nil, ResourceNotFound(uri)
			case "broken":
				return nil, errors.New("the note is unreadable; try another")
			case "slow":
				<-ctx.Done()
				return nil, ctx.Err()
			case "bin":
				return []ResourceContents{{URI: uri, MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2, 0xff}}}, nil
			default:
				return []ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: "# " + p}}, nil
			}
		}))
	return srv, reads
}

// TestResourcesAreListedAndReadInEitherEra plays the resources methods
// over stdio, in a legacy session and as modern requests, line by line.
func TestResourcesAreListedAndReadInEitherEra(t *testing.T) {
	const si = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"toolserver","title":"toolserver","version":"1.0.0"}}`
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	cases := []struct{ name, send, want string }{
		{"list",
			`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
			`{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"notes://index","name":"index","title":"The index","mimeType":"text/plain"}]}}`},
		{"templates",
			`{"jsonrpc":"2.0","id":2,"method":"resources/templates/list","params":{}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[{"uriTemplate":"notes://n/{+path}","name":"notes","description":"Notes by path."}]}}`},
		{"a fixed resource",
			`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"notes://index"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"notes://index","mimeType":"text/plain","text":"a\nb\n"}]}}`},
		{"a templated one, the variable decoded",
			`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"notes://n/a%20b/c.md"}}`,
			`{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"notes://n/a%20b/c.md","mimeType":"text/markdown","text":"# a b/c.md"}]}}`},
		{"binary",
			`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"notes://n/bin"}}`,
			`{"jsonrpc":"2.0","id":5,"result":{"contents":[{"uri":"notes://n/bin","mimeType":"application/octet-stream","blob":"AAEC/w=="}]}}`},
		{"not found by the reader",
			`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"notes://n/missing"}}`,
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Resource not found: notes://n/missing","data":{"uri":"notes://n/missing"}}}`},
		{"a URI nothing serves",
			`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Resource not found: file:///etc/passwd","data":{"uri":"file:///etc/passwd"}}}`},
		{"the reader's own error",
			`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"notes://n/broken"}}`,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32603,"message":"the note is unreadable; try another"}}`},
		{"no uri",
			`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"url":"notes://index"}}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params: resources/read needs params with \"uri\", a string"}}`},
		{"a cursor it did not give",
			`{"jsonrpc":"2.0","id":10,"method":"resources/list","params":{"cursor":"x"}}`,
			`{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params: the cursor \"x\" was not issued by this server; pass nextCursor from the previous result unchanged, or omit it"}}`},
		{"modern list",
			`{"jsonrpc":"2.0","id":11,"method":"resources/list","params":{` + meta + `}}`,
			`{"jsonrpc":"2.0","id":11,"result":{"resources":[{"uri":"notes://index","name":"index","title":"The index","mimeType":"text/plain"}],"resultType":"complete","ttlMs":300000,"cacheScope":"public",` + si + `}}`},
		{"modern templates",
			`{"jsonrpc":"2.0","id":12,"method":"resources/templates/list","params":{` + meta + `}}`,
			`{"jsonrpc":"2.0","id":12,"result":{"resourceTemplates":[{"uriTemplate":"notes://n/{+path}","name":"notes","description":"Notes by path."}],"resultType":"complete","ttlMs":300000,"cacheScope":"public",` + si + `}}`},
		{"modern read",
			`{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{"uri":"notes://index",` + meta + `}}`,
			`{"jsonrpc":"2.0","id":13,"result":{"contents":[{"uri":"notes://index","mimeType":"text/plain","text":"a\nb\n"}],"resultType":"complete","ttlMs":0,"cacheScope":"private",` + si + `}}`},
		{"modern not found",
			`{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":"notes://x",` + meta + `}}`,
			`{"jsonrpc":"2.0","id":14,"error":{"code":-32602,"message":"Resource not found: notes://x","data":{"uri":"notes://x"}}}`},
	}
	srv, _ := resourceServer(t, Options{Version: "1.0.0"})
	c := playLines(t, srv, cases)
	c.send(`{"jsonrpc":"2.0","id":15,"method":"server/discover","params":{` + meta + `}}`)
	if got := c.recv(); !strings.Contains(got, `"capabilities":{"completions":{},"resources":{},"tools":{}}`) {
		t.Errorf("discover: %s", got)
	}
}

// playLines opens a 2025-11-25 session with srv, checks that it declares
// resources and completions, and plays the cases, each a line sent and the
// exact line it must get back; it returns the session.
func playLines(t *testing.T, srv *Server, cases []struct{ name, send, want string }) *pipeClient {
	t.Helper()
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if got := c.recv(); !strings.Contains(got, `"capabilities":{"completions":{},"logging":{},"resources":{},"tools":{}}`) {
		t.Fatalf("initialize: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tc := range cases {
		c.send(tc.send)
		if got := c.recv(); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
	return c
}

// TestAResourceReadRunsUnderTheCallTimeout: a read that outlasts its
// Timeout is answered -32603 with the timeout's sentence, and the
// server goes on serving.
func TestAResourceReadRunsUnderTheCallTimeout(t *testing.T) {
	srv, _ := resourceServer(t, Options{})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://n/slow"}}`)
	if got := c.recv(); !strings.Contains(got, `"error":{"code":-32603,"message":"`) || !strings.Contains(got, "100ms") {
		t.Fatalf("a slow read: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"notes://index"}}`)
	if got := c.recv(); !strings.Contains(got, `"text":"a\nb\n"`) {
		t.Fatalf("the next read: %s", got)
	}
}

// TestWithoutResourcesTheMethodsAreUnknown: a server with no resource,
// or none at the level it serves, neither declares the capability nor
// answers the methods, and its sentences do not name them.
func TestWithoutResourcesTheMethodsAreUnknown(t *testing.T) {
	srv := New(Options{Logger: nopLogger()})
	if err := AddResource(srv, ResourceSpec{URI: "admin://x", Name: "x", Level: security.Admin},
		func(context.Context, *Call, string, map[string]string) ([]ResourceContents, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if got := c.recv(); strings.Contains(got, "resources") {
		t.Fatalf("initialize: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, m := range []string{"resources/list", "resources/templates/list", "resources/read"} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"` + m + `","params":{"uri":"admin://x"}}`)
		want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: \"` + m + `\"; this server answers initialize, ping, tools/list, tools/call and logging/setLevel"}}`
		if got := c.recv(); got != want {
			t.Errorf("%s:\n got  %s\n want %s", m, got, want)
		}
	}
}

// TestAddResourceRefusesBadSpecs: each mistake in a ResourceSpec is an
// error of AddResource that names it.
func TestAddResourceRefusesBadSpecs(t *testing.T) {
	read := func(context.Context, *Call, string, map[string]string) ([]ResourceContents, error) { return nil, nil }
	cases := []struct {
		name string
		spec ResourceSpec
		read ReadResourceFunc
		want string
	}{
		{"no name", ResourceSpec{URI: "a://b"}, read, "needs a Name"},
		{"no URI", ResourceSpec{Name: "n"}, read, "needs a URI or a URITemplate"},
		{"both", ResourceSpec{Name: "n", URI: "a://b", URITemplate: "a://{x}"}, read, "and not both"},
		{"a bad template", ResourceSpec{Name: "n", URITemplate: "a://{x"}, read, "the URI template"},
		{"a completion without a template", ResourceSpec{Name: "n", URI: "a://b", Complete: func(context.Context, *Call, string, string, map[string]string) (Completion, error) {
			return Completion{}, nil
		}}, read, "Complete needs a URITemplate"},
		{"no read function", ResourceSpec{Name: "n", URI: "a://b"}, nil, "no read function"},
		{"an unknown level", ResourceSpec{Name: "n", URI: "a://b", Level: 7}, read, "unknown level"},
	}
	for _, tc := range cases {
		err := AddResource(New(Options{}), tc.spec, tc.read)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	srv := New(Options{})
	if err := AddResource(srv, ResourceSpec{Name: "n", URI: "a://b"}, read); err != nil {
		t.Fatal(err)
	}
	if err := AddResource(srv, ResourceSpec{Name: "m", URI: "a://b"}, read); err == nil || !strings.Contains(err.Error(), "already added") {
		t.Errorf("a URI added twice: %v", err)
	}
}

// TestResourcesOverHTTPInEitherEra: a read over Streamable HTTP, legacy
// and modern, the modern one with its Mcp-Name header naming the URI.
func TestResourcesOverHTTPInEitherEra(t *testing.T) {
	srv, _ := resourceServer(t, Options{})
	ts := httptestServe(t, srv)
	r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://n/x.md"}}`, nil)
	if r.status != 200 || !strings.Contains(r.body, `"text":"# x.md"`) {
		t.Fatalf("legacy: %d %s", r.status, r.body)
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	body := `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"notes://n/x.md",` + meta + `}}`
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": "notes://n/x.md"}
	if r := post(t, ts, "POST", body, h); r.status != 200 || !strings.Contains(r.body, `"resultType":"complete"`) {
		t.Fatalf("modern: %d %s", r.status, r.body)
	}
	h["Mcp-Name"] = "notes://n/y.md"
	if r := post(t, ts, "POST", body, h); r.status != 400 || !strings.Contains(r.body, "does not name the URI the body reads") {
		t.Fatalf("modern, another Mcp-Name: %d %s", r.status, r.body)
	}
	missing := strings.Replace(body, "x.md", "missing", 1)
	h["Mcp-Name"] = "notes://n/missing"
	if r := post(t, ts, "POST", missing, h); !strings.Contains(r.body, `"code":-32602`) || !strings.Contains(r.body, `"data":{"uri":"notes://n/missing"}`) {
		t.Fatalf("modern, not found: %d %s", r.status, r.body)
	}
}

// httptestServe serves srv over Streamable HTTP for the test's time.
func httptestServe(t *testing.T, srv *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	t.Cleanup(ts.Close)
	return ts
}

// TestCompletionCompletesATemplatesVariable: completion/complete of a
// template's variable, in either era, at most 100 values with the total
// and hasMore, and its refusals.
func TestCompletionCompletesATemplatesVariable(t *testing.T) {
	const si = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"toolserver","title":"toolserver","version":"1.0.0"}}`
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	ref := `"ref":{"type":"ref/resource","uri":"notes://n/{+path}"}`
	var hundred []string
	for i := range 100 {
		hundred = append(hundred, fmt.Sprintf(`"n%03d"`, i))
	}
	cases := []struct{ name, send, want string }{
		{"a few",
			`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{` + ref + `,"argument":{"name":"path","value":"n01"}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["n010","n011","n012","n013","n014","n015","n016","n017","n018","n019"],"total":10,"hasMore":false}}}`},
		{"at most 100",
			`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{` + ref + `,"argument":{"name":"path","value":""}}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"completion":{"values":[` + strings.Join(hundred, ",") + `],"total":150,"hasMore":true}}}`},
		{"none",
			`{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{` + ref + `,"argument":{"name":"path","value":"x"}}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"completion":{"values":[],"hasMore":false}}}`},
		{"modern",
			`{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{` + ref + `,"argument":{"name":"path","value":"n149"},` + meta + `}}`,
			`{"jsonrpc":"2.0","id":4,"result":{"completion":{"values":["n149"],"total":1,"hasMore":false},"resultType":"complete",` + si + `}}`},
		{"a prompt",
			`{"jsonrpc":"2.0","id":5,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params: this server has no prompts; it completes the variables of its resource templates (ref/resource)"}}`},
		{"a template that does not complete",
			`{"jsonrpc":"2.0","id":6,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"notes://index"},"argument":{"name":"a","value":""}}}`,
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: no resource template \"notes://index\" completes its variables; resources/templates/list gives the templates"}}`},
		{"no such variable",
			`{"jsonrpc":"2.0","id":7,"method":"completion/complete","params":{` + ref + `,"argument":{"name":"name","value":""}}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: the template notes://n/{+path} has no variable \"name\""}}`},
		{"no argument",
			`{"jsonrpc":"2.0","id":8,"method":"completion/complete","params":{` + ref + `}}`,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: completion/complete needs params with \"ref\" ({\"type\":\"ref/resource\",\"uri\":…}) and \"argument\" ({\"name\":…,\"value\":…}), with strings"}}`},
		{"the completer's own error",
			`{"jsonrpc":"2.0","id":9,"method":"completion/complete","params":{` + ref + `,"argument":{"name":"path","value":"broken"}}}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"cannot complete that"}}`},
	}
	srv, _ := resourceServer(t, Options{Version: "1.0.0"})
	playLines(t, srv, cases)
	comp, err := srv.Complete(context.Background(), "notes://n/{+path}", "path", "n14", nil)
	if err != nil || len(comp.Values) != 10 || comp.Total != 10 {
		t.Errorf("Complete: %+v %v", comp, err)
	}
}

// TestACompletionIsBoundedAndCountsWhatItCut: a CompleteFunc that returns
// more than MaxCompletions values is answered with the first 100, their
// total and hasMore, over the protocol and by Server.Complete (found in
// review: the total counted only the values kept).
func TestACompletionIsBoundedAndCountsWhatItCut(t *testing.T) {
	srv := New(Options{Logger: nopLogger()})
	err := AddResource(srv, ResourceSpec{URITemplate: "x://{+p}", Name: "x",
		Complete: func(context.Context, *Call, string, string, map[string]string) (Completion, error) {
			return Completion{Values: make([]string, 150)}, nil
		}}, func(context.Context, *Call, string, map[string]string) ([]ResourceContents, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"x://{+p}"},"argument":{"name":"p","value":""}}}`)
	if got := c.recv(); !strings.HasSuffix(got, `"total":150,"hasMore":true}}}`) || strings.Count(got, `""`) != MaxCompletions {
		t.Errorf("over the protocol: ...%s", got[max(0, len(got)-60):])
	}
	comp, err := srv.Complete(context.Background(), "x://{+p}", "p", "", nil)
	if err != nil || len(comp.Values) != MaxCompletions || !comp.HasMore || comp.Total != 150 {
		t.Errorf("Complete: %d values, total %d, hasMore %v, %v", len(comp.Values), comp.Total, comp.HasMore, err)
	}
}

// TestSubscriptionsAreNotOffered: the resources capability offers no
// subscription, and resources/subscribe is an unknown method.
func TestSubscriptionsAreNotOffered(t *testing.T) {
	srv, _ := resourceServer(t, Options{})
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if got := c.recv(); strings.Contains(got, "subscribe") || !strings.Contains(got, `"resources":{}`) {
		t.Fatalf("initialize: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"notes://index"}}`)
	if got := c.recv(); !strings.Contains(got, `"code":-32601`) {
		t.Fatalf("subscribe: %s", got)
	}
}

// TestAReadReservesAboutWhatItsLineTakes: the estimate a read reserves for
// its answer covers the line of ordinary text and of a blob, without
// reserving more than a quarter beyond it.
func TestAReadReservesAboutWhatItsLineTakes(t *testing.T) {
	for _, contents := range [][]ResourceContents{
		{{URI: "notes://n/a.md", MIMEType: "text/markdown", Text: strings.Repeat("a line of text\n", 500)}},
		{{URI: "x://blob", MIMEType: "application/octet-stream", Blob: make([]byte, 3000)}},
		{{URI: "x://1", Text: strings.Repeat("x", 100)}, {URI: "x://2", Blob: []byte{1, 2, 3, 4}}},
		{{URI: "x://json", Text: strings.Repeat(`{"a":"b\tc"}`+"\n", 300)}},
		{{URI: "x://log", Text: strings.Repeat("\x1b[31mred\x1b[0m\t\"quoted\"\n", 200)}},
	} {
		line := len(appendReadResult(nil, []byte("1"), contents, nil)) - len(`{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}`+"\n")
		if est := encodedSize(contents); est < int64(line) || est > int64(line)*5/4+128 {
			t.Errorf("encodedSize = %d for a line of %d bytes", est, line)
		}
	}
}

// TestACompletionKeepsWhatFitsAndSaysWhatItCut holds Completion.bounded
// at its edges: exactly 100 values pass as they are, an unknown total
// stays unknown, and a total below the values given is raised to them.
func TestACompletionKeepsWhatFitsAndSaysWhatItCut(t *testing.T) {
	values := func(n int) []string { return make([]string, n) }
	for _, c := range []struct {
		in           Completion
		n, total     int
		hasMore, nil bool
	}{
		{Completion{Values: values(100)}, 100, 0, false, false},
		{Completion{Values: values(100), HasMore: true}, 100, 0, true, false},
		{Completion{Values: values(101)}, 100, 101, true, false},
		{Completion{Values: values(3), Total: 2}, 3, 3, false, false},
		{Completion{Values: values(3), Total: 7}, 3, 7, true, false},
		{Completion{Values: values(3)}, 3, 0, false, false},
		{Completion{}, 0, 0, false, false},
	} {
		got := c.in.bounded()
		if len(got.Values) != c.n || got.Total != c.total || got.HasMore != c.hasMore || got.Values == nil {
			t.Errorf("%d values, total %d, hasMore %v: got %d values, total %d, hasMore %v",
				len(c.in.Values), c.in.Total, c.in.HasMore, len(got.Values), got.Total, got.HasMore)
		}
	}
}

// TestAURIOfTheLongestLengthIsMatched: a URI of MaxResourceURI bytes is
// matched with the templates, one byte more is not served.
func TestAURIOfTheLongestLengthIsMatched(t *testing.T) {
	srv, _ := resourceServer(t, Options{})
	at := "notes://n/" + strings.Repeat("a", MaxResourceURI-len("notes://n/"))
	if _, err := srv.ReadResource(context.Background(), at); err != nil {
		t.Errorf("a URI of %d bytes: %v", len(at), err)
	}
	if _, err := srv.ReadResource(context.Background(), at+"a"); !IsResourceNotFound(err) {
		t.Errorf("a URI of %d bytes: %v", len(at)+1, err)
	}
}

// TestReadResourceRunsThroughThePolicies: Server.ReadResource runs every
// policy of Options.Policies around the read, in order, as a call.
func TestReadResourceRunsThroughThePolicies(t *testing.T) {
	var order []string
	policy := func(name string) Policy {
		return func(next ToolHandler) ToolHandler {
			return func(ctx context.Context, c *Call) (*CallToolResult, error) {
				order = append(order, name+":"+c.Tool)
				return next(ctx, c)
			}
		}
	}
	srv, _ := resourceServer(t, Options{Policies: []Policy{policy("outer"), policy("inner")}})
	if _, err := srv.ReadResource(context.Background(), "notes://index"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, " "); got != "outer:index inner:index" {
		t.Errorf("policies ran %q", got)
	}
}
