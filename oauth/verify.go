package oauth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Identity is what a verified token says of whom a request is served
// for.
type Identity struct {
	// Subject is the token's sub: the user, or the client itself for a
	// client-credentials token.
	Subject string
	// ClientID is the client the token was issued to (client_id, or
	// azp), if it says.
	ClientID string
	// Scopes are the token's scopes.
	Scopes []string
	// Level is the highest tool level the scopes grant.
	Level security.Level
	// Expiry is when the token stops being accepted.
	Expiry time.Time

	principal string        // Principal(), made once
	grant     *server.Grant // what the token allows, given to each of its requests
}

// Principal returns the key the server's limits, loop guard and logs
// know the identity by: its subject, and its client where it has one.
func (id *Identity) Principal() string {
	if id.ClientID == "" || id.ClientID == id.Subject {
		return "sub:" + id.Subject
	}
	return "sub:" + id.Subject + " client:" + id.ClientID
}

// TokenError is a token refused: missing, malformed, not signed by the
// issuer, expired, or not for this server. Its text names the check that
// failed, never the token.
type TokenError struct {
	// Reason is the check that failed, in a few fixed words that repeat
	// nothing of the token: what a client is told.
	Reason string
	// Err is the underlying error, if any.
	Err error

	again bool // the same token may pass later (its key fetched by then): not remembered as refused
}

// Error names the check that failed.
func (e *TokenError) Error() string {
	if e.Err != nil {
		return "invalid token: " + e.Reason + ": " + e.Err.Error()
	}
	return "invalid token: " + e.Reason
}

// Unwrap returns the underlying error.
func (e *TokenError) Unwrap() error { return e.Err }

// ErrNoScope is the error of a token none of whose scopes grants a
// level: it is valid, but allows nothing.
var ErrNoScope = errors.New("the token grants none of this server's scopes")

// accessClaims are the claims of a JWT access token (RFC 9068) that a
// Resource reads beyond the registered ones.
type accessClaims struct {
	jwt.Claims
	Scope    string   `json:"scope"`
	Scp      []string `json:"scp"`
	ClientID string   `json:"client_id"`
	AZP      string   `json:"azp"`
}

// parseJWT parses raw as a JWS in compact form, signed once with an
// allowed algorithm.
func parseJWT(raw string) (*jwt.JSONWebToken, error) {
	tok, err := jwt.ParseSigned(raw, algorithms)
	if err != nil {
		return nil, &TokenError{Reason: "not a JWT signed with an allowed algorithm", Err: err}
	}
	if len(tok.Headers) != 1 {
		return nil, &TokenError{Reason: "not signed exactly once"}
	}
	return tok, nil
}

// checkJWT checks the parsed JWT access token tok: signed with an
// allowed algorithm by a key of the issuer, by that issuer, for this
// resource, and within its time.
func (r *Resource) checkJWT(ctx context.Context, tok *jwt.JSONWebToken) (*Identity, error) {
	if r.keys == nil {
		return nil, &TokenError{Reason: "the issuer publishes no keys to check a JWT with"}
	}
	key, err := r.keys.key(ctx, tok.Headers[0].KeyID)
	switch {
	case errors.Is(err, errUnknownKey):
		return nil, &TokenError{Reason: "signed by a key the issuer does not list", Err: err, again: true}
	case err != nil:
		return nil, err // the request ended while the keys were fetched
	}
	if key.Algorithm != "" && key.Algorithm != tok.Headers[0].Algorithm {
		return nil, &TokenError{Reason: "signed with an algorithm its key is not meant for"}
	}
	var c accessClaims
	if err := tok.Claims(key.Key, &c); err != nil {
		return nil, &TokenError{Reason: "signature", Err: err}
	}
	if c.Expiry == nil {
		return nil, &TokenError{Reason: "no expiry (exp)"}
	}
	if c.Subject == "" {
		return nil, &TokenError{Reason: "no subject (sub)"}
	}
	want := jwt.Expected{Issuer: r.issuer, AnyAudience: r.audiences(), Time: r.cfg.Now()}
	if err := c.ValidateWithLeeway(want, r.cfg.ClockSkew); err != nil {
		return nil, &TokenError{Reason: claimReason(err), Err: err}
	}
	scopes := c.Scp
	if c.Scope != "" {
		scopes = strings.Fields(c.Scope)
	}
	client := c.ClientID
	if client == "" {
		client = c.AZP
	}
	return r.identity(c.Subject, client, scopes, c.Expiry.Time())
}

// claimReason names the claim check err failed.
func claimReason(err error) string {
	switch {
	case errors.Is(err, jwt.ErrInvalidIssuer):
		return "issued by another issuer"
	case errors.Is(err, jwt.ErrInvalidAudience):
		return "issued for another resource (aud)"
	case errors.Is(err, jwt.ErrExpired):
		return "expired"
	case errors.Is(err, jwt.ErrNotValidYet):
		return "not valid yet (nbf)"
	case errors.Is(err, jwt.ErrIssuedInTheFuture):
		return "issued in the future (iat)"
	}
	return "claims"
}

// audiences are the audiences a token for this resource may name: its
// canonical URI with and without a trailing slash.
func (r *Resource) audiences() jwt.Audience {
	base := strings.TrimSuffix(r.cfg.Resource, "/")
	return jwt.Audience{base, base + "/"}
}

// identity returns the identity of a token of subject and client with
// scopes, valid until expiry, or ErrNoScope.
func (r *Resource) identity(subject, client string, scopes []string, expiry time.Time) (*Identity, error) {
	id := &Identity{Subject: subject, ClientID: client, Scopes: scopes, Expiry: expiry, Level: -1}
	for _, s := range scopes {
		for _, l := range []security.Level{security.Read, security.Write, security.Admin} {
			if s == r.cfg.Scopes.Of(l) && l > id.Level {
				id.Level = l
			}
		}
	}
	if id.Level < security.Read {
		return nil, ErrNoScope
	}
	id.principal = id.Principal()
	id.grant = &server.Grant{Level: id.Level, Scope: r.cfg.Scopes.Of, Challenge: r.scopeChallenge}
	return id, nil
}
