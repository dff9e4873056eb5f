package server_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

type twoReserveArgs struct {
	First  int64 `json:"first" description:"f"`
	Second int64 `json:"second" description:"s"`
}

// TestReviewGrowingReservationsDoNotDeadlock: two calls that reserve in
// steps (as grep does, growing its buffer to the largest file) must not
// wait for each other forever. Each held its first reservation while it
// waited for its second, so once the first ones filled the budget
// neither could go on until its timeout.
func TestGrowingReservationsDoNotDeadlock(t *testing.T) {
	srv := server.New(server.Options{MemoryBudget: 10, ToolTimeout: 2 * time.Second})
	var first sync.WaitGroup
	first.Add(2)
	err := server.AddTool(srv, server.ToolSpec{Name: "grow", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in twoReserveArgs) (Greeting, error) {
			if err := call.Reserve(ctx, in.First); err != nil {
				return Greeting{}, err
			}
			first.Done()
			first.Wait() // both hold their first reservation: the budget is full
			if err := call.Reserve(ctx, in.Second); err != nil {
				return Greeting{}, err
			}
			return Greeting{Text: "ok"}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]*server.CallToolResult, 2)
	for i, a := range []string{`{"first":6,"second":4}`, `{"first":4,"second":6}`} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _ = srv.CallTool(context.Background(), "grow", []byte(a))
		}()
	}
	wg.Wait()
	for i, res := range results {
		if res == nil || res.IsError {
			t.Errorf("call %d: %+v", i, res)
		}
	}
}
