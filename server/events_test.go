package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// reviewSpans is a Tracer that keeps every span.
type reviewSpans struct {
	mu    sync.Mutex
	spans []*server.CallSpan
}

func (r *reviewSpans) CallTraced(s *server.CallSpan) {
	r.mu.Lock()
	r.spans = append(r.spans, s)
	r.mu.Unlock()
}

func (r *reviewSpans) all() []*server.CallSpan {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*server.CallSpan(nil), r.spans...)
}

func reviewStages(s *server.CallSpan) string {
	var names []string
	for _, st := range s.Stages {
		names = append(names, st.Name)
	}
	return strings.Join(names, ",")
}

type reviewCountArgs struct {
	N int `json:"n" description:"A number."`
}

type reviewCountOut struct {
	Tries int `json:"tries" description:"The tries made."`
}

// A call retried after transient failures validates its arguments once
// and runs one execute stage, which covers every attempt, as before the
// policies: the retries are of the tool's function, not of validation.
func TestARetriedCallHasOneValidateAndOneExecuteStage(t *testing.T) {
	rec := &reviewSpans{}
	srv := server.New(server.Options{Tracer: rec})
	var mu sync.Mutex
	tries := 0
	_ = server.AddTool(srv, server.ToolSpec{Name: "flaky", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in reviewCountArgs) (reviewCountOut, error) {
			mu.Lock()
			defer mu.Unlock()
			tries++
			if tries < 3 {
				return reviewCountOut{}, server.Transient(errors.New("busy"))
			}
			return reviewCountOut{Tries: tries}, nil
		})
	p := connect(t, context.Background(), srv)
	p.handshake()
	if r := p.call("1", "flaky", `{"n":1}`); !r.ok() {
		t.Fatalf("the call failed: %s", r.line)
	}
	spans := rec.all()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	if got := reviewStages(spans[0]); got != "parse,validate,execute" || spans[0].Attempts != 3 {
		t.Errorf("stages %s, attempts %d; want parse,validate,execute after 3 attempts", got, spans[0].Attempts)
	}
}

// reviewLog is a log sink safe for the logger's concurrent writes.
type reviewLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *reviewLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *reviewLog) lines() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// A call that runs out of time is logged as such, whatever it was doing
// when its time was up: here, waiting in line behind a write to the same
// path that ignores its own deadline.
func TestATimeoutIsLoggedWhereverTheCallWas(t *testing.T) {
	var logs reviewLog
	srv := server.New(server.Options{Logger: zerolog.New(&logs).Level(zerolog.InfoLevel), MaxRepeats: -1})
	gate := make(chan struct{})
	_ = server.AddTool(srv, server.ToolSpec{Name: "w", Description: "d", Level: security.Write, Targets: []string{"path"}, Timeout: 100 * time.Millisecond},
		func(ctx context.Context, call *server.Call, in taggedArgs) (taggedOut, error) {
			if in.Tag == "hold" {
				<-gate // ignores its deadline
			}
			return taggedOut{Tag: in.Tag}, nil
		})
	p := connect(t, context.Background(), srv)
	p.handshake()
	p.send(callLine(`"a"`, "w", `{"path":"f.txt","tag":"hold"}`))
	p.send(callLine(`"b"`, "w", `{"path":"f.txt","tag":"next"}`))
	for range 2 {
		if r := p.recvResponse(); !r.toolFailed() || !strings.Contains(r.text(), "did not finish within") {
			t.Fatalf("want a timeout, got %s", r.line)
		}
	}
	close(gate)
	p.ping()
	timedOut := map[string]bool{}
	for _, l := range logs.lines() {
		if l["status"] == "timeout" && l["level"] == "warn" {
			id, _ := l["id"].(string)
			timedOut[id] = true
		}
		if l["status"] == "invalid" {
			t.Errorf("a timeout logged as invalid arguments: %v", l)
		}
	}
	if !timedOut["a"] || !timedOut["b"] {
		t.Errorf("timeout lines for %v; want a and b", timedOut)
	}
}
