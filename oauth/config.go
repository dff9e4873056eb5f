package oauth

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stdiotools/toolserver/security"
)

// Config says which authorization server issues the tokens a
// [Resource] accepts, and what they must say.
type Config struct {
	// Issuer is the authorization server's issuer URL. Its metadata is
	// read from RFC 8414 /.well-known/oauth-authorization-server, or
	// else OpenID /.well-known/openid-configuration. It must be https://
	// unless its host is a loopback address (local development, tests).
	Issuer string
	// Resource is this server's canonical URI (RFC 8707), the audience
	// every token must name, as https://mcp.example.com/mcp. A trailing
	// slash is not told apart.
	Resource string
	// Scopes names the scope that grants each tool level. Default
	// files:read, files:write and files:admin.
	Scopes Scopes
	// Offered are the scopes a request without a token is told to ask
	// for: those of every level the server serves, so that a client gets
	// a token for all its tools at once (a client asking for only what a
	// challenge names would not see the tools it was not offered).
	// Default: all of Scopes.
	Offered []string
	// Introspection, if its ClientID is set, checks tokens that are not
	// JWTs at the issuer's RFC 7662 introspection endpoint,
	// authenticated as that client.
	Introspection Client
	// ClockSkew is how far the issuer's clock may be from this one when
	// exp, nbf and iat are checked. Default 30 seconds.
	ClockSkew time.Duration
	// KeyRefresh is the least time between two fetches of the issuer's
	// keys for a token signed by a key not known yet, so that made-up key
	// ids cannot make the server hammer the issuer. Default 10 seconds.
	KeyRefresh time.Duration
	// CacheSize bounds the verified tokens remembered, each until it
	// expires, so that a token's signature is checked once, not on every
	// request, and the refused ones, each for a minute. Default 10,000.
	CacheSize int
	// MaxChecks bounds the tokens not known yet that are checked at once
	// (a signature, or a call to the issuer); past it a request is
	// answered 503, so that made-up tokens cannot pile up calls to a slow
	// issuer. Default 64.
	MaxChecks int
	// HTTPClient fetches the metadata and keys and introspects tokens.
	// Default: a client with a 10-second timeout that follows no
	// redirects.
	HTTPClient *http.Client
	// Now returns the time tokens are checked at; default time.Now.
	Now func() time.Time
	// Refused, if set, is told of each request Protect refuses, by
	// reason: "missing_token", "token_in_url", "invalid_token",
	// "no_scope", "busy" or "issuer_unreachable" (for metrics: never the
	// client, whose number is unbounded).
	Refused func(reason string)
}

// Scopes names the scope that grants each tool level. A higher level
// includes the lower ones: a token with Write may also read.
type Scopes struct {
	Read, Write, Admin string
}

// Of returns the name of the scope that grants level.
func (s Scopes) Of(level security.Level) string {
	switch level {
	case security.Admin:
		return s.Admin
	case security.Write:
		return s.Write
	}
	return s.Read
}

// list returns the names, lowest level first.
func (s Scopes) list() []string { return []string{s.Read, s.Write, s.Admin} }

// Client is a client of the authorization server: its id and secret.
type Client struct {
	ID, Secret string
}

// algorithms are the signature algorithms a token may use: asymmetric
// ones only, so that neither "none" nor an HMAC keyed with a public key
// can pass.
var algorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.EdDSA,
}

// withDefaults returns c checked, with its defaults filled in.
func (c Config) withDefaults() (Config, error) {
	if err := checkIssuer(c.Issuer); err != nil {
		return c, err
	}
	c.Issuer = strings.TrimSuffix(c.Issuer, "/")
	r, err := url.Parse(c.Resource)
	if err != nil || r.Host == "" || (r.Scheme != "https" && r.Scheme != "http") || r.Fragment != "" {
		return c, fmt.Errorf("oauth: the resource %q is not an absolute http(s) URI without a fragment", c.Resource)
	}
	if c.Scopes == (Scopes{}) {
		c.Scopes = Scopes{Read: "files:read", Write: "files:write", Admin: "files:admin"}
	}
	seen := map[string]bool{}
	for _, s := range c.Scopes.list() {
		if !scopeToken(s) || seen[s] {
			return c, fmt.Errorf("oauth: scope names must be distinct, non-empty, of printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3): %q", c.Scopes.list())
		}
		seen[s] = true
	}
	if len(c.Offered) == 0 {
		c.Offered = c.Scopes.list()
	}
	if c.Introspection.ID != "" && c.Introspection.Secret == "" {
		return c, errors.New("oauth: an introspection client needs its secret")
	}
	if c.ClockSkew <= 0 {
		c.ClockSkew = 30 * time.Second
	}
	if c.KeyRefresh <= 0 {
		c.KeyRefresh = 10 * time.Second
	}
	if c.CacheSize <= 0 {
		c.CacheSize = 10000
	}
	if c.MaxChecks <= 0 {
		c.MaxChecks = 64
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{
			Timeout:       10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, nil
}

// scopeToken reports whether s is a scope-token of RFC 6749 §3.3.
func scopeToken(s string) bool {
	for _, c := range []byte(s) {
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// checkIssuer refuses an issuer that is not an https:// URL, or http://
// on a loopback address.
func checkIssuer(issuer string) error {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("oauth: the issuer %q is not an absolute URL without query or fragment", issuer)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("oauth: the issuer %q must be https:// (http:// is accepted on a loopback address only)", issuer)
	}
	return fmt.Errorf("oauth: the issuer %q must be an https:// URL", issuer)
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
