package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// TestTheReaderNeverWaitsForASlot fills every slot with calls that hold
// on, lines up more behind them, and checks that ping and cancellation
// are still answered at once, that a call finding the line full is
// refused as busy, and that the waiting calls run in arrival order.
func TestTheReaderNeverWaitsForASlot(t *testing.T) {
	release := make(chan struct{})
	started := make(chan string, 16)
	srv := server.New(server.Options{MaxInFlight: 2, MaxQueued: 3, MaxRepeats: -1})
	err := server.AddTool(srv, server.ToolSpec{Name: "hold", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			started <- in.Name
			select {
			case <-release:
			case <-ctx.Done():
				return Greeting{}, ctx.Err()
			}
			return Greeting{Text: in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)
	call := func(id int, name string) {
		c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{"name":%q}}}`, id, name))
	}
	call(1, "a")
	call(2, "b")
	got := []string{<-started, <-started}
	call(3, "c")
	call(4, "d")
	call(5, "e")
	// Every slot is taken and the line holds three calls: ping is answered
	// at once, and a sixth call is refused as busy.
	c.Send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if l := c.Recv(); l != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Fatalf("ping: %s", l)
	}
	call(6, "f")
	if l := c.Recv(); !strings.Contains(l, `"id":6`) || !strings.Contains(l, "The server is busy") || !strings.Contains(l, `"isError":true`) {
		t.Fatalf("the call beyond the line: %s", l)
	}
	// A waiting call can be cancelled: it never answers.
	c.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`)
	c.Send(`{"jsonrpc":"2.0","id":"q","method":"ping"}`)
	if l := c.Recv(); l != `{"jsonrpc":"2.0","id":"q","result":{}}` {
		t.Fatalf("ping: %s", l)
	}
	close(release)
	answered := map[string]bool{}
	for range 4 {
		answered[c.Recv()[:len(`{"jsonrpc":"2.0","id":1`)]] = true
	}
	for i := range 5 {
		if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d`, i+1); answered[want] == (i+1 == 4) {
			t.Errorf("call %d answered %v: %v", i+1, answered[want], answered)
		}
	}
	// Every call that ran has answered, so all their starts are in the
	// channel by now.
	for more := true; more; {
		select {
		case n := <-started:
			got = append(got, n)
		default:
			more = false
		}
	}
	// The cancelled call d may start (with its context cancelled) or not;
	// c and e both start. (With two slots, c and d start side by side, so
	// their order is not arrival order: TestWaitingCallsStartInArrivalOrder
	// checks that with one slot.)
	if began := strings.Join(got[2:], ""); !strings.Contains(began, "c") || !strings.Contains(began, "e") {
		t.Errorf("the waiting calls that started: %v", got)
	}
}

// TestWaitingCallsStartInArrivalOrder: with one slot, the calls waiting
// for it run one after another in the order they arrived.
func TestWaitingCallsStartInArrivalOrder(t *testing.T) {
	var order []string
	release := make(chan struct{})
	srv := server.New(server.Options{MaxInFlight: 1, MaxRepeats: -1})
	err := server.AddTool(srv, server.ToolSpec{Name: "hold", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			order = append(order, in.Name) // one slot: one call at a time
			if in.Name == "a" {
				<-release
			}
			return Greeting{Text: in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{"name":%q}}}`, i+1, name))
	}
	c.Send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`) // the reader has read them all
	if l := c.Recv(); l != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Fatalf("ping: %s", l)
	}
	close(release)
	for range 5 {
		c.Recv()
	}
	if got := strings.Join(order, ""); got != "abcde" {
		t.Fatalf("the calls ran in the order %s", got)
	}
}

// TestServeReturnsWithinTheGraceEvenFromAToolThatIgnoresItsContext: the
// documented grace bounds the whole shutdown, so Serve returns before a
// tool that ignores its cancellation has finished.
func TestServeReturnsWithinTheGraceEvenFromAToolThatIgnoresItsContext(t *testing.T) {
	finished := make(chan struct{})
	srv := server.New(server.Options{ShutdownGrace: 100 * time.Millisecond})
	err := server.AddTool(srv, server.ToolSpec{Name: "stubborn", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			defer close(finished)
			time.Sleep(600 * time.Millisecond) // ignores ctx, and ends before grace + 1 s, where Serve used to return
			return Greeting{}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)
	c.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","arguments":{"name":"x"}}}`)
	time.Sleep(20 * time.Millisecond) // let it start
	_ = c.Close()
	select {
	case <-c.Served():
	case <-finished:
		t.Fatal("Serve waited for the tool past its grace")
	}
	select {
	case <-finished:
		t.Fatal("the tool finished before Serve returned")
	default:
	}
}
