package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/sourcegraph/jsonrpc2"
)

// session is the state of one client connection: the handshake, the calls
// in flight, the client's log level and the per-session state of the
// policies. It knows no transport: it reads decoded messages and answers
// through its peer.
type session struct {
	srv *Server
	out peer
	log zerolog.Logger

	base      context.Context // parent of every call's context
	cancelAll context.CancelFunc
	slots     chan struct{} // one token per call running
	queue     *callQueue    // admitted calls waiting for a slot (queue.go)
	work      chan *Call    // idle workers wait here for a call to run
	workMu    sync.Mutex    // guards draining, stopping, and work against a send after close
	draining  bool          // no new call may start: drain is waiting for the running ones
	stopping  bool
	inline    bool // calls run on the dispatching goroutine (one request per session: HTTP)
	running   sync.WaitGroup

	trace  string      // in every log line of the session's calls
	handle ToolHandler // the policies around the tools, built once (policy.go)

	// The per-session state of the built-in policies.
	roots   roots
	limiter *callLimiter
	guard   *loopGuard // the session's, or over HTTP its client's
	paths   pathQueues
	alone   sync.RWMutex // held for writing by an Exclusive tool

	initialized atomic.Bool
	clientLevel atomic.Int32 // lowest level sent as notifications/message; -1 none

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
		slots:     make(chan struct{}, srv.opts.MaxInFlight),
		queue:     newCallQueue(srv.opts.MaxQueued, srv.opts.MaxQueuedBytes),
		work:      make(chan *Call),
		inflight:  make(map[string]*Call),
	}
	s.roots.ready = make(chan struct{})
	s.limiter = newCallLimiter(&srv.opts)
	s.trace = newTraceID()
	s.guard = &loopGuard{max: srv.opts.MaxRepeats}
	s.clientLevel.Store(-1)
	s.handle = s.policies()
	go s.feed()
	return s
}

// dispatch acts on one request or notification. It runs in the reader:
// protocol methods are answered right here, in arrival order; tool calls
// are resolved and admitted here, then run on a worker.
func (s *session) dispatch(env envelope) {
	if env.kind == kindNotification {
		s.handleNotification(env)
		return
	}
	if s.log.Debug().Enabled() {
		s.log.Debug().RawJSON("id", env.id).Str("method", env.method).Msg("request")
	}
	e, rerr := readEra(env.meta)
	if rerr != nil {
		s.writeRPCError(env.id, rerr)
		return
	}
	if e.modern {
		s.dispatchModern(env, e)
		return
	}
	switch env.method {
	case "initialize":
		s.initialize(env)
		return
	case "ping":
		s.writeResult(env.id, []byte("{}"))
		return
	case "server/discover":
		s.writeError(env.id, jsonrpc2.CodeMethodNotFound, fmt.Sprintf(
			`Method not found: server/discover is part of MCP %s; send it with _meta {"%s":"%s","%s":{…}}, or send initialize for 2025-11-25 and earlier`,
			ModernVersion, metaProtocolVersion, ModernVersion, metaClientCapabilities))
		return
	}
	if !s.initialized.Load() {
		if isMethod(env.method) {
			s.writeError(env.id, jsonrpc2.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: send initialize first; %s is accepted only after the initialize handshake", env.method))
			return
		}
	}
	switch env.method {
	case "tools/list":
		s.listTools(env, false)
	case "tools/call":
		s.startCall(env, era{logLevel: -1})
	case "logging/setLevel":
		s.setLevel(env)
	default:
		s.writeError(env.id, jsonrpc2.CodeMethodNotFound,
			fmt.Sprintf("Method not found: %q; this server answers %s", env.method, methodList))
	}
}

// isMethod reports whether the server answers requests for method; the
// others get -32601.
func isMethod(method string) bool {
	switch method {
	case "initialize", "ping", "tools/list", "tools/call", "logging/setLevel":
		return true
	}
	return false
}

const methodList = "initialize, ping, tools/list, tools/call and logging/setLevel"

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
		s.log.Debug().Str("method", env.method).Msg("ignored notification")
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
	s.mu.Lock()
	c := s.inflight[key]
	if c != nil {
		c.cancelled = true
		c.hushed.Store(true) // nothing more is sent about it, progress included
	}
	s.mu.Unlock()
	if c == nil {
		s.log.Debug().RawJSON("id", p.RequestID).Msg("cancellation for no call in flight")
		return
	}
	s.log.Info().RawJSON("id", p.RequestID).Str("reason", p.Reason).Msg("call cancelled by the client")
	c.cancel()
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
	s.workMu.Lock()
	s.stopping = true
	close(s.queue.stop) // the feeder ends; calls still waiting are left behind
	close(s.work)       // the idle workers end; a worker still busy ends after its call
	s.workMu.Unlock()
}

// writeResult sends a success response with an encoded result.
func (s *session) writeResult(id json.RawMessage, result []byte) {
	_ = s.out.send(appendRawResult(nil, id, result))
}

// writeError sends an error response.
func (s *session) writeError(id json.RawMessage, code int64, msg string) {
	_ = s.out.send(appendError(nil, id, code, msg, nil))
}

// invalidParams sends -32602 with a message that starts as the JSON-RPC
// specification names the code.
func (s *session) invalidParams(id json.RawMessage, format string, args ...any) {
	s.writeError(id, jsonrpc2.CodeInvalidParams, "Invalid params: "+fmt.Sprintf(format, args...))
}
