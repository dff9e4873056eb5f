package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type yieldIn struct {
	Tag string `json:"tag" description:"A tag."`
}

type yieldOut struct {
	Tag string `json:"tag" description:"The tag."`
}

// TestACallWaitingForAnIdenticalOneGivesBackItsSlot: with one slot, a
// cached read (the leader) waits for memory without its slot; an
// identical read (the follower) takes the slot and waits for the leader's
// result. The follower must give the slot back while it waits, or the
// leader, once its memory is free, never gets one again.
func TestACallWaitingForAnIdenticalOneGivesBackItsSlot(t *testing.T) {
	srv := New(Options{MaxInFlight: 1, MemoryBudget: 100, Logger: nopLogger()})
	letGo := make(chan struct{})
	holding := make(chan struct{})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(AddTool(srv, ToolSpec{Name: "hog", Description: "Holds the whole memory budget."},
		func(ctx context.Context, c *Call, in yieldIn) (yieldOut, error) {
			if err := c.Reserve(ctx, 100); err != nil {
				return yieldOut{}, err
			}
			close(holding)
			<-letGo
			return yieldOut(in), nil
		}))
	must(AddTool(srv, ToolSpec{Name: "cached", Description: "A cached read that needs memory.", CacheTTL: time.Minute, Timeout: 5 * time.Second},
		func(ctx context.Context, c *Call, in yieldIn) (yieldOut, error) {
			if err := c.Reserve(ctx, 50); err != nil {
				return yieldOut{}, err
			}
			return yieldOut(in), nil
		}))
	go func() { _, _ = srv.CallTool(context.Background(), "hog", []byte(`{"tag":"h"}`)) }() // no slot: it holds memory only
	<-holding
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"cached","arguments":{"tag":"c"}}}`
	answers := make(chan string, 2)
	go func() { answers <- post(t, ts, "POST", body, nil).body }()
	waitFor(t, func() bool { // the leader waits for memory
		srv.cache.mu.Lock()
		defer srv.cache.mu.Unlock()
		return len(srv.cache.flights) == 1
	})
	go func() { answers <- post(t, ts, "POST", body, nil).body }()
	time.Sleep(100 * time.Millisecond) // the follower waits for the leader (arriving later, it would find the result cached and pass anyway)
	close(letGo)
	for range 2 {
		if a := <-answers; !strings.Contains(a, `"tag":"c"`) {
			t.Fatalf("want both answered from one run, got %s", a)
		}
	}
}

// TestACallCancelledWhileInLineNeverRuns: a call that waits in line for
// a slot, and whose HTTP client leaves meanwhile, is taken out without
// its tool running: a change nobody waits for any more is not made.
func TestACallCancelledWhileInLineNeverRuns(t *testing.T) {
	srv := New(Options{MaxInFlight: 1, Logger: nopLogger()})
	hold := make(chan struct{})
	started := make(chan struct{})
	var ran atomic.Bool
	if err := AddTool(srv, ToolSpec{Name: "hold", Description: "Holds the slot."},
		func(ctx context.Context, _ *Call, in yieldIn) (yieldOut, error) {
			close(started)
			<-hold
			return yieldOut(in), nil
		}); err != nil {
		t.Fatal(err)
	}
	if err := AddTool(srv, ToolSpec{Name: "change", Description: "Changes something."},
		func(ctx context.Context, _ *Call, in yieldIn) (yieldOut, error) {
			ran.Store(true)
			return yieldOut(in), nil
		}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	defer ts.Close()
	held := make(chan string, 1)
	go func() {
		held <- post(t, ts, "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{"tag":"h"}}}`, nil).body
	}()
	<-started
	ctx, leave := context.WithCancel(context.Background())
	left := make(chan struct{})
	go func() {
		defer close(left)
		_, _ = postCtx(ctx, ts, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"change","arguments":{"tag":"x"}}}`)
	}()
	waitFor(t, func() bool { _, queued, _ := Held(&Call{srv: srv}); return queued == 1 })
	leave()
	<-left
	waitFor(t, func() bool { // the server has seen its client leave
		srv.lineMu.Lock()
		defer srv.lineMu.Unlock()
		return len(srv.line.calls) == 1 && srv.line.calls[0].ctx.Err() != nil
	})
	close(hold)
	<-held
	waitFor(t, func() bool { _, queued, _ := Held(&Call{srv: srv}); return queued == 0 })
	// The line is empty and the slot given back: had the call run, it has.
	waitFor(t, func() bool { return len(srv.slots) == 0 })
	if ran.Load() {
		t.Fatal("the change ran after its client had left")
	}
}

// waitFor waits until cond holds, or fails the test after 5 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the condition never held")
		}
	}
}

// postCtx posts body to ts under ctx.
func postCtx(ctx context.Context, ts *httptest.Server, body string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", ts.URL, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
