package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

type flakyArgs struct {
	Fail int `json:"fail" minimum:"0" description:"How many times to fail first."`
}

type flakyOut struct {
	Tries int `json:"tries" description:"Attempts made."`
}

// flaky registers a tool that fails with err the first n times it runs
// per call, and records the waits between tries instead of sleeping.
func flaky(t *testing.T, spec ToolSpec, err error) (*Server, *[]time.Duration) {
	srv := New(Options{})
	var waits []time.Duration
	srv.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	tries := 0
	if e := AddTool(srv, spec, func(ctx context.Context, call *Call, in flakyArgs) (flakyOut, error) {
		tries++
		if tries <= in.Fail {
			return flakyOut{}, err
		}
		return flakyOut{Tries: tries}, nil
	}); e != nil {
		t.Fatal(e)
	}
	return srv, &waits
}

func TestTransientFailuresAreRetriedWithBackoff(t *testing.T) {
	srv, waits := flaky(t, ToolSpec{Name: "f", Description: "d", Level: security.Read}, Transient(errors.New("the file is busy")))
	res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":2}`))
	if res.IsError || res.Content[0].Text() != `{"tries":3}` {
		t.Fatalf("%+v", res)
	}
	if len(*waits) != 2 {
		t.Fatalf("waits %v", *waits)
	}
	for i, w := range *waits {
		base := retryBase << i
		if w < base/2 || w > base {
			t.Errorf("wait %d is %v, want between %v and %v", i, w, base/2, base)
		}
	}
	exec := res.Meta[MetaExecution].(map[string]any)
	if exec["attempts"] != 3 {
		t.Errorf("_meta: %v", res.Meta)
	}
}

func TestRetriesStopAfterTheLastAttempt(t *testing.T) {
	srv, waits := flaky(t, ToolSpec{Name: "f", Description: "d", Attempts: 2}, Transient(errors.New("the file is busy")))
	res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":5}`))
	if !res.IsError || res.Content[0].Text() != "the file is busy" || len(*waits) != 1 {
		t.Fatalf("%+v, waits %v", res, *waits)
	}
}

func TestWhatIsNeverRetried(t *testing.T) {
	cases := []struct {
		name string
		spec ToolSpec
		err  error
		args string
	}{
		{"a permanent error", ToolSpec{Name: "f", Description: "d"}, errors.New("no such file"), `{"fail":1}`},
		{"a write that is not idempotent", ToolSpec{Name: "f", Description: "d", Level: security.Write}, Transient(errors.New("busy")), `{"fail":1}`},
		{"invalid arguments", ToolSpec{Name: "f", Description: "d"}, Transient(errors.New("busy")), `{"fail":-1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, waits := flaky(t, tc.spec, tc.err)
			res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(tc.args))
			if !res.IsError || len(*waits) != 0 || res.Meta[MetaExecution] != nil {
				t.Fatalf("%+v, waits %v", res, *waits)
			}
		})
	}
	srv, waits := flaky(t, ToolSpec{Name: "f", Description: "d", Level: security.Write, Idempotent: true}, Transient(errors.New("busy")))
	if res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":1}`)); res.IsError || len(*waits) != 1 {
		t.Fatalf("an idempotent write should be retried: %+v", res)
	}
}

func TestATimeoutIsNeverRetried(t *testing.T) {
	srv := New(Options{ToolTimeout: 20 * time.Millisecond})
	tries := 0
	_ = AddTool(srv, ToolSpec{Name: "slow", Description: "d"}, func(ctx context.Context, call *Call, in flakyArgs) (flakyOut, error) {
		tries++
		<-ctx.Done()
		return flakyOut{}, Transient(ctx.Err())
	})
	res, _ := srv.CallTool(context.Background(), "slow", json.RawMessage(`{"fail":0}`))
	if !strings.Contains(res.Content[0].Text(), "did not finish within 20ms") || tries != 1 {
		t.Fatalf("tries %d: %+v", tries, res)
	}
}

func TestATryGivesBackTheMemoryItReservedBeforeTheNext(t *testing.T) {
	// Each try reserves what it reads; a failed try's data is dropped, so
	// the next must not hold it too: three tries of 400 bytes hold 400
	// bytes, not 1200 (or, capped, the whole budget, which other calls
	// would wait for).
	srv := New(Options{MemoryBudget: 1000})
	srv.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	var held []int64
	tries := 0
	if err := AddTool(srv, ToolSpec{Name: "f", Description: "d", Level: security.Read}, func(ctx context.Context, call *Call, in flakyArgs) (flakyOut, error) {
		tries++
		if err := call.Reserve(ctx, 400); err != nil {
			return flakyOut{}, err
		}
		call.mu.Lock()
		held = append(held, call.reserved)
		call.mu.Unlock()
		if tries <= in.Fail {
			return flakyOut{}, Transient(errors.New("the file is busy"))
		}
		return flakyOut{Tries: tries}, nil
	}); err != nil {
		t.Fatal(err)
	}
	res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":2}`))
	if res.IsError {
		t.Fatalf("%+v", res)
	}
	for i, n := range held {
		if n != 400 {
			t.Errorf("try %d held %d bytes, want 400", i+1, n)
		}
	}
	if !srv.budget.TryAcquire(1000) {
		t.Fatal("the budget was not given back whole after the call")
	}
}

func TestATryGivesBackOnlyTheMemoryItReservedItself(t *testing.T) {
	// A policy around the tool reserves 300 bytes for the whole call;
	// each failed try gives back its own 400 and nothing of the policy's,
	// so every try holds 700, and the call gives back all of it at its end.
	holdForCall := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, c *Call) (*CallToolResult, error) {
			if err := c.Reserve(ctx, 300); err != nil {
				return nil, err
			}
			return next(ctx, c)
		}
	}
	srv := New(Options{MemoryBudget: 1000, Policies: []Policy{holdForCall}})
	srv.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	var held []int64
	tries := 0
	if err := AddTool(srv, ToolSpec{Name: "f", Description: "d", Level: security.Read}, func(ctx context.Context, call *Call, in flakyArgs) (flakyOut, error) {
		tries++
		if err := call.Reserve(ctx, 400); err != nil {
			return flakyOut{}, err
		}
		call.mu.Lock()
		held = append(held, call.reserved)
		call.mu.Unlock()
		if tries <= in.Fail {
			return flakyOut{}, Transient(errors.New("the file is busy"))
		}
		return flakyOut{Tries: tries}, nil
	}); err != nil {
		t.Fatal(err)
	}
	res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":2}`))
	if res.IsError || len(held) != 3 {
		t.Fatalf("%d tries: %+v", len(held), res)
	}
	for i, n := range held {
		if n != 700 {
			t.Errorf("try %d held %d bytes, want 700", i+1, n)
		}
	}
	if !srv.budget.TryAcquire(1000) {
		t.Fatal("the budget was not given back whole after the call")
	}
}

// TestACallTriedOnceCarriesNoRecordOfTries: a transient failure whose
// wait before the next try is cut short (the call ran out of time, or was
// cancelled) ran once, and its result says nothing of tries; one tried
// again says how often.
func TestACallTriedOnceCarriesNoRecordOfTries(t *testing.T) {
	srv, _ := flaky(t, ToolSpec{Name: "f", Description: "d", Level: security.Read}, Transient(errors.New("the file is busy")))
	srv.sleep = func(context.Context, time.Duration) error { return context.Canceled }
	res, _ := srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":1}`))
	if _, ok := res.Meta[MetaExecution]; ok || !res.IsError {
		t.Fatalf("a call tried once: %+v", res)
	}
	srv, _ = flaky(t, ToolSpec{Name: "f", Description: "d", Level: security.Read}, Transient(errors.New("the file is busy")))
	res, _ = srv.CallTool(context.Background(), "f", json.RawMessage(`{"fail":1}`))
	if ex, ok := res.Meta[MetaExecution].(map[string]any); !ok || ex["attempts"] != 2 || res.IsError {
		t.Fatalf("a call tried twice: %+v", res)
	}
}
