package server_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// This file holds a policy of Options.Policies to doing what the
// built-in ones do, with the exported API alone: keep state about a
// call, decide what Call.Confirm does, and answer at a deadline through
// the chain while the tool keeps its place.

// deadlinePolicy is the policy of ExamplePolicy_deadline.
func deadlinePolicy(d time.Duration) server.Policy {
	return func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			late := fmt.Errorf("%s took longer than %v", call.Tool, d)
			ctx, cancel := context.WithTimeoutCause(ctx, d, late)
			defer cancel()
			var res *server.CallToolResult
			var err error
			done := call.Go(func() { res, err = next(ctx, call) })
			select {
			case <-done:
			case <-ctx.Done():
				if context.Cause(ctx) == late {
					return nil, late
				}
				<-done
			}
			return res, err
		}
	}
}

// TestAPolicyOfItsOwnAnswersAtItsDeadlineAndTheToolKeepsItsPlace: the
// answer comes at the policy's deadline, through the policies outside
// it, while the tool that ignores its context still holds the one slot:
// the next call runs only once the tool has returned.
func TestAPolicyOfItsOwnAnswersAtItsDeadlineAndTheToolKeepsItsPlace(t *testing.T) {
	var seen atomic.Value // what the outermost policy saw come back
	outer := func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			res, err := next(ctx, call)
			if err != nil {
				seen.Store(err.Error())
			}
			return res, err
		}
	}
	release := make(chan struct{})
	var ran atomic.Int32
	srv := server.New(server.Options{MaxInFlight: 1, MaxRepeats: -1,
		Policies: []server.Policy{outer, deadlinePolicy(30 * time.Millisecond)}})
	if err := server.AddTool(srv, server.ToolSpec{Name: "stubborn", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			ran.Add(1)
			if in.Name == "wait" {
				<-release
			}
			return Greeting{Text: in.Name}, nil
		}); err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)
	c.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","arguments":{"name":"wait"}}}`)
	if got := c.Recv(); !strings.Contains(got, "stubborn took longer than 30ms") {
		t.Fatalf("want the policy's answer, got %s", got)
	}
	if got, _ := seen.Load().(string); got != "stubborn took longer than 30ms" {
		t.Fatalf("the policy outside saw %q", got)
	}
	c.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stubborn","arguments":{"name":"next"}}}`)
	c.Send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := c.Recv(); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Fatalf("want the ping answered first, got %s", got)
	}
	if n := ran.Load(); n != 1 {
		t.Fatalf("the next call ran while the tool held the one slot (%d runs)", n)
	}
	close(release)
	if got := c.Recv(); !strings.Contains(got, `"text":"next"`) {
		t.Fatalf("want the next call's answer, got %s", got)
	}
}

// stateKey is the key of a policy's state in the tests of this file.
type stateKey struct{}

// TestAPolicyKeepsItsStateWithTheCall: what a policy keeps with
// Call.SetValue is the tool's to read during the call and the policy's
// after it returned, as the built-in policies keep theirs.
func TestAPolicyKeepsItsStateWithTheCall(t *testing.T) {
	type state struct{ runs atomic.Int32 }
	var after atomic.Int32
	count := func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			st := new(state)
			call.SetValue(stateKey{}, st)
			res, err := next(ctx, call)
			after.Store(call.Value(stateKey{}).(*state).runs.Load())
			return res, err
		}
	}
	srv := server.New(server.Options{Policies: []server.Policy{count}})
	tries := 0
	if err := server.AddTool(srv, server.ToolSpec{Name: "flaky", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			call.Value(stateKey{}).(*state).runs.Add(1)
			if tries++; tries < 2 {
				return Greeting{}, server.Transient(errors.New("busy"))
			}
			return Greeting{Text: "ok"}, nil
		}); err != nil {
		t.Fatal(err)
	}
	res, err := srv.CallTool(context.Background(), "flaky", []byte(`{"name":"a"}`))
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if n := after.Load(); n != 2 {
		t.Fatalf("the policy read %d runs after the call; want the 2 of the retry", n)
	}
	if (&server.Call{}).Value(stateKey{}) != nil {
		t.Fatal("a call keeps a value it was never given")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("SetValue took a key that is not comparable")
		}
	}()
	(&server.Call{}).SetValue([]string{"no"}, 1)
}

// TestAPolicyDecidesWhatConfirmDoes: on a server without ConfirmWrites,
// a policy of its own asks the user its own way, and the tool's Confirm
// and Confirms follow it.
func TestAPolicyDecidesWhatConfirmDoes(t *testing.T) {
	type out struct {
		Confirms bool   `json:"confirms" description:"c"`
		Err      string `json:"err" description:"e"`
	}
	var asked []string
	ticket := func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			call.SetConfirm(func(ctx context.Context, message string) error {
				asked = append(asked, message)
				return errors.New("the reviewer said no; nothing was changed")
			})
			return next(ctx, call)
		}
	}
	srv := server.New(server.Options{Policies: []server.Policy{ticket}})
	if err := server.AddTool(srv, server.ToolSpec{Name: "change", Description: "d", Level: security.Write},
		func(ctx context.Context, call *server.Call, in GreetArgs) (out, error) {
			err := call.Confirm(ctx, "change "+in.Name)
			return out{Confirms: call.Confirms(), Err: fmt.Sprint(err)}, nil
		}); err != nil {
		t.Fatal(err)
	}
	res, err := srv.CallTool(context.Background(), "change", []byte(`{"name":"a_txt"}`))
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if got := res.Content[0].Text(); got != `{"confirms":true,"err":"the reviewer said no; nothing was changed"}` || len(asked) != 1 || asked[0] != "change a_txt" {
		t.Fatalf("result %s, asked %q", got, asked)
	}
}

// lockedBuffer is a log that the server's goroutines write while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestAFunctionACallRunsThatPanicsIsLoggedAndTheCallGoesOn: a panic in
// what a policy runs with Call.Go ends that function, with its stack in
// the log, and the channel Go returned is closed all the same; the call
// goes on. A Call built by hand runs it too.
func TestAFunctionACallRunsThatPanicsIsLoggedAndTheCallGoesOn(t *testing.T) {
	var log lockedBuffer
	careless := func(next server.ToolHandler) server.ToolHandler {
		return func(ctx context.Context, call *server.Call) (*server.CallToolResult, error) {
			<-call.Go(func() { panic("careless") })
			return next(ctx, call)
		}
	}
	srv := server.New(server.Options{Logger: zerolog.New(&log), Policies: []server.Policy{careless}})
	if err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			return Greeting{Text: "hello " + in.Name}, nil
		}); err != nil {
		t.Fatal(err)
	}
	res, err := srv.CallTool(context.Background(), "greet", []byte(`{"name":"Ada"}`))
	if err != nil || res.IsError || !strings.Contains(res.Content[0].Text(), "hello Ada") {
		t.Fatalf("%v %+v", err, res)
	}
	if got := log.String(); !strings.Contains(got, "a function run for a call panicked") || !strings.Contains(got, "careless") {
		t.Fatalf("the panic is not in the log: %s", got)
	}
	ran := false
	<-(&server.Call{}).Go(func() { ran = true })
	if !ran {
		t.Fatal("a Call built by hand did not run its function")
	}
}
