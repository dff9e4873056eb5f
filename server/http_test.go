package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

type httpEchoIn struct {
	Text string `json:"text" description:"What to echo."`
}

type httpEchoOut struct {
	Text string `json:"text" description:"The text."`
}

// httpTestServer serves a Server with three tools over the handler:
// echo, steps (reports progress three times) and block (runs until
// cancelled, then says so on cancelled).
func httpTestServer(t *testing.T, opts Options, hopts HTTPOptions) (*httptest.Server, chan struct{}) {
	t.Helper()
	opts.Logger = nopLogger()
	if opts.MaxMessageBytes == 0 {
		opts.MaxMessageBytes = 4096
	}
	srv := New(opts)
	cancelled := make(chan struct{}, 1)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(AddTool(srv, ToolSpec{Name: "echo", Description: "Echoes."},
		func(_ context.Context, _ *Call, in httpEchoIn) (httpEchoOut, error) { return httpEchoOut(in), nil }))
	must(AddTool(srv, ToolSpec{Name: "steps", Description: "Reports progress."},
		func(_ context.Context, c *Call, in httpEchoIn) (httpEchoOut, error) {
			for i := 1; i <= 3; i++ {
				c.Progress(float64(i), 3, "step")
			}
			return httpEchoOut(in), nil
		}))
	must(AddTool(srv, ToolSpec{Name: "block", Description: "Blocks until cancelled."},
		func(ctx context.Context, _ *Call, in httpEchoIn) (httpEchoOut, error) {
			<-ctx.Done()
			cancelled <- struct{}{}
			return httpEchoOut(in), ctx.Err()
		}))
	must(AddTool(srv, ToolSpec{Name: "put", Description: "Writes after confirmation.", Level: security.Write},
		func(ctx context.Context, c *Call, in httpEchoIn) (httpEchoOut, error) {
			if err := c.Confirm(ctx, "write "+in.Text); err != nil {
				return httpEchoOut{}, err
			}
			return httpEchoOut(in), nil
		}))
	must(AddTool(srv, ToolSpec{Name: "nap", Description: "Sleeps half a second."},
		func(ctx context.Context, _ *Call, _ struct{}) (httpEchoOut, error) {
			select {
			case <-time.After(500 * time.Millisecond):
				return httpEchoOut{Text: "slept"}, nil
			case <-ctx.Done():
				return httpEchoOut{}, ctx.Err()
			}
		}))
	ts := httptest.NewServer(srv.HTTPHandler(hopts))
	t.Cleanup(ts.Close)
	return ts, cancelled
}

type httpReply struct {
	status int
	header http.Header
	body   string
}

func post(t *testing.T, ts *httptest.Server, method, body string, header map[string]string) httpReply {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return httpReply{resp.StatusCode, resp.Header, string(b)}
}

const (
	httpPing = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	httpCall = `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
)

func TestHTTPStatusCodes(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{Token: "s3cret", AllowedHosts: []string{"tools.example"}})
	auth := "Bearer s3cret"
	cases := []struct {
		name   string
		method string
		body   string
		header map[string]string
		status int
		want   string // in the body
		hdr    [2]string
	}{
		{"GET", "GET", "", map[string]string{"Authorization": auth}, 405, "Method Not Allowed", [2]string{"Allow", "POST"}},
		{"DELETE", "DELETE", "", map[string]string{"Authorization": auth}, 405, "", [2]string{"Allow", "POST"}},
		{"notification", "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Authorization": auth}, 202, "", [2]string{}},
		{"client response", "POST", `{"jsonrpc":"2.0","id":"toolserver-1","result":{}}`, map[string]string{"Authorization": auth}, 202, "", [2]string{}},
		{"bad Host", "POST", httpPing, map[string]string{"Authorization": auth, "Host": "evil.example.com"}, 403, "Host", [2]string{}},
		{"bad Origin", "POST", httpPing, map[string]string{"Authorization": auth, "Origin": "http://evil.example.com"}, 403, "Origin", [2]string{}},
		{"Origin null", "POST", httpPing, map[string]string{"Authorization": auth, "Origin": "null"}, 403, "Origin", [2]string{}},
		{"rebinding: Host and Origin agree", "POST", httpPing, map[string]string{"Authorization": auth, "Host": "evil.example.com:80", "Origin": "http://evil.example.com"}, 403, "", [2]string{}},
		{"allowed Host and Origin", "POST", httpPing, map[string]string{"Authorization": auth, "Host": "TOOLS.example:8080", "Origin": "https://tools.example"}, 200, `"result":{}`, [2]string{}},
		{"loopback Origin", "POST", httpPing, map[string]string{"Authorization": auth, "Origin": "http://localhost:3000"}, 200, `"result":{}`, [2]string{}},
		{"no token", "POST", httpPing, nil, 401, "Bearer", [2]string{"WWW-Authenticate", `Bearer realm="toolserver"`}},
		{"wrong token", "POST", httpPing, map[string]string{"Authorization": "Bearer s3cre"}, 401, "", [2]string{"WWW-Authenticate", `Bearer realm="toolserver"`}},
		{"basic auth", "POST", httpPing, map[string]string{"Authorization": "Basic czNjcmV0"}, 401, "", [2]string{}},
		{"token, scheme in lower case", "POST", httpPing, map[string]string{"Authorization": "bearer s3cret"}, 200, `{"jsonrpc":"2.0","id":1,"result":{}}`, [2]string{"Content-Type", "application/json"}},
		{"too large", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 5000) + `"}}`, map[string]string{"Authorization": auth}, 413, "longer than the limit of 4096 bytes", [2]string{}},
		{"not JSON", "POST", `{"jsonrpc":`, map[string]string{"Authorization": auth}, 400, "-32700", [2]string{}},
		{"batch", "POST", `[` + httpPing + `]`, map[string]string{"Authorization": auth}, 400, "batches are not supported", [2]string{}},
		{"empty body", "POST", ``, map[string]string{"Authorization": auth}, 400, "body is empty", [2]string{}},
		{"form body", "POST", `a=b`, map[string]string{"Authorization": auth, "Content-Type": "application/x-www-form-urlencoded"}, 415, "", [2]string{}},
		{"unknown method", "POST", `{"jsonrpc":"2.0","id":7,"method":"nope"}`, map[string]string{"Authorization": auth}, 200, "-32601", [2]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, ts, tc.method, tc.body, tc.header)
			if r.status != tc.status || !strings.Contains(r.body, tc.want) {
				t.Fatalf("got %d %q, want %d with %q", r.status, r.body, tc.status, tc.want)
			}
			if tc.hdr[0] != "" && r.header.Get(tc.hdr[0]) != tc.hdr[1] {
				t.Fatalf("%s: %q, want %q", tc.hdr[0], r.header.Get(tc.hdr[0]), tc.hdr[1])
			}
			if tc.status == 202 && r.body != "" {
				t.Fatalf("202 with a body: %q", r.body)
			}
			if sid := r.header.Get("Mcp-Session-Id"); sid != "" {
				t.Fatalf("a session id was minted: %q", sid)
			}
		})
	}
}

func TestHTTPJSONResponses(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
	cases := []struct{ name, body, want string }{
		{"ping", httpPing, `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"tools/call without initialize", httpCall, `{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"{\"text\":\"hi\"}"}],"structuredContent":{"text":"hi"}}}`},
		{"progress token, no progress", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":"p"}}}`, `"structuredContent":{"text":"x"}`},
		{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`, `"protocolVersion":"2025-11-25"`},
		{"logging/setLevel", `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`, `{"jsonrpc":"2.0","id":3,"result":{}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, ts, "POST", tc.body, nil)
			if r.status != 200 || r.header.Get("Content-Type") != "application/json" || !strings.Contains(r.body, tc.want) {
				t.Fatalf("got %d %s %q, want JSON with %q", r.status, r.header.Get("Content-Type"), r.body, tc.want)
			}
		})
	}
	t.Run("tools/list", func(t *testing.T) {
		r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, nil)
		for _, name := range []string{"echo", "steps", "block"} {
			if !strings.Contains(r.body, `"name":"`+name+`"`) {
				t.Fatalf("tools/list lacks %s: %s", name, r.body)
			}
		}
	})
}

// readSSE reads the data lines of an SSE body, checking each event's
// framing.
func readSSE(t *testing.T, body string) []map[string]any {
	t.Helper()
	var msgs []map[string]any
	for _, ev := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		lines := strings.Split(ev, "\n")
		if len(lines) != 2 || lines[0] != "event: message" || !strings.HasPrefix(lines[1], "data: ") {
			t.Fatalf("bad event %q in %q", ev, body)
		}
		msgs = append(msgs, decode(t, strings.TrimPrefix(lines[1], "data: ")))
	}
	return msgs
}

func TestHTTPProgressIsAnSSEStream(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
	r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"steps","arguments":{"text":"done"},"_meta":{"progressToken":"tok"}}}`, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" || r.header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("got %d %v", r.status, r.header)
	}
	msgs := readSSE(t, r.body)
	if len(msgs) != 4 {
		t.Fatalf("want 3 progress notifications and the response, got %d: %s", len(msgs), r.body)
	}
	for i, m := range msgs[:3] {
		p, _ := m["params"].(map[string]any)
		if m["method"] != "notifications/progress" || p["progressToken"] != "tok" || p["progress"] != float64(i+1) {
			t.Fatalf("event %d: %v", i, m)
		}
	}
	if res, _ := msgs[3]["result"].(map[string]any); msgs[3]["id"] != float64(9) || res["structuredContent"] == nil {
		t.Fatalf("last event is not the response: %v", msgs[3])
	}

	// A client that takes JSON only gets the response alone.
	r = post(t, ts, "POST", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"steps","arguments":{"text":"done"},"_meta":{"progressToken":"tok"}}}`,
		map[string]string{"Accept": "application/json"})
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" || !strings.HasPrefix(r.body, `{"jsonrpc":"2.0","id":10,"result":`) {
		t.Fatalf("JSON-only client: %d %v %q", r.status, r.header, r.body)
	}
}

func TestHTTPClientDisconnectCancelsTheCall(t *testing.T) {
	ts, cancelled := httpTestServer(t, Options{}, HTTPOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{"text":"x"}}}`))
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // the call is running
	cancel()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the call was not cancelled when the client went away")
	}
	if err := <-done; err == nil {
		t.Fatal("the request should have failed on the client")
	}
}

func TestHTTPConfirmRefusesWithoutASession(t *testing.T) {
	ts, _ := httpTestServer(t, Options{ConfirmWrites: true}, HTTPOptions{})
	start := time.Now()
	r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"put","arguments":{"text":"x"}}}`, nil)
	if time.Since(start) > 2*time.Second {
		t.Fatalf("the refusal took %v", time.Since(start))
	}
	var resp struct {
		Result CallToolResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.body), &resp); err != nil || !resp.Result.IsError ||
		!strings.Contains(r.body, "the client cannot ask the user") {
		t.Fatalf("want the refusal, got %d %q", r.status, r.body)
	}
}

func TestHTTPTooManyAtOnce(t *testing.T) {
	ts, cancelled := httpTestServer(t, Options{}, HTTPOptions{MaxConcurrent: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The blocking call takes the one place, trying again while a probe
	// below holds it.
	go func() {
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL,
				strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{"text":"x"}}}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := ts.Client().Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := post(t, ts, "POST", httpPing, nil)
		if r.status == 503 {
			if r.header.Get("Retry-After") == "" {
				t.Fatal("503 without Retry-After")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never refused: %d %q", r.status, r.body)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-cancelled
}

func TestAcceptsStream(t *testing.T) {
	for _, tc := range []struct {
		accept []string
		want   bool
	}{
		{nil, true},
		{[]string{"application/json, text/event-stream"}, true},
		{[]string{"application/json", "text/event-stream;q=0.5"}, true},
		{[]string{"*/*"}, true},
		{[]string{"application/json"}, false},
	} {
		if got := acceptsStream(tc.accept); got != tc.want {
			t.Errorf("acceptsStream(%q) = %v", tc.accept, got)
		}
	}
}

func TestHTTPLimitsHoldAcrossRequests(t *testing.T) {
	ts, _ := httpTestServer(t, Options{MaxCalls: 2}, HTTPOptions{})
	for i := 1; i <= 3; i++ {
		r := post(t, ts, "POST", httpCall, nil)
		refused := strings.Contains(r.body, "has used all 2 tool calls")
		if refused != (i == 3) {
			t.Fatalf("call %d: %q", i, r.body)
		}
	}
	// ping is no tool call.
	if r := post(t, ts, "POST", httpPing, nil); !strings.Contains(r.body, `"result":{}`) {
		t.Fatalf("ping: %q", r.body)
	}
}

func TestHTTPProtocolVersionHeader(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
	for _, tc := range []struct {
		version string
		status  int
		want    string
	}{
		{"2025-11-25", 200, `"result":{}`},
		{"2025-06-18", 200, `"result":{}`},
		// A legacy body under a modern header is a modern request
		// without its _meta.
		{"2026-07-28", 400, `"id":1,"error":{"code":-32602`},
		{"v999", 400, `"id":1,"error":{"code":-32600`},
	} {
		r := post(t, ts, "POST", httpPing, map[string]string{"MCP-Protocol-Version": tc.version})
		if r.status != tc.status || !strings.Contains(r.body, tc.want) {
			t.Errorf("MCP-Protocol-Version %s: %d %q; want %d and %s", tc.version, r.status, r.body, tc.status, tc.want)
		}
	}
}

func TestHTTPSlowBody(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{BodyTimeout: 200 * time.Millisecond})
	pr, pw := io.Pipe()
	defer pw.Close()
	req, _ := http.NewRequest("POST", ts.URL, pr)
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	_, _ = io.WriteString(pw, `{"jsonrpc":`)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a body that never ends held the request")
	}
	// A call longer than the body timeout is not cut short.
	r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nap","arguments":{}}}`, nil)
	if !strings.Contains(r.body, `"structuredContent":{"text":"slept"}`) {
		t.Fatalf("nap: %d %q", r.status, r.body)
	}
}

func TestHTTPLeavesNoGoroutines(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
	post(t, ts, "POST", httpCall, nil)
	ts.Client().CloseIdleConnections()
	time.Sleep(50 * time.Millisecond)
	before := runtime.NumGoroutine()
	for i := 0; i < 200; i++ {
		post(t, ts, "POST", httpCall, nil)
		post(t, ts, "POST", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"steps","arguments":{"text":"done"},"_meta":{"progressToken":"tok"}}}`, nil)
	}
	ts.Client().CloseIdleConnections()
	waitForGoroutines(t, before)
}

// TestHTTPModernHeadersAndStatuses: a request of MCP 2026-07-28 over HTTP
// must say in its headers what its body says (400 with -32020
// otherwise), and its errors have the status their code calls for.
func TestHTTPModernHeadersAndStatuses(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},` + meta + `}}`
	discover := `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + meta + `}}`
	ping := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{` + meta + `}}`
	good := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
	with := func(k, v string) map[string]string {
		h := map[string]string{}
		for a, b := range good {
			h[a] = b
		}
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
		return h
	}
	cases := []struct {
		name   string
		body   string
		header map[string]string
		status int
		want   string
	}{
		{"a call with its headers", call, good, 200, `"resultType":"complete"`},
		{"Mcp-Name in base64", call, with("Mcp-Name", "=?base64?ZWNobw==?="), 200, `"resultType":"complete"`},
		{"no MCP-Protocol-Version", call, with("MCP-Protocol-Version", ""), 400, `"code":-32020`},
		{"another MCP-Protocol-Version", call, with("MCP-Protocol-Version", "2025-11-25"), 400, `"code":-32020`},
		{"no Mcp-Method", call, with("Mcp-Method", ""), 400, `"code":-32020`},
		{"another Mcp-Method", call, with("Mcp-Method", "tools/list"), 400, `"code":-32020`},
		{"no Mcp-Name", call, with("Mcp-Name", ""), 400, `"code":-32020`},
		{"another Mcp-Name", call, with("Mcp-Name", "steps"), 400, `"code":-32020`},
		{"discover", discover, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, 200, `"supportedVersions"`},
		{"a removed method is 404", ping, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "ping"}, 404, `"code":-32601`},
		// As the conformance suite (0.2.0-alpha.12, server-stateless)
		// sends them:
		{"an unknown version in header and body is -32022", strings.Replace(discover, "2026-07-28", "v999.0.0", 1), map[string]string{"MCP-Protocol-Version": "v999.0.0", "Mcp-Method": "server/discover"}, 400,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version \"v999.0.0\"; this server speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05","data":{"requested":"v999.0.0","supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"]}}}`},
		{"an unknown version in the body alone is a mismatch", strings.Replace(discover, "2026-07-28", "v999.0.0", 1), map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, 400, `"id":2,"error":{"code":-32020`},
		{"an unknown version in the body, no header", strings.Replace(discover, "2026-07-28", "v999.0.0", 1), map[string]string{"Mcp-Method": "server/discover"}, 400, `"id":2,"error":{"code":-32022`},
		{"a legacy version in the body under a modern header", strings.Replace(discover, "2026-07-28", "2025-11-25", 1), map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, 400, `"id":2,"error":{"code":-32020`},
		{"no _meta under a modern header", `{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}`, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, 400, `"id":101,"error":{"code":-32602`},
		{"no protocolVersion under a modern header", `{"jsonrpc":"2.0","id":102,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, 400, `"id":102,"error":{"code":-32602`},
		{"no clientCapabilities", `{"jsonrpc":"2.0","id":104,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, 400, `"id":104,"error":{"code":-32602`},
	}
	for _, tc := range cases {
		r := post(t, ts, "POST", tc.body, tc.header)
		if r.status != tc.status || !strings.Contains(r.body, tc.want) {
			t.Errorf("%s: %d %s; want %d and %s", tc.name, r.status, r.body, tc.status, tc.want)
		}
	}
}

// TestHTTPLoopGuardHoldsAcrossRequests: identical calls from one client,
// each in a request of its own, are refused as a loop past the limit.
func TestHTTPLoopGuardHoldsAcrossRequests(t *testing.T) {
	ts, _ := httpTestServer(t, Options{MaxRepeats: 2}, HTTPOptions{})
	for i := 1; i <= 3; i++ {
		r := post(t, ts, "POST", httpCall, nil)
		refused := strings.Contains(r.body, "with the same arguments 3 times in a row")
		if r.status != 200 || refused != (i == 3) {
			t.Fatalf("call %d: %d %s", i, r.status, r.body)
		}
	}
}

// waitForGoroutines fails t unless, within five seconds, no more than two
// goroutines are running beyond the before counted at its start: the
// exchanges it made have left nothing behind.
func waitForGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutines: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAnHTTPCallAnsweredWhileItsToolRunsClosesItsConnectionAndNoOtherDoes:
// the handler's goroutine waits for a tool that ignores its deadline, so
// the timeout's reply asks the client to close the connection; a reply
// whose call has ended keeps it open for the next request.
func TestAnHTTPCallAnsweredWhileItsToolRunsClosesItsConnectionAndNoOtherDoes(t *testing.T) {
	srv := New(Options{Logger: nopLogger(), ToolTimeout: 50 * time.Millisecond, MaxRepeats: -1})
	release := make(chan struct{})
	if err := AddTool(srv, ToolSpec{Name: "stubborn", Description: "Ignores its context."},
		func(_ context.Context, _ *Call, in httpEchoIn) (httpEchoOut, error) {
			if in.Text == "wait" {
				<-release
			}
			return httpEchoOut(in), nil
		}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(release) }) // first: the tool returns, then the server closes
	call := func(text string) (*http.Response, string) {
		req, err := http.NewRequest("POST", ts.URL, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","arguments":{"text":"`+text+`"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(b)
	}
	if resp, body := call("now"); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"text":"now"`) || resp.Close {
		t.Fatalf("a call that ended: %d, close %v: %s", resp.StatusCode, resp.Close, body)
	}
	if resp, body := call("wait"); !strings.Contains(body, "50ms") || !resp.Close {
		t.Fatalf("a call answered while its tool runs: %d, close %v: %s", resp.StatusCode, resp.Close, body)
	}
}
