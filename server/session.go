package server

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// session is what a stdio connection adds to the requests it carries:
// the handshake, the client's roots and log level, the ids of its calls
// in flight (which notifications/cancelled names), and the workers that
// run its calls. It is the connection scope; what holds across
// connections and requests lives on the Server (scope.go). It knows no
// transport: it reads decoded messages and answers through its peer.
type session struct {
	srv *Server
	out peer
	log zerolog.Logger
	who *principal // the session's limits and loop guard

	base      context.Context // parent of every call's context
	cancelAll context.CancelFunc
	work      chan *Call // idle workers wait here for a call to run
	workMu    sync.Mutex // guards draining, stopping, and work against a send after close
	draining  bool       // no new call may start: drain is waiting for the running ones
	stopping  bool
	running   sync.WaitGroup

	trace string // in every log line of the session's calls
	roots roots

	initialized atomic.Bool
	clientLevel atomic.Int32 // lowest level sent as notifications/message; -1 none

	watches sessionWatches // its subscriptions (listen.go)

	mu       sync.Mutex
	version  string     // negotiated protocol version
	client   clientInfo // from initialize
	inflight map[string]*Call
}

func newSession(ctx context.Context, srv *Server, out peer) *session {
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &session{
		srv:       srv,
		out:       out,
		log:       srv.log,
		base:      base,
		cancelAll: cancel,
		work:      make(chan *Call),
		inflight:  make(map[string]*Call),
	}
	s.roots.ready = make(chan struct{})
	s.trace = newTraceID()
	s.who = srv.principals.get(s.principalKey(), &srv.opts)
	s.clientLevel.Store(-1)
	return s
}

// principalKey is the key of the session's principal: the session
// itself, which no HTTP client or middleware can name.
func (s *session) principalKey() string { return "\x00session " + s.trace }

// dispatch acts on one request or notification. It runs in the reader:
// protocol methods are answered right here, in arrival order; tool calls
// are resolved and admitted here, then run on a worker.
func (s *session) dispatch(env envelope) {
	if env.kind == kindNotification {
		s.handleNotification(env)
		return
	}
	r := &request{env: env, out: s.out, sess: s, ctx: s.base, who: s.who}
	e, perr := readEra(env.meta)
	if perr != nil {
		r.failWith(perr)
		return
	}
	r.era = e
	s.srv.serve(r)
}

// handleNotification acts on a notification. Notifications never get a
// response, and unknown ones are ignored.
func (s *session) handleNotification(env envelope) {
	switch env.method {
	case "notifications/initialized":
		s.log.Debug().Msg("client finished the handshake")
		if s.roots.wanted {
			go s.fetchRoots(s.base)
		}
	case "notifications/roots/list_changed":
		if s.roots.wanted {
			go s.fetchRoots(s.base)
		}
	case "notifications/cancelled":
		s.cancelCall(env.params)
	default:
		s.log.Debug().Str("method", clip(env.method)).Msg("ignored notification")
	}
}

// cancelCall cancels the call a notifications/cancelled names. Unknown
// and finished ids are ignored, as MCP requires.
func (s *session) cancelCall(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.RequestID) == 0 {
		s.log.Debug().Msg("ignored a cancellation without a readable requestId")
		return
	}
	key, bad := idKey(p.RequestID)
	if bad != "" {
		return
	}
	if s.endListen(key) {
		s.log.Info().RawJSON("id", clipJSON(p.RequestID)).Msg("subscription ended by the client")
		return
	}
	s.mu.Lock()
	c := s.inflight[key]
	s.mu.Unlock()
	if c == nil {
		s.log.Debug().RawJSON("id", clipJSON(p.RequestID)).Msg("cancellation for no call in flight")
		return
	}
	s.log.Info().RawJSON("id", clipJSON(p.RequestID)).Str("reason", clip(p.Reason)).Msg("call cancelled by the client")
	c.cancelByClient()
}

// forget removes a call from the calls in flight.
func (s *session) forget(c *Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inflight[c.key] == c {
		delete(s.inflight, c.key)
	}
}

// drain waits for the calls in flight and returns within grace: the calls
// still running at the last tenth of it (at most its last half second)
// are cancelled and have the rest to return; a call that ignores its
// cancellation is left behind.
func (s *session) drain(grace time.Duration) {
	// From here on startCall refuses new calls, so that running, which is
	// waited for below, is never added to meanwhile.
	s.workMu.Lock()
	s.draining = true
	s.workMu.Unlock()
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	last := min(grace/10, 500*time.Millisecond)
	select {
	case <-done:
	case <-time.After(grace - last):
		s.log.Warn().Dur("grace", grace).Msg("calls still running at shutdown; cancelling them")
		s.cancelAll()
		select {
		case <-done:
		case <-time.After(last):
			s.log.Error().Msg("calls ignored cancellation; leaving them behind")
		}
	}
	s.cancelAll()
	s.endWatches()
	s.workMu.Lock()
	s.stopping = true
	close(s.work) // the idle workers end; a worker still busy ends after its call
	s.workMu.Unlock()
	s.srv.principals.drop(s.principalKey())
}
