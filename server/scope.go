package server

import (
	"context"
	"strings"
	"sync"
)

// A server keeps state in two scopes, and only two.
//
// The process scope is the [Server] itself: what must hold across
// requests, whichever transport, session or era they came by. It holds
// the slots and the line of calls waiting for one (worker.go, queue.go),
// the order of the changes to each target (policy_order.go), the
// Exclusive lock (policy_exclusive.go), the limits and the loop guard of
// each principal (below), the result cache (policy_cache.go) and the
// memory budget (budget.go). Two HTTP requests, two stdio sessions or a
// mix of them meet there.
//
// The request scope is a request's own: its era, its id, its
// cancellation and its progress stream (request.go). A stdio connection
// adds a session on top (session.go): the handshake, the client's roots
// and log level, and the ids of its calls in flight, which
// notifications/cancelled names.

// principal is whoever a request is served for: a stdio session, an
// HTTP client (its token, or its address), or what an authentication
// middleware named (WithPrincipal). The limits of [Options.MaxCalls] and
// [Options.CallsPerSecond] and the loop guard count its calls, across
// all its requests.
type principal struct {
	// name is how logs and traces name it: "" for a stdio session (its
	// trace names it), else its key without the "id "/"address " kind.
	name    string
	limiter *callLimiter
	guard   *loopGuard
}

// principals are the principals a server has met, by key.
type principals struct {
	mu sync.Mutex
	m  map[string]*principal
}

// maxPrincipals bounds the principals a server remembers; past it, new
// ones share one, so that a client making up names cannot grow the
// table without bound.
const maxPrincipals = 1 << 16

// overflowPrincipal is the key of the principal the others share once
// the table is full.
const overflowPrincipal = "\x00overflow"

// get returns the principal of key, made on first use.
func (p *principals) get(key string, opts *Options) *principal {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = make(map[string]*principal)
	}
	if pr := p.m[key]; pr != nil {
		return pr
	}
	if len(p.m) >= maxPrincipals {
		key = overflowPrincipal
		if pr := p.m[key]; pr != nil {
			return pr
		}
	}
	pr := &principal{name: principalName(key), limiter: newCallLimiter(opts), guard: &loopGuard{max: opts.MaxRepeats}}
	p.m[key] = pr
	return pr
}

// principalName returns how logs and traces name the principal of key.
func principalName(key string) string {
	switch {
	case strings.HasPrefix(key, "\x00"):
		return ""
	case strings.HasPrefix(key, "id "):
		return key[len("id "):]
	}
	return key
}

// drop forgets the principal of key: a session that ended.
func (p *principals) drop(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.m, key)
}

// principalKey is the context key of WithPrincipal.
type principalKey struct{}

// WithPrincipal returns a copy of ctx naming the principal a request is
// served for: the key by which the limits of [Options.MaxCalls] and
// [Options.CallsPerSecond] and the loop guard ([Options.MaxRepeats])
// count its calls. [Server.HTTPHandler] reads it from each request's
// context: its own token check sets it, and an authentication middleware
// in front of the handler may set it to the user it authenticated.
// Without it, an HTTP request is counted against its client's address.
func WithPrincipal(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, principalKey{}, id)
}

// principalOf returns the principal ctx names, and whether it names one.
func principalOf(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(principalKey{}).(string)
	return id, ok
}
