package main

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// A turn runs the tool calls of one reply of the model, while the reply
// still streams.
//
// Calls are admitted in the model's order, each as soon as its JSON
// closes (a call that closes before an earlier one waits for it to be
// admitted). Admission decides how the call runs:
//
//   - a call whose arguments fail the tool's schema is not run: its answer
//     says what to fix;
//   - a call identical to an earlier one (same tool, same arguments in
//     canonical form) with no other write between them is not run: it
//     gets the earlier call's answer, marked as a repeat. A write between
//     them may change what the repeat would see, so then it runs;
//   - a safe call (a tool with readOnlyHint, or one named by --safe-tools)
//     starts at once, while the model goes on talking, unless a write
//     came before it in the turn, or it repeats a call of the turn before
//     (a turn that only repeats the last one is a loop, and is stopped
//     before it runs anything);
//   - any other call may write, and is a barrier: it waits for every call
//     before it and for the reply's end, and every later call waits for
//     it. Writes therefore run one at a time, in the model's order, and
//     never for a reply that fails before its end.
//
// At most cap(slots) calls run at once. A call's failure is its own
// answer: the others run regardless. Each answer goes back under an id of
// its own (see uniqueID).
//
// Invariants: watch, admitRest, wait and abort are called from one
// goroutine (the loop's, which also reads the stream); each call's
// goroutine writes only its own result, and a call's done channel is
// closed once its result is final, so whoever waits on it may read it.
// Once the turn's context is done (abort, or the run's own context), no
// call starts: each checks it after its last wait.
type turn struct {
	ctx    context.Context
	cancel context.CancelFunc
	a      *agent
	// prev holds the keys of the calls of the turn before.
	prev     map[string]bool
	slots    chan struct{}
	released chan struct{}
	wg       sync.WaitGroup

	admitted map[*streamedCall]bool
	ids      map[string]bool       // the ids answers go back under
	ready    map[int]*streamedCall // whole calls waiting for an earlier one
	next     int                   // the index of the next call to admit
	calls    []*turnCall           // admitted, in the model's order
	// Barrier bookkeeping: the last write, the calls that ran since it,
	// and the calls since it by key, for merging repeats.
	lastWrite *turnCall
	since     []*turnCall
	seen      map[string]*turnCall
}

// turnCall is one admitted call and, once done is closed, its answer.
type turnCall struct {
	index          int
	id, name, args string
	line           string // for the terminal
	key            string // name and canonical arguments
	write          bool
	hold           bool        // waits for the reply's end
	deps           []*turnCall // runs after these
	dupOf          *turnCall   // a repeat: not run
	refused        string      // not run: the answer to give instead
	done           chan struct{}

	res         mcpResult
	err         error // the call could not be made (the server is gone)
	start, stop time.Time
}

// newTurn starts a turn whose calls run within ctx; prev holds the call
// keys of the turn before.
func (a *agent) newTurn(ctx context.Context, prev map[string]bool) *turn {
	ctx, cancel := context.WithCancel(ctx)
	return &turn{ctx: ctx, cancel: cancel, a: a, prev: prev,
		slots: make(chan struct{}, max(a.limits.Parallel, 1)), released: make(chan struct{}),
		admitted: map[*streamedCall]bool{}, ids: map[string]bool{}, ready: map[int]*streamedCall{}, seen: map[string]*turnCall{}}
}

// watch follows the reply as it streams: it shows each call, checks its
// arguments against the tool's schema as they arrive, and admits the
// calls whose JSON has closed.
func (t *turn) watch(c *streamedCall) {
	if t.admitted[c] {
		return // what follows a call's closed JSON is not its arguments
	}
	t.a.show.streaming(c)
	if c.watch == nil && c.Name != "" {
		t.a.follow(c)
	}
	if !c.whole || c.Name == "" {
		return // a call without a name is not run: the model is asked again
	}
	t.admitted[c] = true
	t.ready[c.Index] = c
	for {
		r := t.ready[t.next]
		if r == nil {
			return
		}
		delete(t.ready, t.next)
		t.next++
		t.admit(r)
	}
}

// admitRest admits, in order, the calls of a finished reply not admitted
// yet: those after a gap in the indexes, and, from a whole reply (text
// mode, or an endpoint that did not stream), all of them.
func (t *turn) admitRest(calls []*streamedCall) {
	for _, c := range calls {
		if t.ready[c.Index] == c {
			delete(t.ready, c.Index)
			t.admit(c)
			continue
		}
		if !t.admitted[c] {
			t.admitted[c] = true
			t.admit(c)
		}
	}
	t.ready = map[int]*streamedCall{}
}

// admit decides how c runs and starts it.
func (t *turn) admit(c *streamedCall) {
	tc := &turnCall{index: c.Index, id: t.uniqueID(c), name: c.Name, args: c.WholeArguments(), line: callLine(c), done: make(chan struct{})}
	tc.key = tc.name + " " + canonical(tc.args)
	t.calls = append(t.calls, tc)
	if msg := t.a.checkArguments(tc.name, tc.args); msg != "" {
		tc.refused = msg
		close(tc.done)
		t.a.show.refused(tc)
		return
	}
	if orig := t.seen[tc.key]; orig != nil {
		tc.dupOf = orig
		close(tc.done)
		t.a.show.repeat(tc)
		return
	}
	tc.write = !t.a.isSafe(tc.name)
	if tc.write {
		tc.deps = append(tc.deps, t.since...)
		if t.lastWrite != nil {
			tc.deps = append(tc.deps, t.lastWrite)
		}
		tc.hold = true
		t.lastWrite, t.since, t.seen = tc, nil, map[string]*turnCall{tc.key: tc}
	} else {
		if t.lastWrite != nil {
			tc.deps = []*turnCall{t.lastWrite}
		}
		tc.hold = t.prev[tc.key]
		t.since = append(t.since, tc)
		t.seen[tc.key] = tc
	}
	t.a.show.admitted(tc, tc.hold || len(tc.deps) > 0)
	t.wg.Add(1)
	go t.run(tc)
}

// uniqueID returns the id c's answer goes back under: the model's, unless
// it gave none or one an earlier call of the turn has (some models number
// every call the same), then one made from c's place, "call_3". The API
// pairs each answer with its call by this id, so two calls must never
// share one.
func (t *turn) uniqueID(c *streamedCall) string {
	id := c.ID
	for k := 1; id == "" || t.ids[id]; k++ {
		id = "call_" + strconv.Itoa(c.Index+1)
		if k > 1 {
			id += "_" + strconv.Itoa(k)
		}
	}
	t.ids[id] = true
	return id
}

// run waits for what tc must wait for, then makes the call.
func (t *turn) run(tc *turnCall) {
	defer t.wg.Done()
	defer close(tc.done)
	if tc.hold {
		select {
		case <-t.released:
		case <-t.ctx.Done():
			tc.err = t.ctx.Err()
			return
		}
	}
	for _, d := range tc.deps {
		select {
		case <-d.done:
		case <-t.ctx.Done():
			tc.err = t.ctx.Err()
			return
		}
	}
	select {
	case t.slots <- struct{}{}:
	default:
		t.a.show.waiting(tc) // every slot is taken: --parallel calls run
		select {
		case t.slots <- struct{}{}:
		case <-t.ctx.Done():
			tc.err = t.ctx.Err()
			return
		}
	}
	// When a slot or a call waited for came free as the turn was stopped,
	// select may have taken either case: a call of a stopped turn must not
	// start (the request would reach the server, a write included).
	if err := t.ctx.Err(); err != nil {
		<-t.slots
		tc.err = err
		return
	}
	tc.start = time.Now()
	t.a.show.running(tc)
	tc.res, tc.err = t.a.tools.callTool(t.ctx, tc.name, json.RawMessage(tc.args))
	tc.stop = time.Now()
	<-t.slots
	t.a.show.finished(tc)
}

// release lets the held calls go: the reply is whole and the loop goes on.
func (t *turn) release() { close(t.released) }

// wait releases the held calls and returns once every call is done.
func (t *turn) wait() {
	t.release()
	t.wg.Wait()
	t.cancel()
}

// abort stops the calls still waiting or running and waits for them.
func (t *turn) abort() {
	t.cancel()
	t.wg.Wait()
}

// answer returns the text the model reads for tc, once it is done.
func (t *turn) answer(tc *turnCall) string {
	switch {
	case tc.refused != "":
		return tc.refused
	case tc.dupOf != nil:
		return t.a.msg(msgRepeat, tc.dupOf.id) + "\n" + t.answer(tc.dupOf)
	}
	content := trim(tc.res.Text, t.a.limits.ResultBudget)
	if tc.res.IsError {
		content = t.a.msg(msgErrorPrefix) + content
	}
	return content
}

// failed returns the first error that kept a call from being made, other
// than the turn's own cancellation.
func (t *turn) failed() error {
	for _, tc := range t.calls {
		if tc.err != nil {
			return tc.err
		}
	}
	return nil
}
