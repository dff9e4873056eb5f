package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"github.com/stdiotools/toolserver/oauth"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// authConfig is what the flags of HTTP authentication say, beside the
// static token of --auth-token-file.
type authConfig struct {
	issuer, resource string
	scopes           string
	clientID         string
	clientSecretFile string
	identityHeader   string
	trustedProxies   string
	// refused counts the requests OAuth refuses (--metrics-addr); nil
	// without metrics.
	refused func(reason string)
}

// addAuthFlags adds the flags of OAuth and of a gateway's identity to fs.
func addAuthFlags(fs *flag.FlagSet, c *authConfig) {
	fs.StringVar(&c.issuer, "oauth-issuer", "", "with --http: accept OAuth 2.1 access tokens of this authorization server (its issuer URL; https://, or http:// on loopback) instead of a static token")
	fs.StringVar(&c.resource, "oauth-resource", "", "with --oauth-issuer: this server's canonical URI, the audience its tokens must name, such as https://mcp.example.com/mcp")
	fs.StringVar(&c.scopes, "oauth-scopes", "files:read,files:write,files:admin", "with --oauth-issuer: the scopes that grant the read, write and admin tools, in that order; a higher one includes the lower")
	fs.StringVar(&c.clientID, "oauth-client-id", "", "with --oauth-issuer: check tokens that are not JWTs by introspection (RFC 7662), as this client")
	fs.StringVar(&c.clientSecretFile, "oauth-client-secret-file", "", "with --oauth-client-id: the file holding the client's secret")
	fs.StringVar(&c.identityHeader, "trusted-identity-header", "", "with --http: the header in which a gateway in front names the client it authenticated; honoured from --trusted-proxies only")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", "", "with --trusted-identity-header: the addresses (CIDR, comma separated) of the gateways whose header is believed")
}

// used reports whether any flag of c was given, and the first.
func (c *authConfig) used() (string, bool) {
	for _, f := range []struct{ name, v string }{
		{"oauth-issuer", c.issuer}, {"oauth-resource", c.resource}, {"oauth-client-id", c.clientID},
		{"oauth-client-secret-file", c.clientSecretFile}, {"trusted-identity-header", c.identityHeader}, {"trusted-proxies", c.trustedProxies},
	} {
		if f.v != "" {
			return f.name, true
		}
	}
	return "", false
}

// check refuses combinations that would not do what they say: OAuth
// half configured, OAuth beside a static token, a gateway's header
// without the gateways.
func (c *authConfig) check(tokenFile string) error {
	switch {
	case c.issuer != "" && c.resource == "":
		return errors.New("--oauth-issuer needs --oauth-resource, this server's canonical URI, the audience its tokens must name")
	case c.resource != "" && c.issuer == "":
		return errors.New("--oauth-resource needs --oauth-issuer, the authorization server whose tokens to accept")
	case c.issuer != "" && tokenFile != "":
		return errors.New("--oauth-issuer and --auth-token-file are two ways to authenticate: give one (OAuth tokens, or one static token)")
	case (c.clientID == "") != (c.clientSecretFile == ""):
		return errors.New("--oauth-client-id and --oauth-client-secret-file go together")
	case c.clientID != "" && c.issuer == "":
		return errors.New("--oauth-client-id applies only with --oauth-issuer")
	case (c.identityHeader == "") != (c.trustedProxies == ""):
		return errors.New("--trusted-identity-header and --trusted-proxies go together: the header is believed from those addresses only")
	case c.identityHeader != "" && c.issuer != "":
		return errors.New("--trusted-identity-header and --oauth-issuer both name the client: give one (the gateway's header, or the token's subject)")
	}
	return nil
}

// proxies parses --trusted-proxies.
func (c *authConfig) proxies() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range strings.Split(c.trustedProxies, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("--trusted-proxies %q: give addresses or CIDR prefixes, such as 10.0.0.0/8", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// resource builds the OAuth resource server of the flags, reading the
// issuer's metadata and keys: a server that cannot reach its issuer does
// not start.
func (c *authConfig) resourceServer(ctx context.Context, served security.Level) (*oauth.Resource, error) {
	names := strings.Split(c.scopes, ",")
	if len(names) != 3 {
		return nil, fmt.Errorf("--oauth-scopes %q: give three scope names, for read, write and admin, comma separated", c.scopes)
	}
	cfg := oauth.Config{
		Issuer:   c.issuer,
		Resource: c.resource,
		Scopes:   oauth.Scopes{Read: strings.TrimSpace(names[0]), Write: strings.TrimSpace(names[1]), Admin: strings.TrimSpace(names[2])},
		Refused:  c.refused,
	}
	for l := security.Read; l <= served; l++ {
		cfg.Offered = append(cfg.Offered, cfg.Scopes.Of(l))
	}
	if c.clientID != "" {
		b, err := os.ReadFile(c.clientSecretFile)
		if err != nil {
			return nil, fmt.Errorf("--oauth-client-secret-file: %w", err)
		}
		cfg.Introspection = oauth.Client{ID: c.clientID, Secret: strings.TrimSpace(string(b))}
	}
	r, err := oauth.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("--oauth-issuer: %w", err)
	}
	return r, nil
}

// protect mounts the endpoint h at /mcp behind the OAuth resource r, and
// r's metadata at its well-known paths.
func protect(mux *http.ServeMux, r *oauth.Resource, h http.Handler) {
	mux.Handle("/mcp", r.Protect(h))
	for _, p := range r.MetadataPaths() {
		mux.Handle(p, r.MetadataHandler())
	}
}

// withGateway sets the gateway's identity header of c in opts.
func (c *authConfig) withGateway(opts *server.HTTPOptions) error {
	if c.identityHeader == "" {
		return nil
	}
	p, err := c.proxies()
	if err != nil {
		return err
	}
	if len(p) == 0 {
		return errors.New("--trusted-proxies names no address")
	}
	opts.IdentityHeader, opts.TrustedProxies = c.identityHeader, p
	return nil
}
