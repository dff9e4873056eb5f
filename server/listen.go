package server

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// This file answers subscriptions/listen, MCP 2026-07-28's one way to be
// told of changes: the request names the resources to watch
// (notifications.resourceSubscriptions), the server checks and watches
// them as resources/subscribe does (subscribe.go), acknowledges what it
// honours with notifications/subscriptions/acknowledged, then sends
// notifications/resources/updated, each carrying the request's id as
// io.modelcontextprotocol/subscriptionId, until the client ends it: over
// stdio with notifications/cancelled, over HTTP by closing the stream
// (http_listen.go). A server that ends it itself (shutting down) answers
// the request, which tells the client the end was not a failure. The
// other notifications a filter may ask for (the lists of tools, prompts
// and resources changing) never happen here, so they are left out of the
// acknowledgment, as the specification asks.

// listenParams are the params of subscriptions/listen the server reads.
type listenParams struct {
	Notifications *struct {
		ResourceSubscriptions []string `json:"resourceSubscriptions"`
	} `json:"notifications"`
}

// listen answers subscriptions/listen.
func (s *Server) listen(r *request) {
	var p listenParams
	if r.env.params == nil || json.Unmarshal(r.env.params, &p) != nil {
		r.invalidParams(`subscriptions/listen needs params with "notifications", an object whose "resourceSubscriptions" is an array of resource URIs`)
		return
	}
	var uris []string
	if p.Notifications != nil {
		seen := make(map[string]bool, len(p.Notifications.ResourceSubscriptions))
		for _, uri := range p.Notifications.ResourceSubscriptions {
			if !seen[uri] {
				seen[uri] = true
				uris = append(uris, uri)
			}
		}
	}
	if r.sess != nil && r.sess.listening(r.env.id) {
		r.fail(jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
			"Invalid Request: id %s belongs to a subscription still open; use a new id for each request", shorten(r.env.id, 24)))
		return
	}
	max := s.opts.MaxSubscriptions
	if held := s.subs.held(r.who); held+len(uris)+1 > max {
		r.failWith(tooMany(held, len(uris)+1, max))
		return
	}
	targets := make([]watchTarget, 0, len(uris))
	for _, uri := range uris {
		t, ok := s.watchTargetOf(r, uri)
		if !ok {
			return
		}
		targets = append(targets, t)
	}
	k := newSink(s, r.who, r.env.id)
	if len(targets) == 0 {
		// Nothing to watch: the stream is opened at once, and stays
		// quiet until the client closes it.
		if held, ok, _ := k.reserve(1, max, false); !ok {
			r.failWith(tooMany(held, 1, max))
			return
		}
		if r.sess != nil {
			if perr := r.sess.addListen(k); perr != nil {
				k.close()
				r.failWith(perr)
				return
			}
		}
		s.openListen(r, k, nil)
		return
	}
	w := &watchRequest{targets: targets, sink: k, self: 1, opened: func(*Call) { s.openListen(r, k, uris) }}
	if sess := r.sess; sess != nil {
		w.prepare = func() *protocolError { return sess.addListen(k) }
		w.unprepare = func() { sess.dropListen(k) }
	}
	s.startWatch(r, w)
}

// openListen acknowledges the listen request r, whose sink k watches
// uris, and starts sending its changes: on a stdio session, where the
// sink is registered already, from a goroutine of the sink's; over HTTP,
// the request's own goroutine turns its response into the stream
// (http_listen.go).
func (s *Server) openListen(r *request, k *sink, uris []string) {
	ack := ackLine(k.id, uris)
	if r.sess != nil {
		if k.ended() {
			return // cancelled, or the session ended, since it was registered
		}
		_ = r.out.notify(ack)
		go k.deliver(func(uri string) error { return r.out.notify(updatedLine(uri, k.id)) })
		return
	}
	if l, ok := r.out.(listenPeer); ok && l.listen(k, ack) {
		return
	}
	k.close()
}

// listenPeer is a peer whose response can become a subscription's
// stream (HTTP's, http_listen.go); listen reports false when the
// exchange is over already.
type listenPeer interface {
	listen(k *sink, ack []byte) bool
}

// ackLine returns the notifications/subscriptions/acknowledged line of
// the subscription id, which honours the resources uris.
func ackLine(id json.RawMessage, uris []string) []byte {
	b := []byte(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"` + metaSubscriptionID + `":`)
	b = append(b, id...)
	b = append(b, `},"notifications":{`...)
	if len(uris) > 0 {
		b = append(b, `"resourceSubscriptions":[`...)
		for i, uri := range uris {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, uri)
		}
		b = append(b, ']')
	}
	return append(b, "}}}\n"...)
}

// listenEndLine returns the response that ends the subscription id
// gracefully: the server ends it (shutting down), not a failure.
func (s *Server) listenEndLine(id json.RawMessage) []byte {
	b := appendResultHead(nil, id)
	b = append(b, `{"resultType":"complete","_meta":{"`+metaSubscriptionID+`":`...)
	b = append(b, id...)
	b = appendServerInfo(b, s.serverInfo, true)
	return append(b, "}}}\n"...)
}

// sessionWatches are the subscriptions of a stdio session: its
// resources/subscribe sink, and its open subscriptions/listen streams by
// the key of their ids.
type sessionWatches struct {
	mu      sync.Mutex
	sink    *sink
	listens map[string]*sink
	ended   bool
}

// subscriptions returns the sink of the session's resources/subscribe,
// started on first use; once the session has ended, a sink that has
// ended too.
func (s *session) subscriptions() *sink {
	w := &s.watches
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sink == nil {
		w.sink = newSink(s.srv, s.who, nil)
		if w.ended {
			w.sink.close()
		} else {
			k := w.sink
			go k.deliver(func(uri string) error { return s.out.notify(updatedLine(uri, nil)) })
		}
	}
	return w.sink
}

// listening reports whether the session has an open subscription whose
// id is id.
func (s *session) listening(id json.RawMessage) bool {
	key, bad := idKey(id)
	if bad != "" {
		return false
	}
	s.watches.mu.Lock()
	defer s.watches.mu.Unlock()
	return s.watches.listens[key] != nil
}

// addListen keeps the open subscription k, by its id, or says why not:
// a subscription of that id is open already, or the session has ended.
func (s *session) addListen(k *sink) *protocolError {
	key, _ := idKey(k.id)
	w := &s.watches
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.ended:
		return &protocolError{code: jsonrpc2.CodeInternalError, message: "the server is shutting down and takes no new subscriptions"}
	case w.listens[key] != nil:
		return &protocolError{code: jsonrpc2.CodeInvalidRequest, message: fmt.Sprintf(
			"Invalid Request: id %s belongs to a subscription still open; use a new id for each request", shorten(k.id, 24))}
	}
	if w.listens == nil {
		w.listens = make(map[string]*sink)
	}
	w.listens[key] = k
	return nil
}

// dropListen forgets the subscription k, if the session keeps it.
func (s *session) dropListen(k *sink) {
	key, _ := idKey(k.id)
	w := &s.watches
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.listens[key] == k {
		delete(w.listens, key)
	}
}

// endListen ends the subscription whose id has the key key, as the
// client asked (notifications/cancelled), and reports whether there was
// one. No response is sent: the request was cancelled.
func (s *session) endListen(key string) bool {
	w := &s.watches
	w.mu.Lock()
	k := w.listens[key]
	delete(w.listens, key)
	w.mu.Unlock()
	if k == nil {
		return false
	}
	k.close()
	return true
}

// endWatches ends every subscription of the session, as the session
// ends: each open subscriptions/listen is answered, which tells the
// client the server ended it, if the client still reads.
func (s *session) endWatches() {
	w := &s.watches
	w.mu.Lock()
	w.ended = true
	legacy, listens := w.sink, w.listens
	w.sink, w.listens = nil, nil
	w.mu.Unlock()
	if legacy != nil {
		legacy.close()
	}
	for _, k := range listens {
		k.close()
		k.sending.Lock() // a change being sent goes out before the end
		_ = s.out.respond(s.srv.listenEndLine(k.id), 0)
		k.sending.Unlock()
	}
}
