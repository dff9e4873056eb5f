package oauth_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-jose/go-jose/v4"
	"github.com/stdiotools/toolserver/oauth"
)

// An MCP endpoint behind the resource server: a request without a token
// is told where to get one. The authorization server here is a stand-in
// that publishes its metadata and one key, as any provider does.
func Example() {
	pub, _, _ := ed25519.GenerateKey(nil)
	var issuer *httptest.Server
	issuer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			json.NewEncoder(w).Encode(map[string]string{"issuer": issuer.URL, "jwks_uri": issuer.URL + "/keys"})
		case "/keys":
			json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: pub, KeyID: "k1", Algorithm: "EdDSA", Use: "sig"}}})
		default:
			http.NotFound(w, r)
		}
	}))
	defer issuer.Close()

	res, err := oauth.New(context.Background(), oauth.Config{Issuer: issuer.URL, Resource: "https://mcp.example.com/mcp"})
	if err != nil {
		fmt.Println(err)
		return
	}
	mcp := res.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "served") // server.Server.HTTPHandler in a real server
	}))
	rec := httptest.NewRecorder()
	mcp.ServeHTTP(rec, httptest.NewRequest("POST", "https://mcp.example.com/mcp", nil))
	fmt.Println(rec.Code)
	fmt.Println(rec.Header().Get("WWW-Authenticate"))
	fmt.Println(res.MetadataPaths())
	// Output:
	// 401
	// Bearer scope="files:read files:write files:admin", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// [/.well-known/oauth-protected-resource/mcp /.well-known/oauth-protected-resource]
}
