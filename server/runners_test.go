package server

import (
	"testing"
	"time"
)

// idleRunners waits until the server keeps want idle runners of Call.Go,
// and reports whether it came to that within a second.
func idleRunners(r *runners, want int32) bool {
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if r.idle.Load() == want {
			return true
		}
	}
	return false
}

// TestCallGoRunsOnTheRunnerItKeptIdle: the goroutine that ran a call's
// function waits for the next one rather than ending, as many of them as
// MaxInFlight, and the next function runs on it, leaving it idle again.
func TestCallGoRunsOnTheRunnerItKeptIdle(t *testing.T) {
	srv := New(Options{MaxInFlight: 1})
	c := &Call{srv: srv}
	for i := range 3 {
		ran := false
		<-c.Go(func() { ran = true })
		if !ran {
			t.Fatalf("call %d: the function did not run", i+1)
		}
		if !idleRunners(srv.runners, 1) {
			t.Fatalf("after call %d: %d idle runners, want the 1 MaxInFlight allows", i+1, srv.runners.idle.Load())
		}
	}
}
