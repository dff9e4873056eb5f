package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

// blockTools holds every call until its context ends, and counts the calls
// in flight.
type blockTools struct {
	mu       sync.Mutex
	inFlight int
	most     int
	ran      []string
	started  chan string // each call's name as it starts
}

func (b *blockTools) callTool(ctx context.Context, name string, args json.RawMessage) (mcpResult, error) {
	b.mu.Lock()
	b.inFlight++
	b.most = max(b.most, b.inFlight)
	b.ran = append(b.ran, name+" "+string(args))
	b.mu.Unlock()
	b.started <- name
	<-ctx.Done()
	b.mu.Lock()
	b.inFlight--
	b.mu.Unlock()
	return mcpResult{}, ctx.Err()
}

// replyModel streams calls whole through watch, then answers its first
// request with err, or with the calls.
type replyModel struct {
	calls [][2]string
	err   error
	// beforeEnd, when set, runs once every call is whole, before the end.
	beforeEnd func()
	// ids, when set, are the calls' ids; by default id_1, id_2…
	ids []string
	// asked holds the requests after the first, which it answers "done".
	asked [][]message
}

func (m *replyModel) complete(_ context.Context, msgs []message, _ []chatTool, watch func(*streamedCall)) (*reply, error) {
	if m.asked != nil {
		m.asked = append(m.asked, msgs)
		return &reply{Content: "done", FinishReason: "stop"}, nil
	}
	m.asked = [][]message{}
	rep := &reply{FinishReason: "tool_calls"}
	for i, c := range m.calls {
		sc := streamCall(i, c[0])
		sc.ID = fmt.Sprintf("id_%d", i+1)
		if m.ids != nil {
			sc.ID = m.ids[i]
		}
		watch(sc)
		sc.add("", "", c[1])
		sc.close()
		watch(sc)
		rep.Calls = append(rep.Calls, sc)
	}
	if m.beforeEnd != nil {
		m.beforeEnd()
	}
	if m.err != nil {
		return nil, m.err
	}
	return rep, nil
}

var fourReadsAndAWrite = [][2]string{{"look", `{"n":1}`}, {"look", `{"n":2}`}, {"look", `{"n":3}`}, {"look", `{"n":4}`}, {"put", `{"n":5}`}}

func TestAStreamThatFailsStopsTheReadsItStartedAndRunsNoWrite(t *testing.T) {
	b := &blockTools{started: make(chan string, 8)}
	a := testAgent(t, b, i18n.English)
	broken := errors.New("the stream broke")
	a.model = &replyModel{calls: fourReadsAndAWrite, err: broken, beforeEnd: func() {
		for range a.limits.Parallel {
			<-b.started // the reads started while the reply streamed
		}
	}}
	_, err := a.run(context.Background(), []message{{Role: "user", Content: text("go")}})
	if !errors.Is(err, broken) {
		t.Fatalf("run: %v, want the stream's error", err)
	}
	// run returned: every call it started has returned too.
	if b.inFlight != 0 || len(b.ran) != a.limits.Parallel {
		t.Errorf("%d calls still in flight, %q ran; want none in flight, and the first %d reads run", b.inFlight, b.ran, a.limits.Parallel)
	}
}

func TestACancelledTurnReturnsWithTheWriteNotRun(t *testing.T) {
	b := &blockTools{started: make(chan string, 8)}
	a := testAgent(t, b, i18n.English)
	a.model = &replyModel{calls: fourReadsAndAWrite}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for range a.limits.Parallel {
			<-b.started
		}
		cancel()
	}()
	_, err := a.run(ctx, []message{{Role: "user", Content: text("go")}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want the cancellation", err)
	}
	for _, r := range b.ran {
		if r == `put {"n":5}` {
			t.Errorf("the write ran in a cancelled turn: %q", b.ran)
		}
	}
	if b.inFlight != 0 || b.most > a.limits.Parallel {
		t.Errorf("%d in flight after run, at most %d at once; want 0, and at most %d", b.inFlight, b.most, a.limits.Parallel)
	}
}

// countTools answers every call, counting how many run at once.
type countTools struct {
	mu             sync.Mutex
	inFlight, most int
	gate           chan struct{}
}

func (c *countTools) callTool(_ context.Context, _ string, args json.RawMessage) (mcpResult, error) {
	c.mu.Lock()
	c.inFlight++
	c.most = max(c.most, c.inFlight)
	c.mu.Unlock()
	<-c.gate // held until the test has let every admitted call try to start
	c.mu.Lock()
	c.inFlight--
	c.mu.Unlock()
	return mcpResult{Text: string(args)}, nil
}

func TestNoMoreReadsRunAtOnceThanParallelAllows(t *testing.T) {
	for _, parallel := range []int{1, 2, 3, 8} {
		c := &countTools{gate: make(chan struct{})}
		a := testAgent(t, c, i18n.English)
		a.limits.Parallel = parallel
		tr := a.newTurn(context.Background(), nil)
		for i := range 6 {
			sc := streamCall(i, "look")
			sc.ID = fmt.Sprintf("id_%d", i+1)
			tr.watch(sc)
			sc.add("", "", fmt.Sprintf(`{"n":%d}`, i))
			tr.watch(sc)
		}
		// Let the calls through one at a time: each time, every call that
		// could start has had the chance to.
		done := make(chan struct{})
		go func() { tr.wait(); close(done) }()
		for range 6 {
			c.gate <- struct{}{}
		}
		<-done
		if c.most > parallel || c.most < 1 {
			t.Errorf("--parallel %d: %d calls ran at once", parallel, c.most)
		}
		for i, tc := range tr.calls {
			if got, want := tr.answer(tc), fmt.Sprintf(`{"n":%d}`, i); got != want {
				t.Errorf("--parallel %d: answer %d is %q, want %q", parallel, i, got, want)
			}
		}
	}
}

func TestEachCallIsAnsweredUnderAnIDOfItsOwnWhenTheModelReusesOne(t *testing.T) {
	calls := [][2]string{{"look", `{"n":1}`}, {"look", `{"n":2}`}, {"look", `{"n":1}`}, {"put", `{"n":3}`}}
	m := &replyModel{calls: calls, ids: []string{"x", "x", "", "call_3"}}
	a := testAgent(t, &echoTools{}, i18n.English)
	a.model = m
	if final, err := a.run(context.Background(), []message{{Role: "user", Content: text("go")}}); err != nil || final != "done" {
		t.Fatalf("run: %q, %v", final, err)
	}
	msgs := m.asked[0][1:]
	seen := map[string]bool{}
	for k, tc := range msgs[0].ToolCalls {
		if seen[tc.ID] || tc.ID == "" {
			t.Errorf("call %d goes back under the id %q, which another call has", k+1, tc.ID)
		}
		seen[tc.ID] = true
		if ans := msgs[1+k]; ans.Role != "tool" || ans.ToolCallID != tc.ID {
			t.Errorf("message %d answers %q, want %q", 1+k, ans.ToolCallID, tc.ID)
		}
	}
	if len(msgs[0].ToolCalls) != len(calls) || msgs[0].ToolCalls[0].ID != "x" {
		t.Errorf("the calls go back as %+v; the first keeps its id", msgs[0].ToolCalls)
	}
	// The repeat names the call it repeats by the id it goes back under.
	if got, want := content(msgs[3]), "Same call as x, run once"; !strings.HasPrefix(got, want) {
		t.Errorf("the repeat reads %q, want it to begin %q", got, want)
	}
}

// signalWriter keeps what is written and signals each line holding word.
type signalWriter struct {
	mu   sync.Mutex
	b    strings.Builder
	word string
	seen chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if strings.Contains(string(p), w.word) {
		w.seen <- struct{}{}
	}
	return w.b.Write(p)
}

func TestAReadWaitingForASlotIsShownWaiting(t *testing.T) {
	c := &countTools{gate: make(chan struct{})}
	a := testAgent(t, c, i18n.English)
	out := &signalWriter{word: " waits\n", seen: make(chan struct{}, 2)}
	a.show = &progress{w: out}
	a.limits.Parallel = 1
	tr := a.newTurn(context.Background(), nil)
	for i := range 2 {
		sc := streamCall(i, "look")
		tr.watch(sc)
		sc.add("", "", fmt.Sprintf(`{"n":%d}`, i))
		tr.watch(sc)
	}
	// One read holds the only slot until the other is shown waiting.
	select {
	case <-out.seen:
	case <-time.After(10 * time.Second):
		t.Error("no call was shown waiting for the slot")
	}
	c.gate <- struct{}{}
	c.gate <- struct{}{}
	tr.wait()
	if got := strings.Count(out.b.String(), " waits\n"); got != 1 {
		t.Errorf("%d lines say a call waits, want 1:\n%s", got, out.b.String())
	}
}

// failTools fails every call of "put" as a tool error, and answers the
// others with their arguments.
type failTools struct{ echoTools }

func (f *failTools) callTool(ctx context.Context, name string, args json.RawMessage) (mcpResult, error) {
	res, err := f.echoTools.callTool(ctx, name, args)
	if name == "put" {
		res = mcpResult{Text: "disk full", IsError: true}
	}
	return res, err
}

func TestABarrierThatIsRefusedOrFailsHoldsNoCallBack(t *testing.T) {
	f := &failTools{}
	a := testAgent(t, f, i18n.English)
	tr := a.newTurn(context.Background(), nil)
	calls := [][2]string{{"look", `{"n":1}`}, {"put", `{"n":"two"}`}, {"look", `{"n":3}`}, {"put", `{"n":4}`}, {"look", `{"n":5}`}}
	for i, c := range calls {
		sc := streamCall(i, c[0])
		sc.ID = fmt.Sprintf("id_%d", i+1)
		tr.watch(sc)
		sc.add("", "", c[1])
		tr.watch(sc)
	}
	done := make(chan struct{})
	go func() { tr.wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the turn never ended")
	}
	want := []string{`ran {"n":1}`, `Not run: the arguments do not match the schema of put. /n: a string was given where an integer is required. Fix them and call again.`,
		`ran {"n":3}`, `Error: disk full`, `ran {"n":5}`}
	for i, tc := range tr.calls {
		if got := tr.answer(tc); got != want[i] {
			t.Errorf("answer %d: %q, want %q", i+1, got, want[i])
		}
	}
	// The refused write is no barrier: the reads around it may run in
	// either order; the write that ran came after both, the last read
	// after it.
	if len(f.ran) != 4 {
		t.Fatalf("ran %q", f.ran)
	}
	slices.Sort(f.ran[:2])
	if !slices.Equal(f.ran, []string{`look {"n":1}`, `look {"n":3}`, `put {"n":4}`, `look {"n":5}`}) {
		t.Errorf("ran %q", f.ran)
	}
}
