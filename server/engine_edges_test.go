package server_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// These tests drive the execution engine (the order of writes, the
// result cache, the loop guard, ids in flight, shutdown) from outside,
// through Serve, so that they hold whatever the engine's insides become.
// Above each is the broken edit of today's code it was seen to catch.

// settle is how long a test watches for something that must not happen.
const settle = 60 * time.Millisecond

// taggedArgs are the arguments of the test tools: the path a write
// changes (writes to one path are ordered by it) and a tag naming the call.
type taggedArgs struct {
	Path string `json:"path" chars:"path" description:"The file the call is about."`
	Tag  string `json:"tag" chars:"ident" description:"Names the call in the test."`
}

type taggedOut struct {
	Tag string `json:"tag" description:"The tag of the call."`
}

// toolLog records the calls of the tools it backs, and holds a call whose
// tag has a gate until the gate closes (or its context ends).
type toolLog struct {
	gates   map[string]chan struct{}
	started chan string // the tag of each call, as its handler starts

	mu      sync.Mutex
	events  []string
	running int
	overlap []string // tags of calls that started while another ran
}

func newToolLog(gated ...string) *toolLog {
	l := &toolLog{gates: map[string]chan struct{}{}, started: make(chan string, 64)}
	for _, tag := range gated {
		l.gates[tag] = make(chan struct{})
	}
	return l
}

func (l *toolLog) handler(ctx context.Context, call *server.Call, in taggedArgs) (taggedOut, error) {
	l.mu.Lock()
	l.running++
	if l.running > 1 {
		l.overlap = append(l.overlap, in.Tag)
	}
	l.events = append(l.events, "start "+in.Tag)
	l.mu.Unlock()
	l.started <- in.Tag
	if g := l.gates[in.Tag]; g != nil {
		select {
		case <-g:
		case <-ctx.Done():
		}
	}
	l.mu.Lock()
	l.running--
	l.events = append(l.events, "end "+in.Tag)
	l.mu.Unlock()
	return taggedOut{Tag: in.Tag}, nil
}

// open lets the call tagged tag finish.
func (l *toolLog) open(tag string) { close(l.gates[tag]) }

// waitStart expects the next call to start to be the one tagged want.
func (l *toolLog) waitStart(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-l.started:
		if got != want {
			t.Fatalf("call %s started, want %s", got, want)
		}
	case <-time.After(waitLimit):
		t.Fatalf("call %s did not start", want)
	}
}

// noStart expects no call to start for a while.
func (l *toolLog) noStart(t *testing.T, why string) {
	t.Helper()
	select {
	case got := <-l.started:
		t.Fatalf("call %s started %s", got, why)
	case <-time.After(settle):
	}
}

// check compares the events so far with want, and fails on any overlap.
func (l *toolLog) check(t *testing.T, want ...string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if got := strings.Join(l.events, ", "); got != strings.Join(want, ", ") {
		t.Errorf("events:\n got  %s\n want %s", got, strings.Join(want, ", "))
	}
	if len(l.overlap) > 0 {
		t.Errorf("writes to one path ran at the same time: %v started while another ran", l.overlap)
	}
}

// waitFor returns the next value from ch, failing the test if none comes.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("waited in vain for %s", what)
		var zero T
		return zero
	}
}

func addTool[In, Out any](t *testing.T, srv *server.Server, spec server.ToolSpec, h server.Handler[In, Out]) {
	t.Helper()
	if spec.Description == "" {
		spec.Description = "A tool of the test."
	}
	if err := server.AddTool(srv, spec, h); err != nil {
		t.Fatal(err)
	}
}

// expectOK expects r to answer id with a tool result that is not an error
// and whose text contains want.
func expectOK(t *testing.T, r response, id, want string) {
	t.Helper()
	if !sameJSON(r.ID, id) || !r.ok() || !strings.Contains(r.text(), want) {
		t.Fatalf("want a result for %s containing %q, got %s", id, want, r.line)
	}
}

// Caught mutations: in order.go's release, waking the ticket after the one
// removed instead of the head (C ran while A held the path); waking the
// head whoever left (close of a closed channel: panic); in wait, not
// watching the context (B ran after A, before C). In call.go, a call that
// gave up in line keeping its place (C never ran); answer sending a
// response to a call the client cancelled (a response for B).
func TestAWriteCancelledInLineLeavesTheQueueAndTheOthersKeepTheirOrder(t *testing.T) {
	srv := server.New(server.Options{})
	w := newToolLog("A", "C")
	addTool(t, srv, server.ToolSpec{Name: "write", Level: security.Write, Targets: []string{"path"}}, w.handler)
	c := connect(t, context.Background(), srv)
	c.handshake()

	c.send(callLine("1", "write", `{"path":"dir/f.txt","tag":"A"}`))
	w.waitStart(t, "A") // A holds dir/f.txt
	c.send(callLine("2", "write", `{"path":"dir/f.txt","tag":"B"}`))
	c.send(callLine("3", "write", `{"path":"dir/f.txt","tag":"C"}`))
	c.send(callLine("4", "write", `{"path":"./dir/f.txt","tag":"D"}`)) // the same file
	c.send(cancelLine("2"))
	c.ping() // the cancellation has been read
	w.noStart(t, "while A held the path")

	w.open("A")
	expectOK(t, c.recvResponse(), "1", "A")
	w.waitStart(t, "C") // not B, which was cancelled
	w.noStart(t, "while C held the path")
	w.open("C")
	expectOK(t, c.recvResponse(), "3", "C")
	w.waitStart(t, "D")
	expectOK(t, c.recvResponse(), "4", "D")

	c.ping() // no response for B, and the session still answers
	w.check(t, "start A", "end A", "start C", "end C", "start D", "end D")
	// The path is free again.
	expectOK(t, c.call("5", "write", `{"path":"dir/f.txt","tag":"E"}`), "5", "E")
}

// Caught mutations: in call.go, starting the call's timer only after its
// wait in line (B was not answered while A held the path); expire not
// cancelling the call's context (B waited for A, then ran its handler);
// a call that timed out in line keeping its place (C never ran); in
// order.go's release, waking the ticket after the one removed (C ran
// while A held the path); wait not watching the context (B ran).
func TestAWriteTimingOutInLineIsAnsweredAndTheNextOneStillWaits(t *testing.T) {
	cases := []struct {
		name         string
		opts         server.Options
		hold, timing time.Duration // the Timeout of the tool of A and C, and of B's
	}{
		{"by its tool's Timeout", server.Options{}, 0, 50 * time.Millisecond},
		{"by the server's ToolTimeout", server.Options{ToolTimeout: 50 * time.Millisecond}, 10 * time.Second, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := server.New(tc.opts)
			w := newToolLog("A")
			addTool(t, srv, server.ToolSpec{Name: "hold", Level: security.Write, Timeout: tc.hold, Targets: []string{"path"}}, w.handler)
			addTool(t, srv, server.ToolSpec{Name: "quick", Level: security.Write, Timeout: tc.timing, Targets: []string{"path"}}, w.handler)
			c := connect(t, context.Background(), srv)
			c.handshake()

			c.send(callLine("1", "hold", `{"path":"f.txt","tag":"A"}`))
			w.waitStart(t, "A")
			c.send(callLine("2", "quick", `{"path":"f.txt","tag":"B"}`))
			c.send(callLine("3", "hold", `{"path":"f.txt","tag":"C"}`))
			r := c.recvResponse() // while A still holds the path
			if !sameJSON(r.ID, "2") || !r.toolFailed() || !strings.Contains(r.text(), "did not finish within 50ms") {
				t.Fatalf("want B's timeout, got %s", r.line)
			}
			w.noStart(t, "while A held the path")

			w.open("A")
			expectOK(t, c.recvResponse(), "1", "A")
			w.waitStart(t, "C")
			expectOK(t, c.recvResponse(), "3", "C")
			c.ping()
			w.check(t, "start A", "end A", "start C", "end C")
		})
	}
}

type cachedReadArgs struct {
	Path string `json:"path" chars:"path" description:"The file to read."`
}

type dryWriteArgs struct {
	Path   string `json:"path" chars:"path" description:"The file to change."`
	DryRun bool   `json:"dry_run,omitempty" description:"Only say what would change."`
}

// cacheFixture serves a cached read tool that counts its runs (the result
// is the count), holding its first run until gate closes if gate is set,
// and a write tool.
func cacheFixture(t *testing.T, gate chan struct{}) (*peer, *atomic.Int32, chan struct{}) {
	t.Helper()
	srv := server.New(server.Options{})
	var runs atomic.Int32
	started := make(chan struct{}, 16)
	addTool(t, srv, server.ToolSpec{Name: "read", CacheTTL: time.Minute, Targets: []string{"path"}}, func(ctx context.Context, call *server.Call, in cachedReadArgs) (taggedOut, error) {
		n := runs.Add(1)
		started <- struct{}{}
		if n == 1 && gate != nil {
			<-gate
		}
		return taggedOut{Tag: fmt.Sprint("run ", n)}, nil
	})
	addTool(t, srv, server.ToolSpec{Name: "write", Level: security.Write, Targets: []string{"path"}, DryRun: "dry_run"}, func(ctx context.Context, call *server.Call, in dryWriteArgs) (taggedOut, error) {
		return taggedOut{Tag: "written"}, nil
	})
	c := connect(t, context.Background(), srv)
	c.handshake()
	return c, &runs, started
}

// Caught mutations: in cache.go's within, comparing paths only for
// equality (above and below kept), or by prefix without the "/" (the
// sibling a/bc dropped a/b); in overlaps, checking one direction only
// (above or below kept); invalidate dropping every entry (siblings
// dropped); in engine.go, invalidating after a dry run too.
func TestAWriteDropsTheCachedReadsAtAboveAndBelowItsPathOnly(t *testing.T) {
	cases := []struct {
		name        string
		read, write string // the read's path, the write's arguments
		dropped     bool
	}{
		{"a write at the path", "a/b.txt", `{"path":"a/b.txt"}`, true},
		{"a write at the path spelled another way", "a/b.txt", `{"path":"./a/./b.txt"}`, true},
		{"a write to a directory above", "a/b/c.txt", `{"path":"a"}`, true},
		{"a write below the path", "a", `{"path":"a/b.txt"}`, true},
		{"a write that is not a dry run", "a/b.txt", `{"path":"a/b.txt","dry_run":false}`, true},
		{"a write to a sibling", "a/b", `{"path":"a/other"}`, false},
		{"a write to a sibling whose name starts with the path's", "a/b", `{"path":"a/bc"}`, false},
		{"a write to a sibling whose name the path's starts with", "a/bc", `{"path":"a/b"}`, false},
		{"a dry run at the path", "a/b.txt", `{"path":"a/b.txt","dry_run":true}`, false},
		{"a dry run above the path", "a/b.txt", `{"path":"a","dry_run":true}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, runs, _ := cacheFixture(t, nil)
			read := fmt.Sprintf(`{"path":%q}`, tc.read)
			expectOK(t, c.call("1", "read", read), "1", "run 1")
			expectOK(t, c.call("2", "read", read), "2", "run 1") // cached
			expectOK(t, c.call("3", "write", tc.write), "3", "written")
			want := "run 1"
			if tc.dropped {
				want = "run 2"
			}
			expectOK(t, c.call("4", "read", read), "4", want)
			if n := runs.Load(); tc.dropped && n != 2 || !tc.dropped && n != 1 {
				t.Fatalf("the read ran %d times", n)
			}
		})
	}
}

// Caught mutations: in cache.go's do, keeping a result whatever writes
// happened while it ran (the write sequence not compared); invalidate not
// counting the write (the sequence not bumped).
func TestAReadThatRacedAWriteToItsPathIsNotCached(t *testing.T) {
	for _, write := range []string{"a/b.txt", "a"} {
		t.Run("a write to "+write, func(t *testing.T) {
			gate := make(chan struct{})
			c, runs, started := cacheFixture(t, gate)
			c.send(callLine("1", "read", `{"path":"a/b.txt"}`))
			waitFor(t, started, "the read's start") // the read is running
			// The write does not wait for the read, and finishes first.
			expectOK(t, c.call("2", "write", fmt.Sprintf(`{"path":%q}`, write)), "2", "written")
			close(gate)
			expectOK(t, c.recvResponse(), "1", "run 1")
			// The read saw the file before the write: it runs again, and
			// that result is the one kept.
			expectOK(t, c.call("3", "read", `{"path":"a/b.txt"}`), "3", "run 2")
			expectOK(t, c.call("4", "read", `{"path":"a/b.txt"}`), "4", "run 2")
			if n := runs.Load(); n != 2 {
				t.Fatalf("the read ran %d times, want 2", n)
			}
		})
	}
}

type lookArgs struct {
	Path string  `json:"path" chars:"path" description:"Where to look."`
	N    float64 `json:"n" description:"A number."`
}

// Caught mutations: in loopguard.go, a default other than 4 (the 5th call
// ran, or the 4th was refused); refusing at count >= max (the 4th
// refused); comparing arguments byte for byte only (reordered keys and
// 1.0 counted as new calls); not restarting the count after other
// arguments (the call after them refused); in server.go, New not
// applying the default to MaxRepeats 0 (every call refused).
func TestTheLoopGuardByDefaultAllowsFourIdenticalCallsInARow(t *testing.T) {
	srv := server.New(server.Options{}) // MaxRepeats 0: the default
	var runs atomic.Int32
	addTool(t, srv, server.ToolSpec{Name: "look"}, func(ctx context.Context, call *server.Call, in lookArgs) (taggedOut, error) {
		runs.Add(1)
		return taggedOut{Tag: "looked"}, nil
	})
	c := connect(t, context.Background(), srv)
	c.handshake()
	steps := []struct {
		args    string
		refused int // 0: runs; n: refused as the nth identical call
	}{
		{`{"path":"a","n":1}`, 0},
		{`{"n":1,"path":"a"}`, 0},      // the same call, keys reordered
		{`{"path":"a","n":1.0}`, 0},    // and 1 written as 1.0
		{`{ "n":1e0, "path":"a" }`, 0}, // the fourth in a row
		{`{"path":"a","n":1}`, 5},
		{`{"path":"a","n":1.00}`, 6},
		{`{"path":"a","n":2}`, 0}, // other arguments
		{`{"path":"a","n":1}`, 0}, // the first call runs again
		{`{"path":"a","n":1}`, 0},
		{`{"path":"a","n":1}`, 0},
		{`{"path":"a","n":1}`, 0},
		{`{"path":"a","n":1}`, 5},
	}
	want := int32(0)
	for i, st := range steps {
		r := c.call(fmt.Sprint(i+1), "look", st.args)
		if st.refused == 0 {
			want++
			if !r.ok() || r.text() != `{"tag":"looked"}` {
				t.Fatalf("step %d (%s): want the tool's result, got %s", i+1, st.args, r.line)
			}
		} else {
			loop := fmt.Sprintf("called look with the same arguments %d times in a row", st.refused)
			if !r.toolFailed() || !strings.Contains(r.text(), loop) {
				t.Fatalf("step %d (%s): want a refusal saying %q, got %s", i+1, st.args, loop, r.line)
			}
		}
		if n := runs.Load(); n != want {
			t.Fatalf("step %d (%s): the tool ran %d times, want %d", i+1, st.args, n, want)
		}
	}
}

// Caught mutations: in envelope.go's idKey, one key for a string and a
// number with the same digits ("9" refused while 9 ran); in call.go's
// startCall, no check for a duplicate id (the second 9 ran); the
// duplicate refused with another code than -32600.
func TestAnIDInFlightIsRefusedOnlyWhenItIsTheSameValueAndType(t *testing.T) {
	big := "123456789012345678901234567890"
	cases := []struct {
		name          string
		first, second string // raw ids
		refused       bool
	}{
		{"a string with the digits of a number in flight", `9`, `"9"`, false},
		{"a number with the digits of a string in flight", `"9"`, `9`, false},
		{"a number beyond 64 bits and its string", big, `"` + big + `"`, false},
		{"the same number", `9`, `9`, true},
		{"the same string", `"9"`, `"9"`, true},
		{"the same string escaped otherwise", `"9"`, `"\u0039"`, true},
		{"the same number beyond 64 bits", big, big, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := server.New(server.Options{})
			l := newToolLog("hold")
			addTool(t, srv, server.ToolSpec{Name: "tool"}, l.handler)
			c := connect(t, context.Background(), srv)
			c.handshake()
			c.send(callLine(tc.first, "tool", `{"path":"x","tag":"hold"}`))
			l.waitStart(t, "hold")
			r := c.call(tc.second, "tool", `{"path":"x","tag":"quick"}`) // checks the id is echoed as sent
			if tc.refused {
				if r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "in progress") {
					t.Fatalf("want -32600 for a duplicate id, got %s", r.line)
				}
				l.noStart(t, "under an id in flight")
			} else {
				expectOK(t, r, tc.second, "quick")
				l.waitStart(t, "quick")
			}
			l.open("hold")
			expectOK(t, c.recvResponse(), tc.first, "hold")
			// Once answered, the id may be used again.
			expectOK(t, c.call(tc.first, "tool", `{"path":"x","tag":"again"}`), tc.first, "again")
		})
	}
}

// Caught mutations: in server.go, Serve not draining (returning as soon as
// the input ends: the call's answer was never written); draining with no
// grace (the call was cancelled at once); a default ShutdownGrace shorter
// than the call.
func TestACallRunningWhenTheInputEndsIsAnsweredBeforeServeReturns(t *testing.T) {
	srv := server.New(server.Options{})
	started := make(chan struct{}, 1)
	addTool(t, srv, server.ToolSpec{Name: "nap"}, func(ctx context.Context, call *server.Call, in taggedArgs) (taggedOut, error) {
		started <- struct{}{}
		select {
		case <-time.After(200 * time.Millisecond):
			return taggedOut{Tag: "rested"}, nil
		case <-ctx.Done():
			return taggedOut{}, ctx.Err()
		}
	})
	c := connect(t, context.Background(), srv)
	c.handshake()
	c.send(callLine(`"nap"`, "nap", `{"path":"x","tag":"t"}`))
	waitFor(t, started, "the call's start")
	_ = c.Close()
	select {
	case <-c.Served():
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return")
	}
	if c.Err() != nil {
		t.Fatalf("Serve: %v", c.Err())
	}
	// The output holds exactly what was written before Serve returned.
	rest := c.Rest()
	if len(rest) != 1 {
		t.Fatalf("want the call's answer alone, got %q", rest)
	}
	expectOK(t, parseResponse(t, rest[0]), `"nap"`, "rested")
}

// Caught mutations: in call.go's startCall, refusing with another code
// than -32603, or not refusing while draining (no call was refused); in
// session.go's drain, cancelling the running calls before the grace (the
// call was cancelled early), only a second after it, or never.
func TestWhileTheSessionDrainsNewCallsAreRefusedAndTheRunningOneIsCancelledAfterTheGrace(t *testing.T) {
	const grace = 200 * time.Millisecond
	srv := server.New(server.Options{ShutdownGrace: grace, MaxRepeats: -1})
	started := make(chan struct{}, 1)
	cancelled := make(chan time.Time, 1)
	addTool(t, srv, server.ToolSpec{Name: "wait"}, func(ctx context.Context, call *server.Call, in taggedArgs) (taggedOut, error) {
		started <- struct{}{}
		<-ctx.Done() // runs until it is cancelled
		cancelled <- time.Now()
		return taggedOut{}, ctx.Err()
	})
	addTool(t, srv, server.ToolSpec{Name: "quick"}, func(ctx context.Context, call *server.Call, in taggedArgs) (taggedOut, error) {
		return taggedOut{Tag: in.Tag}, nil
	})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	c := connect(t, ctx, srv)
	c.handshake()
	c.send(callLine("1", "wait", `{"path":"x","tag":"t"}`))
	waitFor(t, started, "the call's start")
	stopped := time.Now()
	stop() // the session starts draining

	// Calls read before the drain began still run; the first one read
	// after it is refused.
	for i := 2; ; i++ {
		if time.Since(stopped) > waitLimit {
			t.Fatal("no call arriving during the drain was refused")
		}
		id := fmt.Sprint(i)
		if err := c.TrySend(callLine(id, "quick", `{"path":"x","tag":"t"}`)); err != nil {
			t.Fatalf("the server stopped reading before it refused a call: %v", err)
		}
		r := c.recvResponse()
		if sameJSON(r.ID, "1") {
			t.Fatalf("the drain ended before a call was refused: %s", r.line)
		}
		if !sameJSON(r.ID, id) {
			t.Fatalf("sent %s, got %s", id, r.line)
		}
		if r.Error == nil {
			expectOK(t, r, id, "t")
			continue
		}
		if r.Error.Code != -32603 || !strings.Contains(r.Error.Message, "shutting down") {
			t.Fatalf("want -32603 saying the server is shutting down, got %s", r.line)
		}
		break
	}

	at := waitFor(t, cancelled, "the running call's cancellation after the grace")
	if waited := at.Sub(stopped); waited < grace-grace/10 || waited > grace+700*time.Millisecond {
		t.Fatalf("the running call was cancelled after %v, want soon after the grace of %v", waited, grace)
	}
	select {
	case <-c.Served():
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return")
	}
	if c.Err() != nil {
		t.Fatalf("Serve: %v", c.Err())
	}
	// The cancelled call's answer came before Serve returned, and nothing
	// else did.
	rest := c.Rest()
	if len(rest) != 1 {
		t.Fatalf("want the running call's answer alone, got %q", rest)
	}
	if r := parseResponse(t, rest[0]); !sameJSON(r.ID, "1") || !r.toolFailed() {
		t.Fatalf("want an error result for the cancelled call, got %s", r.line)
	}
}
