package oauth_test

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stdiotools/toolserver/internal/testop"
	"github.com/stdiotools/toolserver/oauth"
	"github.com/stdiotools/toolserver/security"
	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// resource is the canonical URI of the server under test.
const resource = "http://127.0.0.1:9999/mcp"

// startOP runs a real OpenID provider with the clients the tests use:
// "agent" (client credentials, every scope, this resource or another),
// "reader" (files:read only), "nobody" (openid only), "opaque" (opaque
// tokens), "cli" (a public client: authorization code with PKCE) and
// "rs" (the resource server itself, for introspection).
func startOP(t testing.TB) *testop.OP {
	t.Helper()
	s := testop.NewStorage()
	cc := []oidc.GrantType{oidc.GrantTypeClientCredentials}
	all := []string{"files:read", "files:write", "files:admin", "openid"}
	s.RegisterClient(&testop.Client{ID: "agent", Secret: "agent-secret", Scopes: all, Resources: []string{resource, "http://127.0.0.1:9999/other"}, Grants: cc})
	s.RegisterClient(&testop.Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"files:read"}, Resources: []string{resource}, Grants: cc})
	s.RegisterClient(&testop.Client{ID: "nobody", Secret: "nobody-secret", Scopes: []string{"openid"}, Resources: []string{resource}, Grants: cc})
	s.RegisterClient(&testop.Client{ID: "opaque", Secret: "opaque-secret", Scopes: all, Resources: []string{resource}, Grants: cc, Opaque: true})
	s.RegisterClient(&testop.Client{ID: "cli", Scopes: all, Resources: []string{resource}, Redirects: []string{"http://127.0.0.1/callback"}, Grants: []oidc.GrantType{oidc.GrantTypeCode}, Subject: "alice"})
	s.RegisterClient(&testop.Client{ID: "rs", Secret: "rs-secret", Resources: []string{resource}})
	o, err := testop.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(o.Close)
	return o
}

// newResource returns the Resource of the provider, with cfg's fields
// set where given.
func newResource(t testing.TB, o *testop.OP, cfg oauth.Config) *oauth.Resource {
	t.Helper()
	cfg.Issuer, cfg.Resource = o.Issuer, resource
	r, err := oauth.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// token gets a client-credentials token of client for aud with scopes.
func token(t testing.TB, o *testop.OP, client, aud string, scopes ...string) string {
	t.Helper()
	tok, err := o.Token(context.Background(), client, client+"-secret", aud, scopes...)
	if err != nil {
		t.Fatalf("token of %s: %v", client, err)
	}
	return tok
}

// TestTokensOfTheProviderAreVerifiedWithTheirScopes: a client-credentials
// token and an authorization-code token (PKCE) from the provider are
// accepted, each with its subject, client and level, and an opaque token
// is introspected.
func TestTokensOfTheProviderAreVerifiedWithTheirScopes(t *testing.T) {
	o := startOP(t)
	r := newResource(t, o, oauth.Config{Introspection: oauth.Client{ID: "rs", Secret: "rs-secret"}})
	byCode, err := o.TokenByCode(context.Background(), "cli", "http://127.0.0.1:43210/callback", resource, "files:read", "files:write")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, token, sub, client string
		level                    security.Level
	}{
		{"read", token(t, o, "reader", resource, "files:read"), "reader", "reader", security.Read},
		{"write includes read", token(t, o, "agent", resource, "files:write"), "agent", "agent", security.Write},
		{"admin", token(t, o, "agent", resource, "files:read", "files:admin"), "agent", "agent", security.Admin},
		{"authorization code with PKCE", byCode, "alice", "cli", security.Write},
		{"opaque, introspected", token(t, o, "opaque", resource, "files:read"), "opaque", "opaque", security.Read},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := r.Verify(context.Background(), tc.token)
			if err != nil {
				t.Fatal(err)
			}
			if id.Subject != tc.sub || id.ClientID != tc.client || id.Level != tc.level || time.Until(id.Expiry) <= 0 {
				t.Fatalf("identity %+v, want %s of %s at %s", id, tc.sub, tc.client, tc.level)
			}
		})
	}
	if strings.Count(byCode, ".") != 2 || strings.Count(token(t, o, "opaque", resource, "files:read"), ".") == 2 {
		t.Fatal("the tokens are not of the kinds the cases name")
	}
}

// forged returns a compact JWS of claims with the header given, signed
// by sign (nil for none).
func forged(header, claims map[string]any, sign func([]byte) []byte) string {
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	input := enc(header) + "." + enc(claims)
	sig := ""
	if sign != nil {
		sig = base64.RawURLEncoding.EncodeToString(sign([]byte(input)))
	}
	return input + "." + sig
}

// claimsOf returns the claims of a token, unverified.
func claimsOf(t *testing.T, tok string) map[string]any {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTokensTheServerMustRefuse: each token is refused with the check it
// failed named, and none is taken for another's.
func TestTokensTheServerMustRefuse(t *testing.T) {
	o := startOP(t)
	other := startOP(t)
	good := token(t, o, "agent", resource, "files:read")
	claims := claimsOf(t, good)
	kid := o.Storage.CurrentKID()

	// HMAC confusion: HS256 keyed with the bytes of the provider's public
	// key, as a verifier that took the key for a secret would accept.
	var set jose.JSONWebKeySet
	if err := getJSON(o.Issuer+"/keys", &set); err != nil {
		t.Fatal(err)
	}
	pub, _ := set.Keys[0].Key.(*rsa.PublicKey)
	der, _ := x509.MarshalPKIXPublicKey(pub)
	hmacSigner, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: der}, (&jose.SignerOptions{}).WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	hmacJWS, err := hmacSigner.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	hmacToken, _ := hmacJWS.CompactSerialize()

	past := func() time.Time { return time.Now().Add(-time.Hour) }
	future := func() time.Time { return time.Now().Add(time.Hour) }
	for _, tc := range []struct {
		name, token, reason string
		now                 func() time.Time
	}{
		{"for another audience", token(t, o, "agent", "http://127.0.0.1:9999/other", "files:read"), "issued for another resource", nil},
		{"expired", good, "expired", future},
		{"not yet valid", good, "not valid yet", past},
		{"of another issuer", token(t, other, "agent", resource, "files:read"), "key", nil},
		{"alg none", forged(map[string]any{"alg": "none", "kid": kid, "typ": "JWT"}, claims, nil), "not a JWT signed with an allowed algorithm", nil},
		{"HMAC with the public key", hmacToken, "not a JWT signed with an allowed algorithm", nil},
		{"its signature changed", good[:len(good)-4] + "AAAA", "signature", nil},
		{"garbage", "not-a-token", "not a JWT", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newResource(t, o, oauth.Config{Now: tc.now})
			id, err := r.Verify(context.Background(), tc.token)
			var te *oauth.TokenError
			if !errors.As(err, &te) || !strings.Contains(te.Reason, tc.reason) {
				t.Fatalf("accepted or refused for another reason: %+v, %v (want %q)", id, err, tc.reason)
			}
			if strings.Contains(err.Error(), tc.token) {
				t.Fatalf("the error repeats the token: %v", err)
			}
		})
	}
	// Tokens the provider would not issue, signed by its own key: every
	// claim is checked, not only the signature.
	with := func(change map[string]any) string {
		c := map[string]any{}
		for k, v := range claims {
			c[k] = v
		}
		for k, v := range change {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		tok, err := o.Storage.Sign(c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	r := newResource(t, o, oauth.Config{})
	for _, tc := range []struct {
		name, token, reason string
	}{
		{"another issuer's name", with(map[string]any{"iss": other.Issuer}), "issued by another issuer"},
		{"no expiry", with(map[string]any{"exp": nil}), "no expiry"},
		{"no subject", with(map[string]any{"sub": nil}), "no subject"},
		{"issued in the future", with(map[string]any{"iat": time.Now().Add(time.Hour).Unix(), "nbf": nil}), "issued in the future"},
		{"an audience of another", with(map[string]any{"aud": []string{"http://127.0.0.1:9999/mcp/x"}}), "another resource"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var te *oauth.TokenError
			if id, err := r.Verify(context.Background(), tc.token); !errors.As(err, &te) || !strings.Contains(te.Reason, tc.reason) {
				t.Fatalf("%+v, %v; want %q", id, err, tc.reason)
			}
		})
	}
	ps, err := o.Storage.SignAs(jose.PS256, claims)
	if err != nil {
		t.Fatal(err)
	}
	var te *oauth.TokenError
	if _, err := r.Verify(context.Background(), ps); !errors.As(err, &te) || te.Reason != "signed with an algorithm its key is not meant for" {
		t.Errorf("PS256 by a key the issuer lists for RS256: %v", err)
	}
	for _, aud := range []string{resource, resource + "/"} {
		if _, err := r.Verify(context.Background(), with(map[string]any{"aud": aud})); err != nil {
			t.Errorf("the audience %q (a string, a trailing slash or not): %v", aud, err)
		}
	}
	t.Run("a token granting none of the scopes", func(t *testing.T) {
		r := newResource(t, o, oauth.Config{})
		if _, err := r.Verify(context.Background(), token(t, o, "nobody", resource, "openid")); !errors.Is(err, oauth.ErrNoScope) {
			t.Fatalf("a token without scope: %v", err)
		}
	})
}

// TestARotatedKeyIsFetchedAndAnUnreachableIssuerFailsClosed: a token
// signed by a key the provider rotated in is verified once the keys are
// fetched again; while the key set cannot be reached, the keys known
// still verify, and a token of a key not known yet is refused.
func TestARotatedKeyIsFetchedAndAnUnreachableIssuerFailsClosed(t *testing.T) {
	o := startOP(t)
	r := newResource(t, o, oauth.Config{KeyRefresh: time.Nanosecond})
	if _, err := r.Verify(context.Background(), token(t, o, "agent", resource, "files:read")); err != nil {
		t.Fatal(err)
	}
	o.Storage.RotateKey()
	second := token(t, o, "agent", resource, "files:read", "files:write")
	if _, err := r.Verify(context.Background(), second); err != nil {
		t.Fatalf("a token of the rotated key: %v", err)
	}
	o.KeysDown.Store(true)
	again := token(t, o, "reader", resource, "files:read") // the same key, not cached
	if id, err := r.Verify(context.Background(), again); err != nil || id.Subject != "reader" {
		t.Fatalf("a token of a known key while the keys cannot be fetched: %+v %v", id, err)
	}
	o.Storage.RotateKey()
	third := token(t, o, "agent", resource, "files:read")
	var te *oauth.TokenError
	if _, err := r.Verify(context.Background(), third); !errors.As(err, &te) || !strings.Contains(err.Error(), "could not be fetched again") {
		t.Fatalf("a token of a new key while the keys cannot be fetched: %v", err)
	}
	o.KeysDown.Store(false)
	if _, err := r.Verify(context.Background(), third); err != nil {
		t.Fatalf("the new key once the issuer is back: %v", err)
	}
}

// TestUnknownKeysDoNotMakeTheServerHammerTheIssuer: tokens naming made-up
// key ids fetch the keys at most once a KeyRefresh.
func TestUnknownKeysDoNotMakeTheServerHammerTheIssuer(t *testing.T) {
	o := startOP(t)
	r := newResource(t, o, oauth.Config{KeyRefresh: time.Hour})
	claims := claimsOf(t, token(t, o, "agent", resource, "files:read"))
	before := o.KeyFetches()
	for i := range 50 {
		tok := forged(map[string]any{"alg": "RS256", "kid": "made-up-" + string(rune('a'+i%26))}, claims, func(b []byte) []byte { return b[:8] })
		if _, err := r.Verify(context.Background(), tok); err == nil {
			t.Fatal("a forged token was accepted")
		}
	}
	if n := o.KeyFetches() - before; n > 1 {
		t.Fatalf("50 tokens of unknown keys fetched the key set %d times within one KeyRefresh", n)
	}
}

// TestTheIssuerMustBeHTTPSOffLoopback: an http:// issuer is refused
// unless it is on a loopback address, and a resource must be an absolute
// URI.
func TestTheIssuerMustBeHTTPSOffLoopback(t *testing.T) {
	for _, tc := range []struct{ issuer, resource, want string }{
		{"http://auth.example.com", resource, "must be https://"},
		{"http://10.0.0.1:8080", resource, "must be https://"},
		{"ftp://auth.example.com", resource, "must be an https:// URL"},
		{"https://auth.example.com?x=1", resource, "without query"},
		{"https://auth.example.com", "mcp", "not an absolute"},
		{"https://auth.example.com", "https://mcp.example.com/mcp#x", "without a fragment"},
	} {
		_, err := oauth.New(context.Background(), oauth.Config{Issuer: tc.issuer, Resource: tc.resource})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s, %s: %v; want %q", tc.issuer, tc.resource, err, tc.want)
		}
	}
}

// getJSON GETs url and decodes its JSON into v.
func getJSON(url string, v any) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}

// TestAVerifiedTokenIsRememberedUntilItExpires: a token verified once is
// accepted again without its key, even once the provider retired that
// key, until it expires.
func TestAVerifiedTokenIsRememberedUntilItExpires(t *testing.T) {
	o := startOP(t)
	now := time.Now()
	clock := func() time.Time { return now }
	r := newResource(t, o, oauth.Config{Now: clock, KeyRefresh: time.Nanosecond})
	tok := token(t, o, "agent", resource, "files:write")
	if _, err := r.Verify(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
	o.Storage.RotateKey()
	o.Storage.RetireOldKeys()
	if _, err := newResource(t, o, oauth.Config{}).Verify(context.Background(), tok); err == nil {
		t.Fatal("a token of a retired key verified without the cache")
	}
	if id, err := r.Verify(context.Background(), tok); err != nil || id.Level != security.Write {
		t.Fatalf("the remembered token: %+v %v", id, err)
	}
	now = now.Add(time.Hour)
	if _, err := r.Verify(context.Background(), tok); err == nil {
		t.Fatal("an expired token was accepted from the cache")
	}
}

// TestAClientThatHangsUpDoesNotSpendTheKeyFetch: a request whose client
// left while it named a key not known yet still fetches the keys, so
// that a token of the provider's new key passes within the same
// KeyRefresh.
func TestAClientThatHangsUpDoesNotSpendTheKeyFetch(t *testing.T) {
	o := startOP(t)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	r := newResource(t, o, oauth.Config{KeyRefresh: time.Hour, Now: clock})
	o.Storage.SetTokenTTL(3 * time.Hour)
	o.Storage.RotateKey()
	mu.Lock()
	now = now.Add(2 * time.Hour) // the keys may be fetched again, once within the next hour
	mu.Unlock()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = r.Verify(gone, token(t, o, "reader", resource, "files:read"))
	if _, err := r.Verify(context.Background(), token(t, o, "agent", resource, "files:read")); err != nil {
		t.Fatalf("a token of the new key after a client hung up: %v", err)
	}
}

// TestOpaqueTokensAreIntrospectedWhateverTheirShape: with introspection
// set, a token that is not a JWT goes to the issuer even if it has two
// dots (a PASETO, say), and a refused one is refused again at once.
func TestOpaqueTokensAreIntrospectedWhateverTheirShape(t *testing.T) {
	o := startOP(t)
	r := newResource(t, o, oauth.Config{Introspection: oauth.Client{ID: "rs", Secret: "rs-secret"}})
	var te *oauth.TokenError
	if _, err := r.Verify(context.Background(), "v2.local.abcdef"); !errors.As(err, &te) || !strings.Contains(te.Reason, "not active (introspection)") {
		t.Fatalf("a dotted opaque token: %v", err)
	}
	if _, err := r.Verify(context.Background(), "v2.local.abcdef"); !errors.As(err, &te) || te.Reason != "refused lately" {
		t.Fatalf("the same token again: %v", err)
	}
}

// TestTooManyChecksAtOnceAreAnsweredBusy: past MaxChecks tokens being
// checked at once, another token not known yet is answered ErrBusy,
// rather than piling up calls to the issuer; a token known already is
// not held up.
func TestTooManyChecksAtOnceAreAnsweredBusy(t *testing.T) {
	o := startOP(t)
	r := newResource(t, o, oauth.Config{MaxChecks: 1, KeyRefresh: time.Nanosecond})
	known := token(t, o, "agent", resource, "files:read")
	if _, err := r.Verify(context.Background(), known); err != nil {
		t.Fatal(err)
	}
	o.SlowKeys(300 * time.Millisecond)
	o.Storage.RotateKey()
	slow := token(t, o, "reader", resource, "files:read") // its key is fetched, slowly
	done := make(chan error, 1)
	go func() { _, err := r.Verify(context.Background(), slow); done <- err }()
	time.Sleep(100 * time.Millisecond)
	if _, err := r.Verify(context.Background(), token(t, o, "agent", resource, "files:write")); !errors.Is(err, oauth.ErrBusy) {
		t.Fatalf("a second token while one is checked: %v", err)
	}
	if _, err := r.Verify(context.Background(), known); err != nil {
		t.Fatalf("a known token while one is checked: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the slow check: %v", err)
	}
}

// TestScopeNamesMustBeScopeTokens: a scope name with a space, a quote, a
// backslash or a control character, an empty one or two alike are
// refused before anything is fetched.
func TestScopeNamesMustBeScopeTokens(t *testing.T) {
	for _, sc := range []oauth.Scopes{
		{Read: "a b", Write: "w", Admin: "x"},
		{Read: "r\x01", Write: "w", Admin: "x"},
		{Read: `r"`, Write: "w", Admin: "x"},
		{Read: `r\`, Write: "w", Admin: "x"},
		{Read: "r", Write: "", Admin: "x"},
		{Read: "r", Write: "r", Admin: "x"},
		{Read: "é", Write: "w", Admin: "x"},
	} {
		_, err := oauth.New(context.Background(), oauth.Config{Issuer: "https://auth.example.com", Resource: resource, Scopes: sc})
		if err == nil || !strings.Contains(err.Error(), "scope names") {
			t.Errorf("%q: %v", sc, err)
		}
	}
}

// TestAPrincipalNamesTheSubjectAndItsClient: the principal is the
// subject, and the client beside it when it is another.
func TestAPrincipalNamesTheSubjectAndItsClient(t *testing.T) {
	for _, tc := range []struct{ sub, client, want string }{
		{"alice", "cli", "sub:alice client:cli"},
		{"agent", "agent", "sub:agent"},
		{"agent", "", "sub:agent"},
	} {
		id := &oauth.Identity{Subject: tc.sub, ClientID: tc.client}
		if got := id.Principal(); got != tc.want {
			t.Errorf("%s of %s: %q, want %q", tc.sub, tc.client, got, tc.want)
		}
	}
}
