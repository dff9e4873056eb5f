package oauth_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/oauth"
)

// TestProtectAnswersEachRefusalWithItsChallenge: a request without a
// token, with one in the query string, with one refused, or with one of
// no scope is answered as MCP's authorization asks, its challenge naming
// the metadata and the scope; a good token reaches the handler.
func TestProtectAnswersEachRefusalWithItsChallenge(t *testing.T) {
	o := startOP(t)
	reasons := map[string]int{}
	r := newResource(t, o, oauth.Config{Refused: func(reason string) { reasons[reason]++ }})
	reached := 0
	h := r.Protect(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { reached++ }))
	good := token(t, o, "reader", resource, "files:read")
	meta := `resource_metadata="http://127.0.0.1:9999/.well-known/oauth-protected-resource/mcp"`
	for _, tc := range []struct {
		name, auth, query string
		status            int
		challenge         []string
	}{
		{"no token", "", "", 401, []string{`Bearer scope="files:read files:write files:admin", ` + meta}},
		{"another scheme", "Basic YTpi", "", 401, []string{`Bearer scope=`}},
		{"a token in the query string", "", "?access_token=" + good, 400, []string{`error="invalid_request"`}},
		{"a token in the query string beside a good header", "Bearer " + good, "?access_token=" + good, 400, []string{`error="invalid_request"`}},
		{"a bad token", "Bearer abc.def.ghi", "", 401, []string{`Bearer error="invalid_token", error_description="invalid token: not a JWT`, meta}},
		{"a token naming a key of its own", "Bearer " + forged(map[string]any{"alg": "RS256", "kid": "k\u00e9\"y"}, map[string]any{"sub": "x"}, func(b []byte) []byte { return b[:8] }), "", 401,
			[]string{`error_description="invalid token: signed by a key the issuer does not list"`}},
		{"a token of no scope", "Bearer " + token(t, o, "nobody", resource, "openid"), "", 403, []string{`error="insufficient_scope"`, `scope="files:read files:write files:admin"`}},
		{"a good token, the scheme in any case", "bearer " + good, "", 200, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := reached
			req := httptest.NewRequest("POST", "/mcp"+tc.query, strings.NewReader("{}"))
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			got := rec.Header().Get("WWW-Authenticate")
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tc.status, got)
			}
			for _, want := range tc.challenge {
				if !strings.Contains(got, want) {
					t.Errorf("challenge %s, want %s", got, want)
				}
			}
			if (tc.status == 200) != (reached > before) {
				t.Fatalf("reached the handler: %v", reached > before)
			}
			if strings.Contains(rec.Body.String()+got, good) {
				t.Fatal("the answer repeats the token")
			}
		})
	}
	if want := map[string]int{"missing_token": 2, "token_in_url": 2, "invalid_token": 2, "no_scope": 1}; fmt.Sprint(reasons) != fmt.Sprint(want) {
		t.Fatalf("refusals counted %v, want %v", reasons, want)
	}
}

// TestTheMetadataSaysWhereToGetATokenAndWhichScopes: the Protected
// Resource Metadata (RFC 9728) is served at the well-known path with the
// resource's path after it, and names the resource, its issuer, the
// scopes and the header as the one way to send a token.
func TestTheMetadataSaysWhereToGetATokenAndWhichScopes(t *testing.T) {
	o := startOP(t)
	r := newResource(t, o, oauth.Config{Scopes: oauth.Scopes{Read: "r", Write: "w", Admin: "a"}})
	if got := r.MetadataURL(); got != "http://127.0.0.1:9999/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("MetadataURL = %s", got)
	}
	if got := r.MetadataPaths(); len(got) != 2 || got[0] != "/.well-known/oauth-protected-resource/mcp" || got[1] != "/.well-known/oauth-protected-resource" {
		t.Fatalf("MetadataPaths = %q", got)
	}
	rec := httptest.NewRecorder()
	r.MetadataHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil))
	body, _ := io.ReadAll(rec.Body)
	var doc struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		Scopes               []string `json:"scopes_supported"`
		Bearer               []string `json:"bearer_methods_supported"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s %v", rec.Code, body, err)
	}
	if doc.Resource != resource || len(doc.AuthorizationServers) != 1 || doc.AuthorizationServers[0] != o.Issuer ||
		strings.Join(doc.Scopes, " ") != "r w a" || strings.Join(doc.Bearer, " ") != "header" {
		t.Fatalf("metadata %s", body)
	}
	rec = httptest.NewRecorder()
	r.MetadataHandler().ServeHTTP(rec, httptest.NewRequest("POST", "/.well-known/oauth-protected-resource", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", rec.Code)
	}
}

// TestChallengeQuotesWhatItIsGiven: a description with quotes,
// backslashes or control characters cannot break the header.
func TestChallengeQuotesWhatItIsGiven(t *testing.T) {
	got := oauth.Challenge("invalid_token", "key \"k\\1\"\r\nX-Evil: 1", "files:read", "https://h/.well-known/oauth-protected-resource")
	want := `Bearer error="invalid_token", error_description="key \"k\\1\"X-Evil: 1", scope="files:read", resource_metadata="https://h/.well-known/oauth-protected-resource"`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
