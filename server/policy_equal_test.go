package server_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// This file holds a policy of Options.Policies to doing what the
// built-in ones do, with the exported API alone: keep state about a
// call, and decide what Call.Confirm does.

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
