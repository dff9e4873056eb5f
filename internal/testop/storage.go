// Package testop runs a real OpenID Provider in-process, for the tests
// of toolserver as an OAuth resource server: zitadel/oidc v3's op
// package (an OpenID-certified provider library) over an in-memory
// storage, served by httptest on 127.0.0.1. It issues RS256 JWT access
// tokens by the client-credentials grant and by the authorization code
// with PKCE (a login that approves at once), with the RFC 8707 resource
// as their audience and a scope claim; it introspects them (RFC 7662),
// rotates its signing key on demand, and can make its key set
// unreachable. Only tests import it.
package testop

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// ---------------------------------------------------------------- clients

// Client is a registered OAuth client. It implements op.Client.
type Client struct {
	ID     string
	Secret string // empty => public client (token_endpoint_auth_method=none, PKCE required)
	// Scopes the client may obtain (custom scopes; openid/profile/... are always let through by the op package).
	Scopes []string
	// Resources (RFC 8707) the client may request as audience. The first one is the default
	// when the request carries no "resource" parameter.
	Resources []string
	Redirects []string // exact redirect_uri values (for public/native clients a loopback URI matches any port)
	Grants    []oidc.GrantType
	// Login subject for the auto-approving login handler (authorization code flow).
	Subject string
	// Opaque makes the client's access tokens opaque (checked by
	// introspection) rather than JWTs.
	Opaque bool
}

func (c *Client) GetID() string                    { return c.ID }
func (c *Client) RedirectURIs() []string           { return c.Redirects }
func (c *Client) PostLogoutRedirectURIs() []string { return nil }
func (c *Client) ApplicationType() op.ApplicationType {
	if c.Secret == "" {
		return op.ApplicationTypeNative // loopback http redirect URIs allowed, any port
	}
	return op.ApplicationTypeWeb
}
func (c *Client) AuthMethod() oidc.AuthMethod {
	if c.Secret == "" {
		return oidc.AuthMethodNone
	}
	return oidc.AuthMethodBasic
}
func (c *Client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *Client) GrantTypes() []oidc.GrantType { return c.Grants }
func (c *Client) LoginURL(id string) string    { return "/login?authRequestID=" + id }
func (c *Client) AccessTokenType() op.AccessTokenType {
	if c.Opaque {
		return op.AccessTokenTypeBearer
	}
	return op.AccessTokenTypeJWT
}
func (c *Client) IDTokenLifetime() time.Duration { return 5 * time.Minute }
func (c *Client) DevMode() bool                  { return false }
func (c *Client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *Client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *Client) IsScopeAllowed(scope string) bool     { return slices.Contains(c.Scopes, scope) }
func (c *Client) IDTokenUserinfoClaimsAssertion() bool { return false }
func (c *Client) ClockSkew() time.Duration             { return 0 }

// ---------------------------------------------------------------- requests

// ccRequest is the op.TokenRequest returned for client_credentials.
type ccRequest struct {
	clientID string
	audience []string
	scopes   []string
}

func (r *ccRequest) GetSubject() string    { return r.clientID } // RFC 9068 §2.2: sub = client_id for CC
func (r *ccRequest) GetAudience() []string { return r.audience }
func (r *ccRequest) GetScopes() []string   { return r.scopes }

// authRequest implements op.AuthRequest.
type authRequest struct {
	id, clientID, redirectURI, state, nonce string
	responseType                            oidc.ResponseType
	responseMode                            oidc.ResponseMode
	scopes, audience                        []string
	challenge                               *oidc.CodeChallenge
	subject                                 string
	authTime                                time.Time
	done                                    bool
}

func (a *authRequest) GetID() string                         { return a.id }
func (a *authRequest) GetACR() string                        { return "" }
func (a *authRequest) GetAMR() []string                      { return []string{"pwd"} }
func (a *authRequest) GetAudience() []string                 { return a.audience }
func (a *authRequest) GetAuthTime() time.Time                { return a.authTime }
func (a *authRequest) GetClientID() string                   { return a.clientID }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge { return a.challenge }
func (a *authRequest) GetNonce() string                      { return a.nonce }
func (a *authRequest) GetRedirectURI() string                { return a.redirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType    { return a.responseType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode    { return a.responseMode }
func (a *authRequest) GetScopes() []string                   { return a.scopes }
func (a *authRequest) GetState() string                      { return a.state }
func (a *authRequest) GetSubject() string                    { return a.subject }
func (a *authRequest) Done() bool                            { return a.done }

// issued access token (kept so introspection/revocation work).
type token struct {
	id, clientID, subject string
	audience, scopes      []string
	issuedAt, expiresAt   time.Time
}

// ---------------------------------------------------------------- keys

type sigKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k *sigKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *sigKey) Key() any                                    { return k.key }
func (k *sigKey) ID() string                                  { return k.id }

type pubKey struct{ k *sigKey }

func (p pubKey) ID() string                         { return p.k.id }
func (p pubKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (p pubKey) Use() string                        { return "sig" }
func (p pubKey) Key() any                           { return &p.k.key.PublicKey }

// ---------------------------------------------------------------- storage

type ctxKey int

const resourceCtxKey ctxKey = 0

// Storage is a minimal in-memory op.Storage + op.ClientCredentialsStorage
// + op.CanGetPrivateClaimsFromRequest.
type Storage struct {
	mu           sync.Mutex
	clients      map[string]*Client
	authRequests map[string]*authRequest
	codes        map[string]string // code -> authRequest id
	tokens       map[string]*token
	current      *sigKey
	published    []*sigKey // keys served on jwks_uri (current first)
	TokenTTL     time.Duration
}

var (
	_ op.Storage                        = (*Storage)(nil)
	_ op.Client                         = (*Client)(nil)
	_ op.ClientCredentialsStorage       = (*Storage)(nil)
	_ op.CanGetPrivateClaimsFromRequest = (*Storage)(nil)
)

func NewStorage() *Storage {
	s := &Storage{
		clients:      map[string]*Client{},
		authRequests: map[string]*authRequest{},
		codes:        map[string]string{},
		tokens:       map[string]*token{},
		TokenTTL:     5 * time.Minute,
	}
	s.RotateKey()
	return s
}

func randID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// SetTokenTTL sets how long the access tokens issued from now on last.
func (s *Storage) SetTokenTTL(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.TokenTTL = d
}

// RegisterClient adds/replaces a client.
func (s *Storage) RegisterClient(c *Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[c.ID] = c
}

// RotateKey makes a fresh RSA key (new kid) the signing key and publishes it
// in front of the previous keys (old tokens still verify). Returns the new kid.
func (s *Storage) RotateKey() string {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	nk := &sigKey{id: "key-" + randID()[:12], key: k}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.current = nk
	s.published = append([]*sigKey{nk}, s.published...)
	return nk.id
}

// RetireOldKeys drops all but the current key from the JWKS.
func (s *Storage) RetireOldKeys() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.published = []*sigKey{s.current}
}

func (s *Storage) CurrentKID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current.id
}

func (s *Storage) client(id string) (*Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		return nil, fmt.Errorf("client %q not found", id)
	}
	return c, nil
}

// resolveAudience applies RFC 8707 "resource" values captured from the request
// (see resourceInterceptor) against the client's allow-list.
func resolveAudience(ctx context.Context, c *Client) ([]string, error) {
	req, _ := ctx.Value(resourceCtxKey).([]string)
	if len(req) == 0 {
		if len(c.Resources) > 0 {
			return []string{c.Resources[0]}, nil
		}
		return []string{c.ID}, nil
	}
	for _, r := range req {
		if !slices.Contains(c.Resources, r) {
			return nil, oidc.ErrInvalidRequest().WithDescription("invalid_target: resource %q not allowed for client", r)
		}
	}
	return slices.Clone(req), nil
}

// ---- op.AuthStorage

func (s *Storage) CreateAuthRequest(ctx context.Context, r *oidc.AuthRequest, userID string) (op.AuthRequest, error) {
	c, err := s.client(r.ClientID)
	if err != nil {
		return nil, err
	}
	// OAuth 2.1: PKCE with S256 is mandatory for every client.
	if r.CodeChallenge == "" || r.CodeChallengeMethod != oidc.CodeChallengeMethodS256 {
		return nil, oidc.ErrInvalidRequest().WithDescription("PKCE with S256 required")
	}
	aud, err := resolveAudience(ctx, c)
	if err != nil {
		return nil, err
	}
	ar := &authRequest{
		id: randID(), clientID: r.ClientID, redirectURI: r.RedirectURI, state: r.State, nonce: r.Nonce,
		responseType: r.ResponseType, responseMode: r.ResponseMode, scopes: r.Scopes, audience: aud,
		challenge: &oidc.CodeChallenge{Challenge: r.CodeChallenge, Method: r.CodeChallengeMethod},
	}
	s.mu.Lock()
	s.authRequests[ar.id] = ar
	s.mu.Unlock()
	return ar, nil
}

func (s *Storage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ar, ok := s.authRequests[id]
	if !ok {
		return nil, errors.New("auth request not found")
	}
	return ar, nil
}

func (s *Storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id, ok := s.codes[code]
	s.mu.Unlock()
	if !ok {
		return nil, errors.New("invalid code")
	}
	return s.AuthRequestByID(ctx, id)
}

func (s *Storage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

// DeleteAuthRequest is called after the code was redeemed: single-use codes.
func (s *Storage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.authRequests, id)
	for c, rid := range s.codes {
		if rid == id {
			delete(s.codes, c)
		}
	}
	return nil
}

// CompleteLogin marks an auth request as authenticated for subject (used by the auto-approve login handler).
func (s *Storage) CompleteLogin(id, subject string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ar, ok := s.authRequests[id]
	if !ok {
		return errors.New("auth request not found")
	}
	ar.subject, ar.done, ar.authTime = subject, true, time.Now()
	return nil
}

func (s *Storage) CreateAccessToken(_ context.Context, req op.TokenRequest) (string, time.Time, error) {
	var clientID string
	switch r := req.(type) {
	case *ccRequest:
		clientID = r.clientID
	case op.AuthRequest:
		clientID = r.GetClientID()
	}
	now := time.Now()
	s.mu.Lock()
	ttl := s.TokenTTL
	s.mu.Unlock()
	t := &token{
		id: randID(), clientID: clientID, subject: req.GetSubject(),
		audience: req.GetAudience(), scopes: req.GetScopes(),
		issuedAt: now, expiresAt: now.Add(ttl),
	}
	s.mu.Lock()
	s.tokens[t.id] = t
	s.mu.Unlock()
	return t.id, t.expiresAt, nil // id becomes the JWT "jti"
}

func (s *Storage) CreateAccessAndRefreshTokens(context.Context, op.TokenRequest, string) (string, string, time.Time, error) {
	return "", "", time.Time{}, errors.New("refresh tokens not supported")
}

func (s *Storage) TokenRequestByRefreshToken(context.Context, string) (op.RefreshTokenRequest, error) {
	return nil, errors.New("refresh tokens not supported")
}

func (s *Storage) TerminateSession(context.Context, string, string) error { return nil }

func (s *Storage) RevokeToken(_ context.Context, tokenOrID, _ string, clientID string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tokens[tokenOrID]; ok {
		if t.clientID != clientID {
			return oidc.ErrInvalidClient().WithDescription("token was not issued for this client")
		}
		delete(s.tokens, tokenOrID)
	}
	return nil
}

func (s *Storage) GetRefreshTokenInfo(context.Context, string, string) (string, string, error) {
	return "", "", op.ErrInvalidRefreshToken
}

func (s *Storage) SigningKey(context.Context) (op.SigningKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current, nil
}

func (s *Storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *Storage) KeySet(context.Context) ([]op.Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]op.Key, len(s.published))
	for i, k := range s.published {
		keys[i] = pubKey{k}
	}
	return keys, nil
}

// ---- op.OPStorage

func (s *Storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	c, err := s.client(id)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (s *Storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	c, err := s.client(id)
	if err != nil {
		return err
	}
	if c.Secret == "" || c.Secret != secret {
		return errors.New("invalid client secret")
	}
	return nil
}

func (s *Storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

func (s *Storage) SetUserinfoFromToken(_ context.Context, ui *oidc.UserInfo, tokenID, subject, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tokens[tokenID]; !ok {
		return errors.New("token not found")
	}
	ui.Subject = subject
	return nil
}

// SetIntrospectionFromToken: returning nil => {"active":true,...}; any error => {"active":false}.
// clientID is the authenticated caller of the introspection endpoint.
func (s *Storage) SetIntrospectionFromToken(ctx context.Context, resp *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	caller, err := s.client(clientID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	t, ok := s.tokens[tokenID]
	s.mu.Unlock()
	if !ok || time.Now().After(t.expiresAt) {
		return errors.New("token inactive")
	}
	// Only a resource server named in aud (or the client the token was issued to) may introspect.
	allowed := t.clientID == clientID
	for _, a := range t.audience {
		allowed = allowed || slices.Contains(caller.Resources, a)
	}
	if !allowed {
		return errors.New("caller not in audience")
	}
	resp.Scope = t.scopes
	resp.ClientID = t.clientID
	resp.TokenType = "Bearer"
	resp.Expiration = oidc.FromTime(t.expiresAt)
	resp.IssuedAt = oidc.FromTime(t.issuedAt)
	resp.NotBefore = oidc.FromTime(t.issuedAt)
	resp.Subject = t.subject
	resp.Audience = t.audience
	resp.Issuer = op.IssuerFromContext(ctx)
	resp.JWTID = t.id
	return nil
}

// GetPrivateClaimsFromScopes is only used when CanGetPrivateClaimsFromRequest is not implemented.
func (s *Storage) GetPrivateClaimsFromScopes(_ context.Context, _, _ string, scopes []string) (map[string]any, error) {
	return map[string]any{"scope": strings.Join(scopes, " ")}, nil
}

// GetPrivateClaimsFromRequest adds private claims to JWT access tokens. The op package
// never fills the "scope" claim of an access token itself, so it is added here.
func (s *Storage) GetPrivateClaimsFromRequest(_ context.Context, req op.TokenRequest, _ []string) (map[string]any, error) {
	return map[string]any{"scope": strings.Join(req.GetScopes(), " ")}, nil
}

func (s *Storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errors.New("private_key_jwt / jwt-bearer not supported")
}

func (s *Storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("jwt-bearer grant not supported")
}

func (s *Storage) Health(context.Context) error { return nil }

// ---- op.ClientCredentialsStorage

func (s *Storage) ClientCredentials(ctx context.Context, id, secret string) (op.Client, error) {
	if err := s.AuthorizeClientIDSecret(ctx, id, secret); err != nil {
		return nil, err
	}
	return s.GetClientByClientID(ctx, id)
}

func (s *Storage) ClientCredentialsTokenRequest(ctx context.Context, clientID string, scopes []string) (op.TokenRequest, error) {
	c, err := s.client(clientID)
	if err != nil {
		return nil, err
	}
	// The scopes granted are those asked for that the client may have
	// (RFC 6749 §3.3 lets the server grant fewer); none is an error.
	var granted []string
	for _, sc := range scopes {
		if slices.Contains(c.Scopes, sc) {
			granted = append(granted, sc)
		}
	}
	if len(granted) == 0 && len(scopes) > 0 {
		return nil, oidc.ErrInvalidScope().WithDescription("none of the scopes %q is allowed", scopes)
	}
	aud, err := resolveAudience(ctx, c)
	if err != nil {
		return nil, err
	}
	return &ccRequest{clientID: clientID, audience: aud, scopes: granted}, nil
}

// Sign signs claims with the provider's current key, as a token the
// provider itself would never issue (another issuer's name, no expiry):
// for tests of what a resource server must refuse even when the
// signature is good.
func (s *Storage) Sign(claims map[string]any) (string, error) {
	return s.SignAs(jose.RS256, claims)
}

// SignAs is Sign with the algorithm alg (PS256, say, with the RSA key
// the key set says is for RS256).
func (s *Storage) SignAs(alg jose.SignatureAlgorithm, claims map[string]any) (string, error) {
	s.mu.Lock()
	k := s.current
	s.mu.Unlock()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: k.key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", k.id))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}
