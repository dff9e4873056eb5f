package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

type servedIn struct {
	Text string `json:"text" description:"Any text."`
}

type servedOut struct {
	Text string `json:"text" description:"The text."`
}

// servedServer adds the tools a, b and c to a server of opts.
func servedServer(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Logger = nopLogger()
	srv := New(opts)
	for _, name := range []string{"a", "b", "c"} {
		if err := AddTool(srv, ToolSpec{Name: name, Description: "Echoes."},
			func(_ context.Context, _ *Call, in servedIn) (servedOut, error) { return servedOut(in), nil }); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func TestToolsAndDisableToolsChooseWhatIsServed(t *testing.T) {
	cases := []struct {
		name       string
		tools, off []string
		want       []string
		unknown    string // the error of CheckToolNames, or ""
	}{
		{"all by default", nil, nil, []string{"a", "b", "c"}, ""},
		{"only those named", []string{"c", "a"}, nil, []string{"a", "c"}, ""},
		{"all but those disabled", nil, []string{"b"}, []string{"a", "c"}, ""},
		{"both: named and not disabled", []string{"a", "b"}, []string{"b"}, []string{"a"}, ""},
		{"every tool disabled", nil, []string{"a", "b", "c"}, []string{}, ""},
		{"unknown names, once each, in order", []string{"a", "zz", "y", "zz"}, []string{"x", "b"}, []string{"a"}, `no tools are called "zz", "y", "x"; the tools are a, b, c`},
		{"one unknown name", nil, []string{"B"}, []string{"a", "b", "c"}, `no tool is called "B"; the tools are a, b, c`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := servedServer(t, Options{Tools: c.tools, DisableTools: c.off})
			var got []string
			for _, tl := range srv.Tools() {
				got = append(got, tl.Name)
			}
			if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("served %v, want %v", got, c.want)
			}
			for _, name := range []string{"a", "b", "c"} {
				if srv.Serves(name) != slices.Contains(c.want, name) {
					t.Errorf("Serves(%q) = %v, want %v", name, srv.Serves(name), !srv.Serves(name))
				}
			}
			err := srv.CheckToolNames()
			if got := fmt.Sprint(err); (err != nil || c.unknown != "") && got != c.unknown {
				t.Errorf("CheckToolNames = %v, want %s", err, c.unknown)
			}
		})
	}
}

func TestAToolLeftOutIsUnknownToACallAndStillNamedOnce(t *testing.T) {
	srv := servedServer(t, Options{DisableTools: []string{"b"}})
	if err := AddTool(srv, ToolSpec{Name: "b", Description: "Again."},
		func(_ context.Context, _ *Call, in servedIn) (servedOut, error) { return servedOut(in), nil }); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("a second tool b: %v", err)
	}
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if r := c.recv(); strings.Contains(r, `"name":"b"`) || !strings.Contains(r, `"name":"c"`) {
		t.Fatalf("tools/list: %s", r)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b","arguments":{"text":"x"}}}`)
	if r := c.recv(); !strings.Contains(r, `unknown tool \"b\"; available tools: a, c`) {
		t.Fatalf("a call of b: %s", r)
	}
}
