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

// modernMeta is the _meta of a request of MCP 2026-07-28, with extra
// members.
func modernMeta(extra string) string {
	m := `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`
	if extra != "" {
		m += "," + extra
	}
	return `"_meta":{` + m + `}`
}

func modernServer(t *testing.T, opts server.Options) *server.Server {
	t.Helper()
	opts.Version, opts.Instructions = "1.0.0", "Be careful."
	srv := server.New(opts)
	err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "Greets.", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			call.Log(server.LevelDebug, "debug line")
			call.Log(server.LevelWarning, "warning line")
			return Greeting{Text: "Hello, " + in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"two", "three"} {
		if err := server.AddTool(srv, server.ToolSpec{Name: name, Description: "d", Level: security.Read},
			func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) { return Greeting{}, nil }); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// TestModernRequestsAreServedFromTheRequestAlone plays requests of MCP
// 2026-07-28 with no handshake: each line is one request and the exact
// line it must get back.
func TestModernRequestsAreServedFromTheRequestAlone(t *testing.T) {
	si := `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"toolserver","title":"toolserver","version":"1.0.0"}}`
	cases := []struct{ name, send, want string }{
		{"discover",
			`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta("") + `}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"tools":{}},"instructions":"Be careful.","ttlMs":3600000,"cacheScope":"public",` + si + `}}`},
		{"a call",
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},` + modernMeta("") + `}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"text\":\"Hello, Ada\"}"}],"structuredContent":{"text":"Hello, Ada"},` + si + `}}`},
		{"invalid arguments keep their problems beside serverInfo",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{},` + modernMeta("") + `}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"missing required argument \"name\" (a string); add it"}],"isError":true,"_meta":{"io.github.stdiotools/problems":[{"kind":"missing_required","message":"missing required argument \"name\" (a string); add it","path":"name","rule":"required"}],"io.modelcontextprotocol/serverInfo":{"name":"toolserver","title":"toolserver","version":"1.0.0"}}}}`},
		{"no clientCapabilities",
			`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: a 2026-07-28 request needs _meta[\"io.modelcontextprotocol/clientCapabilities\"], an object of the client's capabilities (it may be {})"}}`},
		{"an unknown version",
			`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version \"2099-01-01\"; this server speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05","data":{"requested":"2099-01-01","supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"]}}}`},
		{"ping is removed",
			`{"jsonrpc":"2.0","id":6,"method":"ping","params":{` + modernMeta("") + `}}`,
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"Method not found: ping is not part of MCP 2026-07-28; send server/discover, tools/list or tools/call"}}`},
		{"initialize is removed",
			`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{` + modernMeta("") + `}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found: initialize is not part of MCP 2026-07-28; send server/discover, tools/list or tools/call"}}`},
		{"a bad logLevel",
			`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},` + modernMeta(`"io.modelcontextprotocol/logLevel":"loud"`) + `}}`,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: _meta[\"io.modelcontextprotocol/logLevel\"] must be one of debug, info, notice, warning, error, critical, alert, emergency"}}`},
	}
	c := servertest.Connect(t, modernServer(t, server.Options{}))
	for _, tc := range cases {
		c.Send(tc.send)
		if got := c.Recv(); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
}

// TestModernLogsOnlyWhenTheRequestAsks: no log message without the
// request's logLevel, and with it only those at or above it, before the
// response.
func TestModernLogsOnlyWhenTheRequestAsks(t *testing.T) {
	c := servertest.Connect(t, modernServer(t, server.Options{}))
	c.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},` + modernMeta("") + `}}`)
	if got := c.Recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":`) {
		t.Fatalf("want the response alone, got %s", got)
	}
	c.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},` + modernMeta(`"io.modelcontextprotocol/logLevel":"info"`) + `}}`)
	if got := c.Recv(); got != `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"greet","data":"warning line"}}` {
		t.Fatalf("want the warning alone, got %s", got)
	}
	if got := c.Recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":2,"result":`) {
		t.Fatalf("want the response, got %s", got)
	}
}

// TestModernToolsListPagesCarryCachingHints: every page has resultType,
// ttlMs, cacheScope and serverInfo, and its cursor works.
func TestModernToolsListPagesCarryCachingHints(t *testing.T) {
	c := servertest.Connect(t, modernServer(t, server.Options{PageSize: 2}))
	var names []string
	cursor := ""
	for page := 0; page < 3; page++ {
		params := `{` + modernMeta("")
		if cursor != "" {
			params += `,"cursor":"` + cursor + `"`
		}
		c.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":` + params + `}}`)
		var r struct {
			Result struct {
				ResultType string        `json:"resultType"`
				Tools      []server.Tool `json:"tools"`
				NextCursor string        `json:"nextCursor"`
				TTL        *int          `json:"ttlMs"`
				CacheScope string        `json:"cacheScope"`
				Meta       map[string]json.RawMessage
			} `json:"result"`
		}
		line := c.Recv()
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		res := r.Result
		if res.ResultType != "complete" || res.TTL == nil || *res.TTL < 0 || res.CacheScope != "public" || !strings.Contains(line, `"_meta":{"io.modelcontextprotocol/serverInfo":`) {
			t.Fatalf("page %d: %s", page, line)
		}
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if strings.Join(names, ",") != "greet,two,three" {
		t.Fatalf("tools: %v", names)
	}
}

// TestModernAndLegacyShareNoState: a legacy session's log level does not
// reach a modern call, and a modern request needs no handshake.
func TestModernAndLegacyShareNoState(t *testing.T) {
	c := servertest.Start(t, modernServer(t, server.Options{}))
	if r := c.Request("logging/setLevel", map[string]string{"level": "debug"}); r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	c.Send(`{"jsonrpc":"2.0","id":"m","method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},` + modernMeta("") + `}}`)
	if got := c.Recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"m","result":{"resultType":"complete"`) {
		t.Fatalf("a modern call got the legacy session's log messages or a legacy result: %s", got)
	}
	// A legacy call on the same process still gets the session's logs.
	c.Send(`{"jsonrpc":"2.0","id":"l","method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`)
	if got := c.Recv(); !strings.Contains(got, `"level":"debug"`) {
		t.Fatalf("want the legacy session's debug message, got %s", got)
	}
}

// TestNothingFollowsACancellation: once the client cancels a call,
// nothing more is sent about it, progress included, in either era.
func TestNothingFollowsACancellation(t *testing.T) {
	for _, meta := range []string{`"_meta":{"progressToken":"p"}`, `"_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`} {
		started, sent := make(chan struct{}), make(chan bool, 1)
		srv := server.New(server.Options{})
		err := server.AddTool(srv, server.ToolSpec{Name: "slow", Description: "d", Level: security.Read},
			func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
				close(started)
				<-ctx.Done()
				sent <- call.Progress(1, 2, "after the cancel")
				return Greeting{}, ctx.Err()
			})
		if err != nil {
			t.Fatal(err)
		}
		c := servertest.Start(t, srv)
		c.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"name":"x"},` + meta + `}}`)
		<-started
		c.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
		if <-sent {
			t.Errorf("%s: progress was sent after the cancellation", meta)
		}
		c.Send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		if got := c.Recv(); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
			t.Errorf("%s: want only the ping's answer, got %s", meta, got)
		}
	}
}
