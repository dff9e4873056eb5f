package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/stdiotools/toolserver/server"
)

// Protect returns next behind the token check. A request without a
// bearer token in its Authorization header is answered 401 with the
// challenge that says where to get one (resource_metadata and the scope
// to ask for); one with a token refused, 401 with error="invalid_token";
// one whose token grants none of the scopes, 403 with
// error="insufficient_scope". A token in the query string is refused
// (MCP forbids it). A request that passes reaches next with the token's
// identity as its principal ([server.WithPrincipal]) and its level as
// its grant ([server.WithGrant]), so that the server lists and runs only
// the tools the token allows.
func (r *Resource) Protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Query().Has("access_token") {
			r.refused("token_in_url")
			r.challenge(w, http.StatusBadRequest, "invalid_request", "an access token goes in the Authorization header, never in the URL", r.offered())
			return
		}
		token, ok := bearer(req.Header.Get("Authorization"))
		if !ok {
			r.refused("missing_token")
			r.challenge(w, http.StatusUnauthorized, "", "this server needs an OAuth access token (Authorization: Bearer)", r.offered())
			return
		}
		id, err := r.Verify(req.Context(), token)
		var te *TokenError
		switch {
		case err == nil:
		case errors.Is(err, ErrNoScope):
			r.refused("no_scope")
			r.challenge(w, http.StatusForbidden, "insufficient_scope", "the token grants none of this server's scopes", r.offered())
			return
		case errors.As(err, &te):
			r.refused("invalid_token")
			r.challenge(w, http.StatusUnauthorized, "invalid_token", "invalid token: "+te.Reason, r.offered())
			return
		case errors.Is(err, ErrBusy):
			r.refused("busy")
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many tokens are being checked at once; try again in a moment", http.StatusServiceUnavailable)
			return
		default:
			r.refused("issuer_unreachable")
			w.Header().Set("Retry-After", "5")
			http.Error(w, "the token cannot be checked now: the authorization server did not answer", http.StatusServiceUnavailable)
			return
		}
		ctx := server.WithPrincipal(req.Context(), id.principal)
		ctx = server.WithGrant(ctx, id.grant)
		next.ServeHTTP(w, req.WithContext(ctx))
	})
}

// refused tells Config.Refused of a refusal.
func (r *Resource) refused(reason string) {
	if r.cfg.Refused != nil {
		r.cfg.Refused(reason)
	}
}

// bearer returns the token of an Authorization header of the Bearer
// scheme (its name in any case, RFC 7235).
func bearer(h string) (string, bool) {
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.IndexByte(token, ' ') >= 0 || strings.IndexByte(token, '\t') >= 0 {
		return "", false
	}
	return token, true
}

// scopeChallenge is the challenge of a call its token's scopes do not
// allow (server.Grant.Challenge).
func (r *Resource) scopeChallenge(scope, description string) string {
	return Challenge("insufficient_scope", description, scope, r.metaURL)
}

// offered returns the scopes a challenge names: Config.Offered.
func (r *Resource) offered() string { return strings.Join(r.cfg.Offered, " ") }

// challenge answers with status and the WWW-Authenticate challenge of
// RFC 6750 and MCP: the metadata's URL, the scopes to ask for, and the
// error, if any, with its description.
func (r *Resource) challenge(w http.ResponseWriter, status int, code, description, scope string) {
	w.Header().Set("WWW-Authenticate", Challenge(code, description, scope, r.metaURL))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	body := map[string]string{"error": code, "error_description": description}
	if code == "" {
		body["error"] = "unauthorized"
	}
	_ = json.NewEncoder(w).Encode(body)
}

// Challenge returns the value of a WWW-Authenticate header of the Bearer
// scheme: error (omitted when empty), its description, the scope needed
// and the URL of the protected resource's metadata.
func Challenge(code, description, scope, metadataURL string) string {
	var b strings.Builder
	b.WriteString("Bearer ")
	if code != "" {
		fmt.Fprintf(&b, "error=%s, ", quote(code))
		if description != "" {
			fmt.Fprintf(&b, "error_description=%s, ", quote(description))
		}
	}
	fmt.Fprintf(&b, "scope=%s, resource_metadata=%s", quote(scope), quote(metadataURL))
	return b.String()
}

// quote returns s as an RFC 7230 quoted string, its quotes and
// backslashes escaped and any control character left out.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(s) {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// MetadataURL returns the URL of this resource's Protected Resource
// Metadata (RFC 9728 §3.1): the well-known path inserted before the
// resource's own, as https://host/.well-known/oauth-protected-resource/mcp.
func (r *Resource) MetadataURL() string { return r.metaURL }

// MetadataPaths returns the paths the metadata is served at: the
// well-known one with the resource's path after it (RFC 9728), and the
// bare one, for clients that look there.
func (r *Resource) MetadataPaths() []string {
	if bare := "/.well-known/oauth-protected-resource"; r.metaPath != bare {
		return []string{r.metaPath, bare}
	}
	return []string{r.metaPath}
}

// MetadataHandler serves the Protected Resource Metadata (RFC 9728):
// this resource, its authorization server, the scopes and the one way
// to send a token (the header).
func (r *Resource) MetadataHandler() http.Handler {
	doc, _ := json.Marshal(map[string]any{
		"resource":                 r.cfg.Resource,
		"authorization_servers":    []string{r.issuer},
		"scopes_supported":         r.cfg.Scopes.list(),
		"bearer_methods_supported": []string{"header"},
	})
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=300")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write(doc)
	})
}
