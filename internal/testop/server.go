package testop

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// OP is a running in-process OpenID Provider.
type OP struct {
	Issuer   string // http://127.0.0.1:PORT
	Storage  *Storage
	Provider *op.Provider
	Server   *httptest.Server
	// KeysDown, while true, answers the key set (jwks_uri) 503, as an
	// issuer that cannot be reached.
	KeysDown   atomic.Bool
	keyFetches atomic.Int64
	keysDelay  atomic.Int64 // nanoseconds each answer of the key set waits
}

// SlowKeys makes each answer of the key set wait d.
func (o *OP) SlowKeys(d time.Duration) { o.keysDelay.Store(int64(d)) }

// KeyFetches returns how many times the key set was asked for.
func (o *OP) KeyFetches() int64 { return o.keyFetches.Load() }

// Close stops the provider.
func (o *OP) Close() { o.Server.Close() }

// resourceInterceptor copies RFC 8707 "resource" parameters (authorize query or
// token form) into the context, because op's parsed request structs
// (oidc.ClientCredentialsRequest, oidc.AuthRequest) drop them.
func resourceInterceptor(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err == nil { // r.Form/PostForm stay populated for op's own ParseForm
			if res := r.Form["resource"]; len(res) > 0 {
				r = r.WithContext(context.WithValue(r.Context(), resourceCtxKey, res))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// metadata serves /.well-known/openid-configuration AND RFC 8414
// /.well-known/oauth-authorization-server (op.Provider alone serves only the former).
type metadata struct {
	op.UnimplementedMetadataServer
	p      *op.Provider
	issuer string
}

func (m metadata) doc(ctx context.Context, r *op.Request[op.MetadataRequest]) (*op.Response, error) {
	if r.Data.IssuerPath != "" { // our issuer has no path
		return nil, op.NewStatusError(oidc.ErrInvalidRequest().WithDescription("unknown issuer"), http.StatusNotFound)
	}
	ctx = op.ContextWithIssuer(ctx, m.issuer)
	return op.NewResponse(op.CreateDiscoveryConfig(ctx, m.p, m.p.Storage())), nil
}

func (m metadata) OpenIDConfiguration(ctx context.Context, r *op.Request[op.MetadataRequest]) (*op.Response, error) {
	return m.doc(ctx, r)
}

func (m metadata) AuthorizationServerMetadata(ctx context.Context, r *op.Request[op.MetadataRequest]) (*op.Response, error) {
	return m.doc(ctx, r)
}

// Start runs an OP on http://127.0.0.1:<random port>.
func Start(s *Storage) (*OP, error) {
	ts := httptest.NewUnstartedServer(nil) // listener (127.0.0.1:port) exists already
	issuer := "http://" + ts.Listener.Addr().String()

	var cryptoKey [32]byte // AES key used by op to encrypt auth codes / opaque tokens
	_, _ = rand.Read(cryptoKey[:])
	cfg := &op.Config{
		CryptoKey:       cryptoKey,
		CodeMethodS256:  true, // advertise code_challenge_methods_supported=["S256"]
		AuthMethodPost:  true, // allow client_secret_post at the token endpoint
		SupportedScopes: []string{"openid", "files:read", "files:write", "files:admin"},
	}
	provider, err := op.NewProvider(cfg, s, op.StaticIssuer(issuer),
		op.WithAllowInsecure(), // required: issuer is http://
		op.WithHttpInterceptors(resourceInterceptor),
	)
	if err != nil {
		ts.Close()
		return nil, err
	}

	mux := http.NewServeMux()
	// Auto-approving "login UI": authenticate as the client's configured subject
	// and bounce back to op's /authorize/callback.
	mux.Handle("/login", op.NewIssuerInterceptor(provider.IssuerFromRequest).HandlerFunc(
		func(w http.ResponseWriter, r *http.Request) {
			id := r.FormValue("authRequestID")
			ar, err := s.AuthRequestByID(r.Context(), id)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			c, _ := s.client(ar.GetClientID())
			sub := "user-1"
			if c != nil && c.Subject != "" {
				sub = c.Subject
			}
			if err := s.CompleteLogin(id, sub); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			http.Redirect(w, r, op.AuthCallbackURL(provider)(r.Context(), id), http.StatusFound)
		}))
	mux.Handle("/", provider)

	o := &OP{Issuer: issuer, Storage: s, Provider: provider, Server: ts}
	meta := op.RegisterMetadataServer(metadata{p: provider, issuer: issuer}).Intercept(mux)
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/keys" {
			o.keyFetches.Add(1)
			time.Sleep(time.Duration(o.keysDelay.Load()))
		}
		if r.URL.Path == "/keys" && o.KeysDown.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		meta.ServeHTTP(w, r)
	})
	ts.Start()
	return o, nil
}
