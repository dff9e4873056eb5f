package server

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

type readArgs struct {
	Path string `json:"path" chars:"path" description:"p"`
	N    int    `json:"n,omitempty" description:"n"`
}

type writeDryArgs struct {
	Path   string `json:"path" chars:"path" description:"p"`
	DryRun bool   `json:"dry_run,omitempty" description:"d"`
}

// cacheServer has a cached read tool that counts its runs, and a write.
func cacheServer(t *testing.T, now *time.Time) (*pipeClient, *atomic.Int32) {
	srv := New(Options{MaxRepeats: -1, Now: func() time.Time { return *now }})
	var runs atomic.Int32
	_ = AddTool(srv, ToolSpec{Name: "read", Description: "d", CacheTTL: time.Minute, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in readArgs) (writeOut, error) {
		runs.Add(1)
		return writeOut{Tag: fmt.Sprint(runs.Load())}, nil
	})
	_ = AddTool(srv, ToolSpec{Name: "write", Description: "d", Level: security.Write, Targets: []string{"path"}, DryRun: "dry_run"}, func(ctx context.Context, call *Call, in writeDryArgs) (writeOut, error) {
		return writeOut{}, nil
	})
	c := serve(t, srv)
	c.initialize()
	return c, &runs
}

func call(c *pipeClient, id int, tool, args string) string {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
	return c.recv()
}

func TestReadsAreCachedUntilTheyExpireOrAWriteTouchesThem(t *testing.T) {
	now := time.Unix(0, 0)
	c, runs := cacheServer(t, &now)
	steps := []struct {
		tool, args string
		advance    time.Duration
		runs       int32
	}{
		{"read", `{"path":"a/b.txt"}`, 0, 1},
		{"read", `{ "path" : "a/b.txt" }`, 0, 1},       // the same call: a hit
		{"read", `{"path":"a/b.txt","n":1}`, 0, 2},     // other arguments
		{"write", `{"path":"c.txt"}`, 0, 2},            // another file
		{"read", `{"path":"a/b.txt"}`, 0, 2},           // still cached
		{"write", `{"path":"a","dry_run":true}`, 0, 2}, // a dry run changes nothing
		{"read", `{"path":"a/b.txt"}`, 0, 2},
		{"write", `{"path":"a"}`, 0, 2}, // the directory above it
		{"read", `{"path":"a/b.txt"}`, 0, 3},
		{"read", `{"path":"a/b.txt"}`, 2 * time.Minute, 4}, // expired
	}
	for i, st := range steps {
		now = now.Add(st.advance)
		call(c, i, st.tool, st.args)
		if got := runs.Load(); got != st.runs {
			t.Fatalf("step %d (%s %s): the read ran %d times, want %d", i, st.tool, st.args, got, st.runs)
		}
	}
}

func TestIdenticalCallsInFlightRunOnce(t *testing.T) {
	srv := New(Options{})
	var runs atomic.Int32
	gate := make(chan struct{})
	_ = AddTool(srv, ToolSpec{Name: "read", Description: "d", CacheTTL: time.Minute, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in readArgs) (writeOut, error) {
		runs.Add(1)
		<-gate
		return writeOut{Tag: "shared"}, nil
	})
	c := serve(t, srv)
	c.initialize()
	for i := range 3 {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"path":"x"}}}`, i))
	}
	time.Sleep(20 * time.Millisecond) // all three are in flight
	close(gate)
	for range 3 {
		if got := c.recv(); !strings.Contains(got, `"tag":"shared"`) {
			t.Fatalf("got %s", got)
		}
	}
	if runs.Load() != 1 {
		t.Fatalf("ran %d times", runs.Load())
	}
}

func TestACancelledCallDoesNotHandItsFateToIdenticalCalls(t *testing.T) {
	srv := New(Options{MaxRepeats: -1})
	var runs atomic.Int32
	started := make(chan struct{}, 2)
	_ = AddTool(srv, ToolSpec{Name: "read", Description: "d", CacheTTL: time.Minute, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in readArgs) (writeOut, error) {
		n := runs.Add(1)
		started <- struct{}{}
		if n == 1 {
			<-ctx.Done() // the first run waits until its caller gives up
			return writeOut{}, ctx.Err()
		}
		return writeOut{Tag: "fresh"}, nil
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"x"}}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"x"}}}`)
	time.Sleep(20 * time.Millisecond) // the second waits for the first
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	got := c.recv()
	if !strings.Contains(got, `"id":2`) || !strings.Contains(got, `"tag":"fresh"`) {
		t.Fatalf("the waiting call got %s", got)
	}
	if runs.Load() != 2 {
		t.Fatalf("ran %d times, want 2", runs.Load())
	}
}

// TestTargetKeyJoinsSpellingsOfOneFile checks that Options.TargetKey is
// what the cache and the order of writes compare: a write to
// "alias:/a" drops the cached read of "a" when both key to one file, and
// not without the key. Caught mutation: addTarget ignoring TargetKey.
func TestTargetKeyJoinsSpellingsOfOneFile(t *testing.T) {
	for _, withKey := range []bool{true, false} {
		now := time.Unix(0, 0)
		opts := Options{MaxRepeats: -1, Now: func() time.Time { return now }}
		if withKey {
			opts.TargetKey = func(p string) string { return "/" + strings.TrimPrefix(p, "alias:/") }
		}
		srv := New(opts)
		var runs atomic.Int32
		_ = AddTool(srv, ToolSpec{Name: "read", Description: "d", CacheTTL: time.Minute, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in readArgs) (writeOut, error) {
			runs.Add(1)
			return writeOut{}, nil
		})
		_ = AddTool(srv, ToolSpec{Name: "write", Description: "d", Level: security.Write, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in writeDryArgs) (writeOut, error) {
			return writeOut{}, nil
		})
		c := serve(t, srv)
		c.initialize()
		call(c, 1, "read", `{"path":"a/b"}`)
		call(c, 2, "write", `{"path":"alias:/a"}`)
		call(c, 3, "read", `{"path":"a/b"}`)
		want := int32(1)
		if withKey {
			want = 2
		}
		if got := runs.Load(); got != want {
			t.Errorf("TargetKey set %v: the read ran %d times, want %d", withKey, got, want)
		}
	}
}

type scaleArgs struct {
	Path  string  `json:"path" chars:"path" description:"p"`
	Scale float64 `json:"scale" description:"s"`
}

// TestCallsWithFractionsAreCachedApart: the cache knows a call by the
// canonical form of its arguments, which had none for a number with a
// fraction (json.Marshal refused big.Rat's "1/2"), so that every such
// call of a tool shared one entry and got the first one's result.
func TestCallsWithFractionsAreCachedApart(t *testing.T) {
	srv := New(Options{MaxRepeats: -1})
	_ = AddTool(srv, ToolSpec{Name: "scale", Description: "d", CacheTTL: time.Minute}, func(ctx context.Context, call *Call, in scaleArgs) (writeOut, error) {
		return writeOut{Tag: fmt.Sprint(in.Scale)}, nil
	})
	c := serve(t, srv)
	c.initialize()
	for i, tc := range []struct{ args, want string }{
		{`{"path":"a","scale":0.5}`, `"tag":"0.5"`},
		{`{"path":"a","scale":0.25}`, `"tag":"0.25"`},
		{`{"path":"a","scale":5e-1}`, `"tag":"0.5"`}, // the first again, from the cache
	} {
		if got := call(c, i+1, "scale", tc.args); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %s, want %s", tc.args, got, tc.want)
		}
	}
}
