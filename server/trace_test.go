package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// spanRecorder is a Tracer that keeps every span.
type spanRecorder struct {
	mu    sync.Mutex
	spans []*CallSpan
}

func (r *spanRecorder) CallTraced(s *CallSpan) {
	r.mu.Lock()
	r.spans = append(r.spans, s)
	r.mu.Unlock()
}

func (r *spanRecorder) last(t *testing.T) *CallSpan {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.spans) == 0 {
		t.Fatal("no span recorded")
	}
	return r.spans[len(r.spans)-1]
}

func stageNames(s *CallSpan) string {
	var names []string
	for _, st := range s.Stages {
		n := st.Name
		if st.Error != "" {
			n += "!"
		}
		names = append(names, n)
	}
	return strings.Join(names, ",")
}

func TestEveryCallIsTracedWithItsStages(t *testing.T) {
	rec := &spanRecorder{}
	srv := New(Options{Tracer: rec, ToolTimeout: 50 * time.Millisecond, MaxRepeats: -1})
	_ = AddTool(srv, ToolSpec{Name: "read", Description: "d", CacheTTL: time.Minute, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in readArgs) (writeOut, error) {
		if in.N == 7 {
			return writeOut{}, errorString("seven is not allowed")
		}
		if in.N == 9 {
			<-ctx.Done()
			return writeOut{}, ctx.Err()
		}
		return writeOut{Tag: in.Path}, nil
	})
	_ = AddTool(srv, ToolSpec{Name: "write", Description: "d", Level: security.Write, Targets: []string{"path"}, DryRun: "dry_run"}, func(ctx context.Context, call *Call, in writeDryArgs) (writeOut, error) {
		return writeOut{}, nil
	})
	c := serve(t, srv)
	c.initialize()
	tests := []struct {
		name, line           string
		tool, status, stages string
		cacheHit             bool
	}{
		{"a call that succeeds", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`,
			"read", "ok", "parse,validate,execute", false},
		{"the same call again, from the cache", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"a"}}}`,
			"read", "ok", "parse", true},
		{"invalid arguments", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"path":5}}}`,
			"read", "error", "parse,validate!", false},
		{"a tool error", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read","arguments":{"path":"a","n":7}}}`,
			"read", "error", "parse,validate,execute!", false},
		{"a timeout", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read","arguments":{"path":"a","n":9}}}`,
			"read", "timeout", "parse,validate,execute!", false},
		{"a write, which waits for its turn on the path", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"write","arguments":{"path":"a"}}}`,
			"write", "ok", "parse,wait,validate,execute", false},
		{"an unknown tool", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope"}}`,
			"", "invalid_params", "parse!", false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(tt.line)
			c.recv()
			// The span is handed over before the answer is written.
			rec.mu.Lock()
			n := len(rec.spans)
			rec.mu.Unlock()
			if n != i+1 {
				t.Fatalf("%d spans after %d calls", n, i+1)
			}
			s := rec.last(t)
			if s.Tool != tt.tool || s.Status != tt.status || stageNames(s) != tt.stages || s.CacheHit != tt.cacheHit {
				t.Errorf("span tool %q status %q stages %q hit %v, want %q %q %q %v",
					s.Tool, s.Status, stageNames(s), s.CacheHit, tt.tool, tt.status, tt.stages, tt.cacheHit)
			}
			if s.Start.IsZero() || s.End.Before(s.Start) || s.Session == "" || len(s.RequestID) == 0 {
				t.Errorf("span bounds or ids missing: %+v", s)
			}
			for _, st := range s.Stages {
				if st.Start.Before(s.Start) || st.End.After(s.End) || st.End.Before(st.Start) {
					t.Errorf("stage %s [%v, %v] lies outside its call [%v, %v]", st.Name, st.Start, st.End, s.Start, s.End)
				}
			}
			if tt.status != "ok" && s.Error == "" {
				t.Error("a failed call's span has no error text")
			}
		})
	}
	if s := rec.spans[0]; s.TraceParent != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Errorf("traceparent %q not kept", s.TraceParent)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
