package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// This file holds the memory budget (Call.Reserve) and the line of calls
// waiting for a slot to giving back exactly what they took, as numbers
// (server.Held), whatever becomes of the calls.

type holdArgs struct {
	Name  string `json:"name" description:"n"`
	Bytes int64  `json:"bytes" description:"b"`
	Then  string `json:"then" description:"What the call does once it holds its bytes."`
}

// budgetFixture is a server whose tools reserve memory and then succeed,
// fail, panic, block until cancelled, fail as transient, or reserve more.
type budgetFixture struct {
	srv     *server.Server
	last    atomic.Pointer[server.Call] // a call the tools ran, for server.Held
	blocked chan string                 // the name of a call that holds its bytes and blocks
	tries   chan int64                  // what the budget held during each try of a transient failure
}

// newBudgetFixture serves hold, whose calls have the default timeout,
// and hold_briefly, whose calls time out after 100 ms. Both are tried
// three times in all when they fail as transient.
func newBudgetFixture(t *testing.T, opts server.Options) *budgetFixture {
	t.Helper()
	f := &budgetFixture{blocked: make(chan string, 16), tries: make(chan int64, 16)}
	opts.MaxRepeats = -1
	f.srv = server.New(opts)
	run := func(ctx context.Context, call *server.Call, in holdArgs) (Greeting, error) {
		f.last.Store(call)
		if err := call.Reserve(ctx, in.Bytes); err != nil {
			return Greeting{}, err
		}
		switch in.Then {
		case "fail":
			return Greeting{}, errors.New("it failed")
		case "panic":
			panic("it panicked")
		case "block":
			f.blocked <- in.Name
			<-ctx.Done()
			return Greeting{}, ctx.Err()
		case "transient":
			held, _, _ := server.Held(call)
			f.tries <- held
			return Greeting{}, server.Transient(errors.New("busy, try again"))
		case "grow":
			if err := call.Reserve(ctx, 5); err != nil {
				return Greeting{}, err
			}
		}
		return Greeting{Text: in.Name}, nil
	}
	for _, spec := range []server.ToolSpec{
		{Name: "hold", Description: "d", Level: security.Read, Attempts: 3},
		{Name: "hold_briefly", Description: "d", Level: security.Read, Attempts: 3, Timeout: 100 * time.Millisecond},
	} {
		if err := server.AddTool(f.srv, spec, run); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// holdCall is a tools/call of tool (hold or hold_briefly) and its
// arguments as they appear in it.
func holdCall(id int, tool, name string, bytes int64, then string) (line, args string) {
	args = fmt.Sprintf(`{"name":%q,"bytes":%d,"then":%q}`, name, bytes, then)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args), args
}

// waitBlocked waits until the call named name holds its bytes and
// blocks.
func (f *budgetFixture) waitBlocked(t *testing.T, name string) {
	t.Helper()
	select {
	case got := <-f.blocked:
		if got != name {
			t.Fatalf("want %s to block, got %s", name, got)
		}
	case <-time.After(waitLimit):
		t.Fatalf("%s did not block", name)
	}
}

// heldNow fails t unless what server.Held reports for the calls of f is
// budget bytes of the budget and queued calls of queuedBytes bytes
// waiting.
func (f *budgetFixture) heldNow(t *testing.T, budget int64, queued, queuedBytes int) {
	t.Helper()
	if b, q, qb := server.Held(f.last.Load()); b != budget || q != queued || qb != queuedBytes {
		t.Fatalf("held: %d bytes of the budget, %d calls of %d bytes waiting; want %d, %d and %d", b, q, qb, budget, queued, queuedBytes)
	}
}

// givenBack waits until the budget and the line hold nothing, as they
// must once the calls' handlers have returned, and fails t with what
// they still hold if they do not within waitLimit.
func (f *budgetFixture) givenBack(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		b, q, qb := server.Held(f.last.Load())
		if b == 0 && q == 0 && qb == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still held after the calls: %d bytes of the budget, %d calls of %d bytes waiting", b, q, qb)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTheMemoryBudgetIsGivenBackWhateverBecomesOfTheCall: over stdio,
// after a call that reserved succeeds, fails, panics, runs out of time,
// is cancelled, fails as transient (each try holding only its own
// reservation), or gives up waiting for more memory, the budget holds
// nothing again.
func TestTheMemoryBudgetIsGivenBackWhateverBecomesOfTheCall(t *testing.T) {
	f := newBudgetFixture(t, server.Options{MemoryBudget: 100, MaxInFlight: 4})
	c := servertest.Start(t, f.srv)
	id := 100
	answer := func(t *testing.T, tool, name string, bytes int64, then, want string) {
		t.Helper()
		id++
		line, _ := holdCall(id, tool, name, bytes, then)
		c.Send(line)
		if got := c.Recv(); !strings.HasPrefix(got, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":`, id)) || !strings.Contains(got, want) {
			t.Fatalf("%s: %s; want %q", then, got, want)
		}
	}

	answer(t, "hold", "ok", 40, "ok", `"structuredContent":{"text":"ok"}`)
	f.givenBack(t)
	answer(t, "hold", "fail", 40, "fail", "it failed")
	f.givenBack(t)
	answer(t, "hold", "panic", 40, "panic", "The tool hold failed with an internal error")
	f.givenBack(t)
	answer(t, "hold_briefly", "late", 40, "block", "did not finish within 100ms")
	f.waitBlocked(t, "late")
	f.givenBack(t)
	answer(t, "hold", "whole", 1000, "ok", `"structuredContent":{"text":"whole"}`) // cut to the whole budget
	f.givenBack(t)
	answer(t, "hold", "grew", 10, "grow", `"structuredContent":{"text":"grew"}`) // 10, then 5 more
	f.givenBack(t)

	t.Run("cancelled", func(t *testing.T) {
		line, _ := holdCall(1, "hold", "cancelled", 40, "block")
		c.Send(line)
		f.waitBlocked(t, "cancelled")
		c.Send(cancelLine("1"))
		f.givenBack(t)
	})

	t.Run("transient", func(t *testing.T) {
		answer(t, "hold", "flaky", 60, "transient", "busy, try again")
		for try := 1; try <= 3; try++ {
			if held := <-f.tries; held != 60 {
				t.Errorf("try %d: the budget held %d bytes; want the 60 of this try alone", try, held)
			}
		}
		f.givenBack(t)
	})

	t.Run("gave up waiting for more", func(t *testing.T) {
		// h holds 90 and blocks; g holds the last 10, and asking for 5
		// more gives its 10 back and waits for 15, until its time is up.
		line, _ := holdCall(2, "hold", "h", 90, "block")
		c.Send(line)
		f.waitBlocked(t, "h")
		answer(t, "hold_briefly", "g", 10, "grow", "did not finish within 100ms")
		c.Send(cancelLine("2"))
		f.givenBack(t)
	})
}

// TestTheLineOfWaitingCallsIsGivenBack: the calls waiting for a slot are
// counted with the exact bytes of their arguments, a call refused because
// the line is full (by count or by bytes) adds nothing, and once the
// calls have run, cancelled ones too, the line and the memory budget hold
// nothing.
func TestTheLineOfWaitingCallsIsGivenBack(t *testing.T) {
	_, short := holdCall(0, "hold", "b", 10, "ok")
	long := "d" + strings.Repeat("x", 2*len(short))
	f := newBudgetFixture(t, server.Options{MemoryBudget: 100, MaxInFlight: 1, MaxQueued: 3,
		MaxQueuedBytes: 4 * len(short)}) // bytes for four short calls, and room in line for three
	c := servertest.Start(t, f.srv)
	busy := func(id int) {
		t.Helper()
		if got := c.Recv(); !strings.HasPrefix(got, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":`, id)) || !strings.Contains(got, "The server is busy") {
			t.Fatalf("want call %d refused as busy, got %s", id, got)
		}
	}
	send := func(id int, name string, then string) int {
		line, args := holdCall(id, "hold", name, 10, then)
		c.Send(line)
		return len(args)
	}

	send(1, "a", "block") // takes the one slot
	f.waitBlocked(t, "a")
	f.heldNow(t, 10, 0, 0)
	queued := send(2, "b", "ok")
	queued += send(3, "c", "ok")
	c.Send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`) // the reader has taken b and c
	if got := c.Recv(); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Fatalf("ping: %s", got)
	}
	f.heldNow(t, 10, 2, queued)
	send(4, long, "ok") // over the bytes
	busy(4)
	f.heldNow(t, 10, 2, queued)
	queued += send(5, "e", "ok")
	send(6, "f", "ok") // within the bytes, over the count
	busy(6)
	c.Send(`{"jsonrpc":"2.0","id":"q","method":"ping"}`)
	if got := c.Recv(); got != `{"jsonrpc":"2.0","id":"q","result":{}}` {
		t.Fatalf("ping: %s", got)
	}
	f.heldNow(t, 10, 3, queued)

	c.Send(cancelLine("3")) // c goes while it waits
	c.Send(cancelLine("1")) // and a with it, which frees the slot
	answered := map[string]bool{}
	for range 2 {
		got := c.Recv()
		answered[got[:len(`{"jsonrpc":"2.0","id":2`)]] = true
	}
	if !answered[`{"jsonrpc":"2.0","id":2`] || !answered[`{"jsonrpc":"2.0","id":5`] {
		t.Fatalf("want the answers of b and e: %v", answered)
	}
	f.givenBack(t)
}

// TestTheMemoryBudgetIsGivenBackOverHTTP: over HTTP, where a call runs
// within its request, the budget holds nothing once the request has been
// answered, whether the call succeeded, failed, ran out of time, was
// retried as transient, or its client went away.
func TestTheMemoryBudgetIsGivenBackOverHTTP(t *testing.T) {
	f := newBudgetFixture(t, server.Options{MemoryBudget: 100})
	h := f.srv.HTTPHandler(server.HTTPOptions{})
	serve := func(ctx context.Context, tool, name, then string) string {
		line, _ := holdCall(1, tool, name, 60, then)
		req := httptest.NewRequestWithContext(ctx, "POST", "/mcp", strings.NewReader(line))
		req.Host = "localhost"
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Body.String()
	}
	for _, tc := range []struct{ tool, then, want string }{
		{"hold", "ok", `"structuredContent":{"text":"ok"}`},
		{"hold", "fail", "it failed"},
		{"hold", "panic", "failed with an internal error"},
		{"hold_briefly", "block", "did not finish within 100ms"},
		{"hold", "transient", "busy, try again"},
	} {
		if got := serve(context.Background(), tc.tool, tc.then, tc.then); !strings.Contains(got, tc.want) {
			t.Fatalf("%s: %s; want %q", tc.then, got, tc.want)
		}
		if tc.then == "block" {
			// Answered by its timeout, the call keeps its reservation
			// until its tool's goroutine ends, after the reply.
			f.waitBlocked(t, "block")
			f.givenBack(t)
			continue
		}
		f.heldNow(t, 0, 0, 0)
	}
	for range 3 {
		if held := <-f.tries; held != 60 {
			t.Errorf("a try of the transient call: the budget held %d bytes; want its own 60", held)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, "hold", "gone", "block")
	}()
	f.waitBlocked(t, "gone")
	cancel() // the client goes away
	<-done
	f.heldNow(t, 0, 0, 0)
}
