package server

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"
)

// roots tracks the client's roots: the folders the client says the
// server may work in. The server fetches them with roots/list after the
// handshake and whenever the client says they changed, and hands them to
// [Options.Roots]; what that does with them (the sandbox narrows itself)
// is not the protocol's business.
type roots struct {
	wanted bool          // the client declared roots and the server uses them
	ready  chan struct{} // closed after the first fetch, or at once if not wanted
	once   sync.Once
	mu     sync.Mutex // one fetch at a time, so that the newest list wins
}

type rootsResult struct {
	Roots []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"roots"`
}

// defaultRootsTimeout bounds one roots/list request and how long calls
// wait for the first answer.
const defaultRootsTimeout = 10 * time.Second

// fetchRoots asks the client for its roots and passes the file paths on.
// It runs in its own goroutine: the read loop must stay free to read the
// answer.
func (s *session) fetchRoots(ctx context.Context) {
	r := &s.roots
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.once.Do(func() { close(r.ready) })
	ctx, cancel := context.WithTimeout(ctx, s.srv.opts.RootsTimeout)
	defer cancel()
	var res rootsResult
	if err := s.out.ask(ctx, "roots/list", nil, &res); err != nil {
		// The client said it has roots but not which: fail closed.
		s.log.Warn().Err(err).Msg("roots/list failed; allowing no roots until the client answers")
		s.srv.opts.Roots(ctx, nil, fmt.Errorf("roots/list: %w", err))
		return
	}
	var paths []string
	for _, root := range res.Roots {
		u, err := url.Parse(root.URI)
		if err != nil || u.Scheme != "file" || u.Path == "" {
			s.log.Warn().Str("uri", clip(root.URI)).Msg("ignored a client root that is not a file:// URI")
			continue
		}
		paths = append(paths, u.Path)
	}
	s.log.Info().Strs("roots", clipAll(paths)).Int("count", len(paths)).Msg("client roots")
	s.srv.opts.Roots(ctx, paths, nil)
}

// rootsPolicy holds each call until the client's roots are known.
func (s *Server) rootsPolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		// A modern call's roots are the server's configuration alone, and
		// a request without a session has no client roots.
		if !c.modern && c.sess != nil {
			c.sess.waitRoots(ctx)
		}
		return next(ctx, c)
	}
}

// waitRoots holds a call until the client's roots are known, so that no
// call runs with more than the client allows. A call waiting here gives
// back its slot: the reader must stay free to read the client's answer.
// If no answer can come (the client never finished the handshake), the
// roots are taken to be empty, so the call runs but may touch nothing.
func (s *session) waitRoots(ctx context.Context) {
	select {
	case <-s.roots.ready:
		return
	default:
	}
	s.srv.withoutSlot(func() {
		select {
		case <-s.roots.ready:
		case <-ctx.Done():
		case <-time.After(2 * s.srv.opts.RootsTimeout):
			s.log.Warn().Msg("no roots from the client; allowing none")
			if s.srv.opts.Roots != nil {
				s.srv.opts.Roots(ctx, nil, errors.New("the client did not send its roots in time"))
			}
		}
	})
}
