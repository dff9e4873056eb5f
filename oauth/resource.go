package oauth

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Resource is an MCP server as an OAuth 2.1 resource server: it knows
// its authorization server, checks the access tokens that server issued
// for it, and says how to get one. Make one with [New]; it is safe for
// concurrent use.
type Resource struct {
	cfg    Config
	meta   metadata
	issuer string  // as the metadata names it, which tokens must too
	keys   *keySet // nil when the issuer publishes no keys
	cache  *tokenCache
}

// New reads the metadata of cfg.Issuer and its keys, and returns the
// Resource that checks tokens against them. It fails if the issuer
// cannot be reached or publishes neither keys (for JWT access tokens)
// nor, with cfg.Introspection set, an introspection endpoint: better a
// server that does not start than one that refuses every token.
func New(ctx context.Context, cfg Config) (*Resource, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	meta, err := discover(ctx, cfg.HTTPClient, cfg.Issuer)
	if err != nil {
		return nil, err
	}
	r := &Resource{cfg: cfg, meta: meta, issuer: meta.Issuer, cache: &tokenCache{max: cfg.CacheSize, skew: cfg.ClockSkew}}
	if cfg.Introspection.ID != "" && meta.IntrospectionEndpoint == "" {
		return nil, fmt.Errorf("oauth: %s publishes no introspection endpoint, and an introspection client is set", cfg.Issuer)
	}
	if meta.JWKSURI != "" {
		r.keys = &keySet{cfg: &r.cfg, uri: meta.JWKSURI}
		if err := r.keys.fetch(ctx); err != nil {
			return nil, fmt.Errorf("oauth: the keys of %s: %w", cfg.Issuer, err)
		}
	} else if cfg.Introspection.ID == "" {
		return nil, fmt.Errorf("oauth: %s publishes no keys (jwks_uri); set an introspection client to check its tokens", cfg.Issuer)
	}
	return r, nil
}

// Verify checks an access token and returns whom it identifies. A token
// verified before is taken from a bounded cache until it expires. A JWT
// is checked against the issuer's keys; any other token, with
// [Config.Introspection] set, at the issuer's introspection endpoint.
// A token refused is a [*TokenError] or [ErrNoScope]; any other error
// (the issuer unreachable for an introspection) is the server's.
func (r *Resource) Verify(ctx context.Context, token string) (*Identity, error) {
	now := r.cfg.Now()
	if id := r.cache.get(token, now); id != nil {
		return id, nil
	}
	var id *Identity
	var err error
	switch {
	case looksLikeJWT(token) || r.cfg.Introspection.ID == "":
		id, err = r.verifyJWT(ctx, token)
	default:
		id, err = r.introspect(ctx, token)
	}
	if err != nil {
		return nil, err
	}
	r.cache.put(token, id, now)
	return id, nil
}

// looksLikeJWT reports whether token has the three parts of a JWS in
// compact form.
func looksLikeJWT(token string) bool { return strings.Count(token, ".") == 2 }

// Scopes returns the scope names of each level, as configured.
func (r *Resource) Scopes() Scopes { return r.cfg.Scopes }

// isRefusal reports whether err refuses the token, rather than failing
// to check it.
func isRefusal(err error) bool {
	var te *TokenError
	return errors.As(err, &te) || errors.Is(err, ErrNoScope)
}
