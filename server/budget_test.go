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

type reserveArgs struct {
	Name  string `json:"name" description:"n"`
	Bytes int64  `json:"bytes" description:"b"`
}

// TestCallsShareTheMemoryBudget: a call that reserves more than is left
// waits, without its slot, until the calls holding the budget are
// answered; a reservation larger than the budget is cut to it; a call
// cancelled while it waits is told why.
func TestCallsShareTheMemoryBudget(t *testing.T) {
	release := make(chan struct{})
	events := make(chan string, 16)
	srv := server.New(server.Options{MaxInFlight: 2, MemoryBudget: 10, MaxRepeats: -1})
	err := server.AddTool(srv, server.ToolSpec{Name: "hold", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in reserveArgs) (Greeting, error) {
			if err := call.Reserve(ctx, in.Bytes); err != nil {
				return Greeting{}, err
			}
			events <- "run " + in.Name
			if in.Name == "a" {
				<-release
			}
			return Greeting{Text: in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)
	call := func(id int, name string, n int) {
		c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{"name":%q,"bytes":%d}}}`, id, name, n))
	}
	call(1, "a", 100) // cut to the whole budget of 10, and held
	if e := <-events; e != "run a" {
		t.Fatal(e)
	}
	call(2, "b", 5) // waits for a, giving back its slot
	call(3, "c", 0) // so that c, which reserves nothing, runs at once
	if e := <-events; e != "run c" {
		t.Fatalf("want c to run while b waits, got %s", e)
	}
	if l := c.Recv(); !strings.Contains(l, `"id":3`) {
		t.Fatalf("want c's answer, got %s", l)
	}
	select {
	case e := <-events:
		t.Fatalf("b ran while a held the budget: %s", e)
	case <-time.After(50 * time.Millisecond):
	}
	call(4, "d", 5)
	c.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`)
	// The ping's answer says the reader has acted on the cancellation.
	c.Send(`{"jsonrpc":"2.0","id":"c","method":"ping"}`)
	if l := c.Recv(); l != `{"jsonrpc":"2.0","id":"c","result":{}}` {
		t.Fatalf("want only the ping's answer, got %s", l)
	}
	close(release)
	got := map[string]bool{}
	for range 2 {
		got[c.Recv()[:len(`{"jsonrpc":"2.0","id":1`)]] = true
	}
	if !got[`{"jsonrpc":"2.0","id":1`] || !got[`{"jsonrpc":"2.0","id":2`] {
		t.Fatalf("answers: %v", got)
	}
	c.Send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if l := c.Recv(); l != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Fatalf("want only the ping's answer (d was cancelled), got %s", l)
	}
}

// TestAReservationEndsWithTheContext checks the sentence of a call that
// stops waiting for memory, through CallTool.
func TestAReservationEndsWithTheContext(t *testing.T) {
	srv := server.New(server.Options{MemoryBudget: 10, ToolTimeout: 50 * time.Millisecond})
	hold := make(chan struct{})
	defer close(hold)
	holding := make(chan struct{})
	err := server.AddTool(srv, server.ToolSpec{Name: "hold", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in reserveArgs) (Greeting, error) {
			if err := call.Reserve(ctx, in.Bytes); err != nil {
				return Greeting{}, err
			}
			if in.Name == "a" {
				close(holding)
				<-hold
			}
			return Greeting{}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = srv.CallTool(context.Background(), "hold", []byte(`{"name":"a","bytes":10}`)) }()
	<-holding
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	res, err := srv.CallTool(ctx, "hold", []byte(`{"name":"b","bytes":1}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text(), "while it waited for memory") {
		t.Fatalf("%+v %v", res, err)
	}
}
