package server_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

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
func TestReviewARetriedCallHasOneValidateAndOneExecuteStage(t *testing.T) {
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
