package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

type writeArgs struct {
	Path string `json:"path" chars:"path" description:"p"`
	Tag  string `json:"tag" description:"t"`
}

type writeOut struct {
	Tag string `json:"tag" description:"t"`
}

func TestWritesToOnePathApplyInArrivalOrder(t *testing.T) {
	srv := New(Options{})
	var mu sync.Mutex
	var events []string
	gate := make(chan struct{})
	record := func(e string) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	_ = AddTool(srv, ToolSpec{Name: "write", Description: "d", Level: security.Write, Targets: []string{"path"}}, func(ctx context.Context, call *Call, in writeArgs) (writeOut, error) {
		record("start " + in.Tag)
		if in.Tag == "first" {
			<-gate // holds a.txt until the test lets go
		}
		record("end " + in.Tag)
		return writeOut{Tag: in.Tag}, nil
	})
	c := serve(t, srv)
	c.initialize()
	send := func(id int, p, tag string) {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"write","arguments":{"path":%q,"tag":%q}}}`, id, p, tag))
	}
	send(1, "a.txt", "first")
	send(2, "./a.txt", "second") // the same file, written another way
	send(3, "b.txt", "other")
	// The write to another file finishes while a.txt is held.
	if got := c.recv(); !strings.Contains(got, `"id":3`) {
		t.Fatalf("got %s", got)
	}
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	if strings.Contains(strings.Join(events, ","), "start second") {
		t.Fatalf("the second write to a.txt started before the first ended: %v", events)
	}
	mu.Unlock()
	close(gate)
	c.recv()
	c.recv()
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(events, ",")
	if !strings.Contains(got, "end first,start second") {
		t.Fatalf("events: %s", got)
	}
}

func TestAnExclusiveToolRunsAlone(t *testing.T) {
	srv := New(Options{})
	overlap := false
	var active int
	var amu sync.Mutex
	soloBody := func(solo bool) func(ctx context.Context, call *Call, in writeArgs) (writeOut, error) {
		return func(ctx context.Context, call *Call, in writeArgs) (writeOut, error) {
			amu.Lock()
			if solo && active > 0 || !solo && active < 0 {
				overlap = true
			}
			if solo {
				active = -1
			} else {
				active++
			}
			amu.Unlock()
			time.Sleep(5 * time.Millisecond)
			amu.Lock()
			if solo {
				active = 0
			} else {
				active--
			}
			amu.Unlock()
			return writeOut{}, nil
		}
	}
	_ = AddTool(srv, ToolSpec{Name: "solo", Description: "d", Exclusive: true}, soloBody(true))
	_ = AddTool(srv, ToolSpec{Name: "shared", Description: "d"}, soloBody(false))
	c := serve(t, srv)
	c.initialize()
	for i := range 8 {
		name := "shared"
		if i%3 == 0 {
			name = "solo"
		}
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"path":"y%d","tag":"t"}}}`, i, name, i))
	}
	for range 8 {
		c.recv()
	}
	if overlap {
		t.Fatal("an exclusive tool ran alongside another call")
	}
}

func TestTargetsAreReadOnceFromTheDeclaredArguments(t *testing.T) {
	tl := &tool{spec: ToolSpec{Targets: []string{"source", "destination", "paths"}, DryRun: "dry_run"}, declares: true}
	cases := []struct {
		args, want string
		dry        bool
	}{
		{`{"source":"a.txt","destination":"./b/../b.txt"}`, "/a.txt,/b.txt", false},
		{`{"source":"a.txt","destination":"a.txt"}`, "/a.txt", false},
		{`{"paths":["x","/y", "x"]}`, "/x,/y", false},
		{`{"other":"a","dry_run":true}`, "", true},
		{`{"source":"a","dry_run":false}`, "/a", false},
		{``, "", false},
		{`{"source":"a\\u{41}","destination":"aA"}`, "/aA", false},
		{`{"source":"d/\\u{2E}\\u{2E}/x","destination":"x\\u{A}y"}`, "/x,/x\ny", false},
		{`{"source":"bad\\u{0}"}`, "/bad\\u{0}", false},
	}
	for _, tc := range cases {
		// The arguments split here, and as the envelope finds them.
		var env envelope
		if tc.args != "" {
			env.readParams([]byte(`{"arguments":`+tc.args+`}`), 0)
		}
		for _, members := range [][]member{nil, env.argMembers()} {
			c := &Call{tool: tl, args: json.RawMessage(tc.args)}
			c.readArguments(members)
			if got := strings.Join(c.Targets(), ","); got != tc.want || c.DryRun() != tc.dry {
				t.Errorf("%s: got %s (dry run %v), want %s (%v)", tc.args, got, c.DryRun(), tc.want, tc.dry)
			}
		}
	}
}
