package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func TestEachStageOfACallIsLoggedWithItsIDAndTrace(t *testing.T) {
	var logs syncBuffer
	srv := New(Options{Logger: zerolog.New(&logs).Level(zerolog.DebugLevel)})
	_ = AddTool(srv, ToolSpec{Name: "point", Description: "d"}, func(ctx context.Context, call *Call, in pointArgs) (pointArgs, error) {
		return in, nil
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"point","arguments":{"x":1,"y":2}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","id":"a2","method":"tools/call","params":{"name":"point","arguments":{"x":"no"}}}`)
	c.recv()
	c.quiet()
	stages := map[string]map[string]any{}
	var trace any
	raw := 0
	for _, l := range logs.lines() {
		if l["message"] == "received" || l["message"] == "sent" {
			raw++
		}
		if l["message"] != "call" {
			continue
		}
		stages[l["id"].(string)+"/"+l["stage"].(string)] = l
		if trace == nil {
			trace = l["trace"]
		} else if l["trace"] != trace {
			t.Errorf("two traces in one session: %v and %v", trace, l["trace"])
		}
	}
	if s, _ := trace.(string); s == "" {
		t.Errorf("the call lines carry no trace: %v", trace)
	}
	for _, key := range []string{"a1/parse", "a1/validate", "a1/execute", "a1/respond", "a2/parse", "a2/validate"} {
		if stages[key] == nil {
			t.Errorf("no %s line in %v", key, stages)
		}
	}
	if v := stages["a2/validate"]; v != nil && (v["status"] != "invalid" || v["args"] == nil || v["level"] != "warn") {
		t.Errorf("a refused call's validate line: %v", v)
	}
	if e := stages["a1/execute"]; e != nil && (e["status"] != "ok" || e["attempts"] != float64(1)) {
		t.Errorf("execute line: %v", e)
	}
	if stages["a1/validate"]["args_hash"] == nil {
		t.Error("no hash of the arguments")
	}
	if raw < 6 {
		t.Errorf("debug level should show the raw messages, saw %d", raw)
	}
}

func TestTheValidateLineCarriesTheArgumentsOnlyWhenRefusedOrAtDebugLevel(t *testing.T) {
	cases := []struct {
		name                 string
		level                zerolog.Level
		params               string
		wantArgs, wantPrefix bool
	}{
		{"accepted, at info level", zerolog.InfoLevel, `{"name":"point","arguments":{"x":1,"y":2}}`, false, false},
		{"refused, at info level", zerolog.InfoLevel, `{"name":"point","arguments":{"x":"no"}}`, true, false},
		{"accepted, at debug level", zerolog.DebugLevel, `{"name":"point","arguments":{"x":1,"y":2}}`, true, false},
		{"without arguments, at debug level", zerolog.DebugLevel, `{"name":"point"}`, false, false},
		// The arguments whole up to maxLogged bytes, a prefix beyond.
		{"arguments of maxLogged bytes", zerolog.DebugLevel, `{"name":"point","arguments":` + argsOfBytes(maxLogged) + `}`, true, false},
		{"arguments of a byte more", zerolog.DebugLevel, `{"name":"point","arguments":` + argsOfBytes(maxLogged+1) + `}`, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			srv := New(Options{Logger: zerolog.New(&logs).Level(tc.level)})
			_ = AddTool(srv, ToolSpec{Name: "point", Description: "d"}, func(ctx context.Context, call *Call, in pointArgs) (pointArgs, error) {
				return in, nil
			})
			c := serve(t, srv)
			c.initialize()
			c.send(`{"jsonrpc":"2.0","id":"v","method":"tools/call","params":` + tc.params + `}`)
			c.recv()
			c.quiet()
			var line map[string]any
			for _, l := range logs.lines() {
				if l["message"] == "call" && l["stage"] == "validate" {
					line = l
				}
			}
			if line == nil {
				t.Fatalf("no validate line in %v", logs.lines())
			}
			_, args := line["args"]
			_, prefix := line["args_prefix"]
			if args != tc.wantArgs || prefix != tc.wantPrefix {
				t.Fatalf("args logged %v, prefix logged %v, want %v and %v: %v", args, prefix, tc.wantArgs, tc.wantPrefix, line)
			}
		})
	}
}

// argsOfBytes returns the arguments of a point call as JSON of n bytes.
func argsOfBytes(n int) string {
	const head, tail = `{"x":1,"y":2,"tag":"`, `"}`
	return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
}
