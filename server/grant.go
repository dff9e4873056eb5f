package server

import (
	"context"
	"fmt"

	"github.com/stdiotools/toolserver/security"
)

// Grant is what the credentials of an HTTP request allow: an OAuth
// access token's scopes, as an authentication middleware in front of
// [Server.HTTPHandler] read them (package oauth does). With a grant,
// tools/list lists only the tools of its level or below, marked
// cacheScope "private" in MCP 2026-07-28 (the list depends on the
// token), and a call of a tool above it is refused with 403 and the
// challenge that names the scope to ask for.
type Grant struct {
	// Level is the highest tool level the request may call.
	Level security.Level
	// Scope returns the name of the scope that grants a level.
	Scope func(security.Level) string
	// Challenge, if set, returns the WWW-Authenticate value of the 403
	// that refuses a call needing scope, with description (oauth's
	// names the error, the scope and the resource's metadata); without
	// it the header names the error alone.
	Challenge func(scope, description string) string
}

// grantKey is the context key of WithGrant.
type grantKey struct{}

// WithGrant returns a copy of ctx carrying the grant of a request, for
// [Server.HTTPHandler]. The grant must not change afterwards: a
// middleware may give the same one to every request of a token.
func WithGrant(ctx context.Context, g *Grant) context.Context {
	return context.WithValue(ctx, grantKey{}, g)
}

// grantOf returns the grant ctx carries, or nil.
func grantOf(ctx context.Context) *Grant {
	g, _ := ctx.Value(grantKey{}).(*Grant)
	return g
}

// levelOf returns the highest level of the tools a request with grant g
// (nil for none) is served: the server's, lowered to the grant's.
func (s *Server) levelOf(g *Grant) security.Level {
	max := s.opts.maxLevel()
	if g != nil && g.Level < max {
		return g.Level
	}
	return max
}

// codeInsufficientScope is the JSON-RPC error of a call its grant does
// not allow; over HTTP it is answered 403 with the challenge.
const codeInsufficientScope = -32021

// challenger is a peer that can answer an error with an authentication
// challenge: over HTTP, 403 and a WWW-Authenticate header.
type challenger interface {
	challenge(wwwAuthenticate string)
}

// refuseScope returns the error of a call of tool t, whose level g does
// not allow, after asking the peer to answer it with the challenge.
func (c *Call) refuseScope(g *Grant, t *tool) *wireError {
	scope := "level " + t.spec.Level.String()
	if g.Scope != nil {
		scope = g.Scope(t.spec.Level)
	}
	msg := fmt.Sprintf("tool %q needs the scope %q, which this request's token does not grant; ask the user to authorize it", t.spec.Name, scope)
	if ch, ok := c.out.(challenger); ok {
		header := `Bearer error="insufficient_scope"`
		if g.Challenge != nil {
			header = g.Challenge(scope, "tool "+t.spec.Name+" needs "+scope)
		}
		ch.challenge(header)
	}
	return &wireError{code: codeInsufficientScope, message: msg, data: scopeData(scope)}
}

// scopeData is the data of an insufficient-scope error: the scope.
func scopeData(scope string) []byte {
	return append(appendString([]byte(`{"scope":`), scope), '}')
}
