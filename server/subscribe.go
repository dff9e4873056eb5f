package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// This file lets clients watch resources: MCP 2025-11-25's
// resources/subscribe and resources/unsubscribe, over a stdio session,
// and the sinks every subscription sends its changes through, which
// subscriptions/listen (listen.go) uses too. A subscription is checked
// and its watch set by a call that runs as a read does (admit.go,
// worker.go), through the same slots, limits and policies, and the
// resource's [WatchFunc]; the server then tells the subscriber of each
// change, gathered over [Options.UpdateDelay].

// sink is where the changes to what one subscriber watches go: a stdio
// session's resources/subscribe, or one subscriptions/listen stream.
type sink struct {
	srv   *Server
	owner *principal      // whose bound it counts against
	id    json.RawMessage // the subscriptions/listen request's id; nil for resources/subscribe
	wake  chan struct{}   // signalled when something changed
	done  chan struct{}   // closed when the sink ends
	// sending is held while deliver sends a change, so that what ends the
	// sink and then answers its request writes nothing before a change
	// taken earlier (an update never follows a subscription's end).
	sending sync.Mutex

	mu      sync.Mutex
	watches map[string]func() // what stops each URI's watch, by URI
	dirty   []string          // URIs changed since last taken, each once
	marked  map[string]bool
	closed  bool
	// held is the places of the owner's bound the sink holds: one a
	// watch, and one more for a listen stream itself. close gives them
	// back, whatever happened before.
	held int
}

func newSink(srv *Server, owner *principal, id json.RawMessage) *sink {
	return &sink{srv: srv, owner: owner, id: id, wake: make(chan struct{}, 1), done: make(chan struct{}),
		watches: make(map[string]func()), marked: make(map[string]bool)}
}

// changed returns what a WatchFunc calls when uri may have changed.
func (k *sink) changed(uri string) func() {
	return func() {
		k.mu.Lock()
		if k.closed || k.marked[uri] {
			k.mu.Unlock()
			return
		}
		k.marked[uri] = true
		k.dirty = append(k.dirty, uri)
		k.mu.Unlock()
		select {
		case k.wake <- struct{}{}:
		default:
		}
	}
}

// take returns the URIs changed since it was last called, still watched.
func (k *sink) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.dirty[:0:0]
	for _, uri := range k.dirty {
		delete(k.marked, uri)
		if _, ok := k.watches[uri]; ok {
			out = append(out, uri)
		}
	}
	k.dirty = nil
	return out
}

// add keeps the watch of uri, which stop ends. A watch of uri kept
// already is replaced, and what stops it returned (a subscription set
// again); ok is false, and the caller stops the watch, once the sink has
// ended.
func (k *sink) add(uri string, stop func()) (old func(), ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return nil, false
	}
	old = k.watches[uri]
	k.watches[uri] = stop
	return old, true
}

// reserve takes n places of the owner's bound for the sink, or reports
// false and takes none, with how many the owner holds; closed is true,
// and nothing taken, once the sink has ended. force takes them beyond the
// bound (a place the sink owes).
func (k *sink) reserve(n, max int, force bool) (held int, ok, closed bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return 0, false, true
	}
	if force {
		max = int(^uint(0) >> 1)
	}
	if held, ok = k.srv.subs.reserve(k.owner, n, max); ok {
		k.held += n
	}
	return held, ok, false
}

// giveBack gives back n places the sink holds.
func (k *sink) giveBack(n int) {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return // close gave back every place it held
	}
	k.held -= n
	k.mu.Unlock()
	k.srv.subs.release(k.owner, n)
}

// ended reports whether the sink has ended.
func (k *sink) ended() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.closed
}

// has reports whether the sink watches uri.
func (k *sink) has(uri string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.watches[uri]
	return ok
}

// remove ends the watch of uri and gives back its place in the owner's
// bound, reporting whether there was one.
func (k *sink) remove(uri string) bool {
	k.mu.Lock()
	stop, ok := k.watches[uri]
	delete(k.watches, uri)
	if ok {
		k.held--
	}
	k.mu.Unlock()
	if ok {
		stop()
		k.srv.subs.release(k.owner, 1)
	}
	return ok
}

// close ends every watch of the sink, and the sink, once, and gives back
// every place of the owner's bound it holds.
func (k *sink) close() {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return
	}
	k.closed = true
	stops := make([]func(), 0, len(k.watches))
	for _, stop := range k.watches {
		stops = append(stops, stop)
	}
	k.watches = nil
	held := k.held
	k.held = 0
	k.mu.Unlock()
	close(k.done)
	for _, stop := range stops {
		stop()
	}
	k.srv.subs.release(k.owner, held)
}

// deliver sends the changes the sink gathers with send, until the sink
// ends or send fails: each wake-up waits UpdateDelay for more changes,
// then sends each URI changed once.
func (k *sink) deliver(send func(uri string) error) {
	for {
		select {
		case <-k.done:
			return
		case <-k.wake:
		}
		if !k.gather() {
			return
		}
		for _, uri := range k.take() {
			k.sending.Lock()
			err := errSinkEnded
			if !k.ended() {
				err = send(uri)
			}
			k.sending.Unlock()
			if err != nil {
				return
			}
		}
	}
}

// errSinkEnded stops deliver: the sink ended while it sent.
var errSinkEnded = errors.New("the subscription ended")

// gather waits UpdateDelay, for the changes that come with the first one;
// false if the sink ended meanwhile.
func (k *sink) gather() bool {
	t := time.NewTimer(k.srv.opts.UpdateDelay)
	defer t.Stop()
	select {
	case <-k.done:
		return false
	case <-t.C:
		return true
	}
}

// subscriptions counts what each client watches, against
// Options.MaxSubscriptions.
type subscriptions struct {
	mu sync.Mutex
	n  map[*principal]int
}

// reserve takes n places of owner's bound, or reports false and takes
// none, with how many it holds.
func (ss *subscriptions) reserve(owner *principal, n, max int) (held int, ok bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	held = ss.n[owner]
	if held+n > max {
		return held, false
	}
	if ss.n == nil {
		ss.n = make(map[*principal]int)
	}
	ss.n[owner] = held + n
	return held, true
}

// release gives back n places of owner's bound.
func (ss *subscriptions) release(owner *principal, n int) {
	if n == 0 {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if left := ss.n[owner] - n; left > 0 {
		ss.n[owner] = left
	} else {
		delete(ss.n, owner)
	}
}

// held returns how many places owner holds.
func (ss *subscriptions) held(owner *principal) int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.n[owner]
}

// tooMany is the refusal of a subscription past the bound.
func tooMany(held, asked, max int) *protocolError {
	return &protocolError{code: jsonrpc2.CodeInvalidParams, message: fmt.Sprintf(
		"Invalid params: this client watches %d resources already, and %d more would pass the most one client may watch (%d, --max-subscriptions); end some subscriptions first (unsubscribe, or close a listen stream)",
		held, asked, max)}
}

// watchTarget is one resource a subscription watches.
type watchTarget struct {
	uri  string
	res  *resource
	vars map[string]string
}

// watchRequest is what a subscription's call asks: the resources to
// watch, the sink their changes go to, and what to do once it is
// answered. The watches it starts are kept here until then, so that a
// call answered otherwise (refused, timed out, cancelled) leaves none
// running; the places of the owner's bound are taken only then too, so
// that a call refused before it runs holds none.
type watchRequest struct {
	targets []watchTarget
	sink    *sink
	// self is the places the sink takes for itself once opened: one for
	// a listen stream, none for a session's subscriptions.
	self int
	// opened is called once the watches are the sink's, to answer the
	// request: {} for resources/subscribe, the acknowledgment and the
	// stream for subscriptions/listen.
	opened func(c *Call)
	// prepare, if set, registers a listen in its session before the call
	// leaves the calls in flight, or says why it cannot be (its id is
	// listening already, the session ended); unprepare undoes it.
	prepare   func() *protocolError
	unprepare func()

	mu      sync.Mutex
	started []startedWatch
	settled bool
}

// startedWatch is a watch a subscription's call has set.
type startedWatch struct {
	uri  string
	stop func()
}

// run sets the watch of every target, as the innermost handler of the
// subscription's call.
func (w *watchRequest) run(ctx context.Context, c *Call) (*CallToolResult, error) {
	for _, t := range w.targets {
		stop, err := t.res.spec.Watch(ctx, c, t.uri, t.vars, w.sink.changed(t.uri))
		if err != nil {
			return nil, err
		}
		if stop == nil {
			stop = func() {}
		}
		w.mu.Lock()
		settled := w.settled
		if !settled {
			w.started = append(w.started, startedWatch{t.uri, stop})
		}
		w.mu.Unlock()
		if settled {
			stop() // answered already (its time ran out): nothing may stay watched
			return nil, context.Cause(ctx)
		}
	}
	return &CallToolResult{read: true}, nil
}

// finish settles the request: the watches started are returned when it
// succeeded and stopped when not; a watch started later is stopped at
// once.
func (w *watchRequest) finish(ok bool) []startedWatch {
	w.mu.Lock()
	w.settled = true
	started := w.started
	w.started = nil
	w.mu.Unlock()
	if ok {
		return started
	}
	for _, s := range started {
		s.stop()
	}
	return nil
}

// answerWatch answers a subscription's call: its watches go to the sink
// and the request is answered as its method wants (opened), or they are
// stopped and the refusal sent as a read's would be. The places of the
// owner's bound are taken here, where the watches become the sink's; a
// subscription that finds them taken meanwhile is refused. A listen is
// registered (prepare) before the call leaves the calls in flight, so
// that a cancellation always finds one or the other.
func (s *Server) answerWatch(c *Call, res *CallToolResult, err error) {
	w := c.read.watch
	if err != nil || res == nil || res.IsError || !res.read {
		w.finish(false)
		w.sink.closeIf(w.self > 0)
		if !answerPending(c, err) {
			s.answerRead(c, res, err)
		}
		return
	}
	started := w.finish(true)
	stopAll := func() {
		for _, st := range started {
			st.stop()
		}
	}
	if w.prepare != nil {
		if perr := w.prepare(); perr != nil {
			stopAll()
			w.sink.close()
			if c.close(&callEvent{status: "error", result: ErrorResult(perr.message)}, nil) {
				_ = c.out.respond(appendError(nil, c.ID, perr.code, perr.message, nil), perr.code)
			}
			return
		}
	}
	if c.settle() {
		stopAll()
		w.sink.closeIf(w.self > 0)
		if w.unprepare != nil {
			w.unprepare()
		}
		c.close(&callEvent{status: "cancelled", result: res}, nil)
		return
	}
	fresh := make([]bool, len(started))
	n := w.self
	for i, st := range started {
		if fresh[i] = !w.sink.has(st.uri); fresh[i] {
			n++
		}
	}
	max := s.opts.MaxSubscriptions
	held, ok, closed := w.sink.reserve(n, max, false)
	if !ok {
		stopAll()
		if closed { // cancelled since it was registered: no answer is due
			c.close(&callEvent{status: "cancelled", result: res}, nil)
			return
		}
		if w.unprepare != nil {
			w.unprepare()
		}
		w.sink.closeIf(w.self > 0)
		e := tooMany(held, n, max)
		if c.close(&callEvent{status: "error", result: ErrorResult(e.message)}, nil) {
			_ = c.out.respond(appendError(nil, c.ID, e.code, e.message, nil), e.code)
		}
		return
	}
	for i, st := range started {
		old, ok := w.sink.add(st.uri, st.stop)
		switch {
		case !ok:
			st.stop() // the sink ended: its places went back with it
		case old != nil:
			old() // set again: the new watch takes the old one's place
			if fresh[i] {
				w.sink.giveBack(1)
			}
		case !fresh[i]:
			w.sink.reserve(1, max, true) // unsubscribed meanwhile: its place is due again
		}
	}
	if !c.close(&callEvent{status: "ok", result: res}, nil) {
		w.sink.closeIf(w.self > 0)
		return
	}
	w.opened(c)
}

// closeIf closes the sink when yes: a listen's sink, which is its
// request's alone, unlike a session's.
func (k *sink) closeIf(yes bool) {
	if yes {
		k.close()
	}
}

// subscribeParams reads the uri of resources/subscribe and unsubscribe.
func subscribeParams(r *request) (string, bool) {
	var p struct {
		URI *string `json:"uri"`
	}
	if r.env.params == nil || json.Unmarshal(r.env.params, &p) != nil || p.URI == nil {
		r.invalidParams(`%s needs params with "uri", a string`, r.env.method)
		return "", false
	}
	return *p.URI, true
}

// watchTargetOf returns what watching uri at level max takes, or answers
// r with why it cannot be watched.
func (s *Server) watchTargetOf(r *request, uri string) (watchTarget, bool) {
	res, vars := s.resources.match(uri, s.levelOf(r.grant))
	switch {
	case res == nil:
		r.failWith(&ResourceNotFound(uri).(*callError).protocolError)
		return watchTarget{}, false
	case res.spec.Watch == nil:
		r.failWith(&protocolError{code: jsonrpc2.CodeInvalidParams, message: fmt.Sprintf(
			"Invalid params: the resource %s cannot be watched; read it again to see a change", shortenString(uri, 200)), data: uriData(uri)})
		return watchTarget{}, false
	}
	return watchTarget{uri: uri, res: res, vars: vars}, true
}

// subscribe answers resources/subscribe: over a stdio session, the
// session's sink watches the resource from then on, and the session is
// sent notifications/resources/updated as it changes.
func (s *Server) subscribe(r *request) {
	if r.sess == nil {
		r.fail(jsonrpc2.CodeMethodNotFound, fmt.Sprintf(
			"Method not found: resources/subscribe needs a session, which this server keeps over stdio only; over Streamable HTTP use subscriptions/listen of MCP %s", ModernVersion))
		return
	}
	uri, ok := subscribeParams(r)
	if !ok {
		return
	}
	t, ok := s.watchTargetOf(r, uri)
	if !ok {
		return
	}
	k := r.sess.subscriptions()
	// Subscribed already, the watch is set again (it may have ended: its
	// folder moved away), in the place it holds.
	if held := s.subs.held(k.owner); !k.has(uri) && held+1 > s.opts.MaxSubscriptions {
		r.failWith(tooMany(held, 1, s.opts.MaxSubscriptions))
		return
	}
	s.startWatch(r, &watchRequest{
		targets: []watchTarget{t},
		sink:    k,
		opened:  func(c *Call) { _ = c.out.respond(appendRawResult(nil, c.ID, []byte("{}")), 0) },
	})
}

// unsubscribe answers resources/unsubscribe: the session no longer
// watches the resource. A URI it does not watch is answered {} as well.
func (s *Server) unsubscribe(r *request) {
	if r.sess == nil {
		r.fail(jsonrpc2.CodeMethodNotFound, fmt.Sprintf(
			"Method not found: resources/unsubscribe needs a session, which this server keeps over stdio only; over Streamable HTTP close the subscriptions/listen stream of MCP %s", ModernVersion))
		return
	}
	uri, ok := subscribeParams(r)
	if !ok {
		return
	}
	r.sess.subscriptions().remove(uri)
	r.reply([]byte("{}"))
}

// startWatch runs the call that sets the watches of w, as a read runs.
func (s *Server) startWatch(r *request, w *watchRequest) {
	s.start(r, func(r *request, received time.Time) (*Call, *wireError) {
		c := s.requestCall(r, received)
		if meta := r.env.meta; meta != nil {
			c.readMeta(meta)
		}
		first := w.targets[0]
		c.tool, c.Tool = first.res.tool, first.res.tool.spec.Name
		c.read = &readRequest{uri: first.uri, vars: first.vars, watch: w}
		return c, nil
	})
}

// updatedLine returns the notifications/resources/updated line of uri,
// with the subscription's id in its _meta when it has one.
func updatedLine(uri string, id json.RawMessage) []byte {
	b := []byte(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{`)
	if id != nil {
		b = append(b, `"_meta":{"`+metaSubscriptionID+`":`...)
		b = append(b, id...)
		b = append(b, "},"...)
	}
	b = append(b, `"uri":`...)
	b = appendString(b, uri)
	return append(b, "}}\n"...)
}

// metaSubscriptionID is the _meta key of the subscription a message
// belongs to, in MCP 2026-07-28: the id of its subscriptions/listen.
const metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"
