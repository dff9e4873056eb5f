package servertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

type shoutArgs struct {
	Text string `json:"text" chars:"text" minLength:"1" description:"What to shout."`
}

type shoutResult struct {
	Text string `json:"text" description:"The text in capitals."`
}

func shoutServer(t *testing.T) *server.Server {
	srv := server.New(server.Options{})
	err := server.AddTool(srv, server.ToolSpec{Name: "shout", Description: "Shouts.", Level: security.Read},
		func(ctx context.Context, call *server.Call, in shoutArgs) (shoutResult, error) {
			return shoutResult{Text: strings.ToUpper(in.Text)}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestMatchTreatsAnyAsAnyText(t *testing.T) {
	cases := []struct {
		want, got string
		ok        bool
	}{
		{`{"a":1}`, `{"a":1}`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"v":"{{any}}"}`, `{"v":"1.2.3"}`, true},
		{`{"v":"{{any}}"}`, `{"v":""}`, true},
		{`{"v":"{{any}}"}`, `{"w":"1"}`, false},
		{`{{any}}`, `anything`, true},
		{`a{{any}}b{{any}}c`, `a-b-b-c`, true},
		{`a{{any}}b{{any}}c`, `a-c-b`, false},
		{`ab{{any}}ba`, `aba`, false}, // the prefix and suffix must not overlap
		{`x{{any}}`, `y`, false},
	}
	for _, tc := range cases {
		if got := Match(tc.want, tc.got); got != tc.ok {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.ok)
		}
	}
}

func TestATranscriptIsPlayedInMemory(t *testing.T) {
	RunTranscript(t, shoutServer(t), "testdata/shout.txt")
}

func TestTheClientDoesTheHandshakeAndCallsTools(t *testing.T) {
	c := Start(t, shoutServer(t))
	tools := c.Tools()
	if len(tools) != 1 || tools[0].Name != "shout" || !tools[0].Annotations.ReadOnlyHint {
		t.Fatalf("tools: %+v", tools)
	}
	if res := c.CallTool("shout", map[string]any{"text": "a<b"}); res.IsError || res.Text() != `{"text":"A<B"}` || string(res.StructuredContent) != `{"text":"A<B"}` {
		t.Fatalf("result: %+v", res)
	}
	res := c.CallTool("shout", nil)
	if !res.IsError || !strings.Contains(res.Text(), `missing required argument "text"`) || res.Meta["io.github.stdiotools/problems"] == nil {
		t.Fatalf("result: %+v", res)
	}
	if r := c.Request("tools/call", map[string]any{"name": "whisper"}); r.Error == nil || r.Error.Code != -32602 {
		t.Fatalf("unknown tool: %+v", r)
	}
}

func TestUpdateRewritesOnlyTheLinesThatDiffer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.txt")
	orig := strings.Join([]string{
		"# kept",
		`> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`< {"jsonrpc":"2.0","id":0,"result":{{any}}}`,
		`> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"shout","arguments":{"text":"hi"}}}`,
		`< {"jsonrpc":"2.0","id":1,"result":"stale"}`,
		`> {"jsonrpc":"2.0","id":2,"method":"ping"}`,
	}, "\n") + "\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	*update = true
	defer func() { *update = false }()
	RunTranscript(t, shoutServer(t), path)
	got, _ := os.ReadFile(path)
	want := strings.Replace(orig, `< {"jsonrpc":"2.0","id":1,"result":"stale"}`,
		`< {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"text\":\"HI\"}"}],"structuredContent":{"text":"HI"}}}`, 1) +
		`< {"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	if string(got) != want {
		t.Fatalf("rewritten transcript:\n%s\nwant:\n%s", got, want)
	}
	*update = false
	RunTranscript(t, shoutServer(t), path) // and it now passes as it is
}

func TestAMismatchNamesTheFileAndLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.txt")
	_ = os.WriteFile(path, []byte("> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n< {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}\n"), 0o644)
	ft := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		RunTranscript(ft, shoutServer(t), path)
	}()
	<-done
	if !strings.Contains(ft.msg, "t.txt:2:") || !strings.Contains(ft.msg, `"result":{}`) {
		t.Fatalf("failure message: %q", ft.msg)
	}
}

// fakeT records a fatal failure instead of failing the test.
type fakeT struct {
	testing.TB
	msg string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
