package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
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
	// metaURL and metaPath are where the resource's metadata is
	// (MetadataURL), and its path.
	metaURL, metaPath string
	// rejected are the tokens refused lately, so that one sent again
	// costs no check.
	rejected *tokenCache
	// checking holds a place for each token being checked (a signature,
	// or a call to the issuer): past MaxChecks at once, a token not known
	// yet is answered busy.
	checking chan struct{}
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
	u, _ := url.Parse(cfg.Resource) // checked by withDefaults
	metaPath := "/.well-known/oauth-protected-resource" + strings.TrimSuffix(u.EscapedPath(), "/")
	r := &Resource{cfg: cfg, meta: meta, issuer: meta.Issuer, metaURL: u.Scheme + "://" + u.Host + metaPath, metaPath: metaPath,
		cache:    &tokenCache{max: cfg.CacheSize, skew: cfg.ClockSkew},
		rejected: &tokenCache{max: cfg.CacheSize},
		checking: make(chan struct{}, cfg.MaxChecks)}
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
// verified before is taken from a bounded cache until it expires, and one
// refused lately is refused again at once. A JWT is checked against the
// issuer's keys; any other token, with [Config.Introspection] set, at the
// issuer's introspection endpoint (a JWT too, when the issuer publishes
// no keys). A token refused is a [*TokenError] or [ErrNoScope]; [ErrBusy]
// says that [Config.MaxChecks] tokens are being checked already; any
// other error (the issuer unreachable for an introspection) is the
// server's.
func (r *Resource) Verify(ctx context.Context, token string) (*Identity, error) {
	now := r.cfg.Now()
	if id := r.cache.get(token, now); id != nil {
		return id, nil
	}
	if r.rejected.get(token, now) != nil {
		return nil, errRefusedLately
	}
	select {
	case r.checking <- struct{}{}:
		defer func() { <-r.checking }()
	default:
		return nil, ErrBusy
	}
	id, err := r.check(ctx, token)
	switch {
	case err == nil:
		r.cache.put(token, id, now)
	case isRefusal(err) && !mayPassLater(err):
		r.rejected.put(token, &Identity{Expiry: now.Add(refusedFor)}, now)
	}
	return id, err
}

// check verifies a token not known yet.
func (r *Resource) check(ctx context.Context, token string) (*Identity, error) {
	introspects := r.cfg.Introspection.ID != ""
	tok, err := parseJWT(token)
	switch {
	case err == nil && r.keys != nil:
		return r.checkJWT(ctx, tok)
	case introspects:
		return r.introspect(ctx, token)
	case err != nil:
		return nil, err
	}
	return r.checkJWT(ctx, tok)
}

// mayPassLater reports whether err refuses a token that may pass once
// the issuer's keys are fetched again.
func mayPassLater(err error) bool {
	var te *TokenError
	return errors.As(err, &te) && te.again
}

// refusedFor is how long a token refused is refused again without a
// check.
const refusedFor = time.Minute

// ErrBusy is Verify's error when [Config.MaxChecks] tokens are being
// checked already: the request may be tried again shortly.
var ErrBusy = errors.New("oauth: too many tokens being checked at once")

// errRefusedLately is a token refused again without a check.
var errRefusedLately = &TokenError{Reason: "refused lately"}

// Scopes returns the scope names of each level, as configured.
func (r *Resource) Scopes() Scopes { return r.cfg.Scopes }

// isRefusal reports whether err refuses the token, rather than failing
// to check it.
func isRefusal(err error) bool {
	var te *TokenError
	return errors.As(err, &te) || errors.Is(err, ErrNoScope)
}
