package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/internal/testop"
	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// oauthServer is toolserver over HTTP with OAuth, and the provider whose
// tokens it takes.
type oauthServer struct {
	op   *testop.OP
	url  string // the endpoint, http://127.0.0.1:PORT/mcp, the resource
	root string
}

// startOAuth starts a real OpenID provider and toolserver --http with
// --oauth-issuer naming it, and extra flags. The provider knows the
// clients "agent" (every scope), "reader" (files:read), "reader2" (a
// second client of files:read), each with the secret "<id>-secret", and
// "cli", a public client of the authorization code with PKCE.
func startOAuth(t *testing.T, extra ...string) *oauthServer {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	t.Cleanup(ts.Close)
	endpoint := "http://" + ts.Listener.Addr().String() + "/mcp"
	s := testop.NewStorage()
	cc := []oidc.GrantType{oidc.GrantTypeClientCredentials}
	all := []string{"files:read", "files:write", "files:admin"}
	s.RegisterClient(&testop.Client{ID: "agent", Secret: "agent-secret", Scopes: all, Resources: []string{endpoint}, Grants: cc})
	s.RegisterClient(&testop.Client{ID: "reader", Secret: "reader-secret", Scopes: all[:1], Resources: []string{endpoint}, Grants: cc})
	s.RegisterClient(&testop.Client{ID: "reader2", Secret: "reader2-secret", Scopes: all[:1], Resources: []string{endpoint}, Grants: cc})
	s.RegisterClient(&testop.Client{ID: "cli", Scopes: all, Resources: []string{endpoint}, Redirects: []string{"http://127.0.0.1/callback"}, Grants: []oidc.GrantType{oidc.GrantTypeCode}, Subject: "alice"})
	op, err := testop.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	root := t.TempDir() // the tests write
	args := append([]string{"--root", root, "--http", "127.0.0.1:0", "--oauth-issuer", op.Issuer, "--oauth-resource", endpoint}, extra...)
	ts.Config.Handler = httpHandlerFor(t, args...)
	ts.Start()
	return &oauthServer{op: op, url: endpoint, root: root}
}

// bearer sends method with body to the endpoint with token (none if
// empty), as 2025-11-25 over HTTP.
func (o *oauthServer) post(t *testing.T, token, query, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", o.url+query, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestOAuthServesTheMetadataAndChallengesWithoutAToken: the protected
// resource's metadata names the provider and the scopes; a request
// without a token, or with one in the URL, is 401 with the challenge,
// which asks for the scopes of every level served (here read and write,
// without --allow-admin).
func TestOAuthServesTheMetadataAndChallengesWithoutAToken(t *testing.T) {
	o := startOAuth(t)
	base := strings.TrimSuffix(o.url, "/mcp")
	for _, p := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Resource string   `json:"resource"`
			Servers  []string `json:"authorization_servers"`
			Scopes   []string `json:"scopes_supported"`
		}
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil || doc.Resource != o.url || len(doc.Servers) != 1 || doc.Servers[0] != o.op.Issuer || strings.Join(doc.Scopes, " ") != "files:read files:write files:admin" {
			t.Fatalf("%s: %+v %v", p, doc, err)
		}
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	resp, _ := o.post(t, "", "", ping)
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || !strings.Contains(ch, `resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`) || !strings.Contains(ch, `scope="files:read files:write"`) {
		t.Fatalf("no token: %d %q", resp.StatusCode, ch)
	}
	tok, err := o.op.Token(context.Background(), "reader", "reader-secret", o.url, "files:read")
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := o.post(t, "", "?access_token="+url.QueryEscape(tok), ping); resp.StatusCode != 400 {
		t.Fatalf("a token in the query string: %d", resp.StatusCode)
	}
	if resp, body := o.post(t, tok, "", ping); resp.StatusCode != 200 {
		t.Fatalf("a good token: %d %s", resp.StatusCode, body)
	}
	// A read token calling a write tool: 403, the challenge naming the
	// scope to ask for and where the metadata is.
	write := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"x.txt","content":"x"}}}`
	resp, body := o.post(t, tok, "", write)
	want := `Bearer error="insufficient_scope", error_description="tool write_file needs files:write", scope="files:write", resource_metadata="` + base + `/.well-known/oauth-protected-resource/mcp"`
	if resp.StatusCode != 403 || resp.Header.Get("WWW-Authenticate") != want || !strings.Contains(body, `"data":{"scope":"files:write"}`) {
		t.Fatalf("a write with a read token: %d %q %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}
}

// connectOAuth connects the official Go client to o with handler, in the
// era pin names ("" for the newest).
func connectOAuth(t *testing.T, o *oauthServer, handler auth.OAuthHandler, pin string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: o.url, MaxRetries: -1, OAuthHandler: handler}, &mcp.ClientSessionOptions{ProtocolVersion: pin})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// clientCredentials is the official Go client's handler of the client
// credentials grant, as client id.
func clientCredentials(t *testing.T, id string) auth.OAuthHandler {
	t.Helper()
	h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
		Credentials: &oauthex.ClientCredentials{ClientID: id, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: id + "-secret"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// toolNames lists the tools cs is offered.
func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestInteropOAuthWithTheOfficialGoSDK: the official Go client, with its
// own OAuth handlers, finds the provider through the metadata, gets a
// token (client credentials; authorization code with PKCE) and works, in
// both eras; a token of the read scope is offered the read tools only,
// and its write_file is refused 403 and writes nothing.
func TestInteropOAuthWithTheOfficialGoSDK(t *testing.T) {
	o := startOAuth(t)
	for _, pin := range []string{"", "2025-11-25"} {
		t.Run("era "+pin, func(t *testing.T) {
			agent := connectOAuth(t, o, clientCredentials(t, "agent"), pin)
			if got := strings.Join(toolNames(t, agent), " "); !strings.Contains(got, "write_file") || !strings.Contains(got, "read_file") {
				t.Fatalf("agent's tools: %s", got)
			}
			res, err := agent.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "by-agent-" + pin + ".txt", "content": "hello\n"}})
			if err != nil || res.IsError {
				t.Fatalf("agent's write: %+v %v", res, err)
			}

			reader := connectOAuth(t, o, clientCredentials(t, "reader"), pin)
			got := toolNames(t, reader)
			for _, name := range got {
				if name == "write_file" || name == "edit_file" || name == "delete_file" {
					t.Fatalf("a read token is offered %s: %v", name, got)
				}
			}
			if len(got) == 0 {
				t.Fatal("a read token is offered no tool")
			}
			res, err = reader.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "by-agent-" + pin + ".txt"}})
			if err != nil || res.IsError {
				t.Fatalf("reader's read: %+v %v", res, err)
			}
			name := "by-reader-" + pin + ".txt"
			_, err = reader.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": name, "content": "x\n"}})
			if err == nil {
				t.Fatal("a read token wrote")
			}
			if _, serr := os.Stat(filepath.Join(o.root, name)); !errors.Is(serr, os.ErrNotExist) {
				t.Fatalf("a refused write left %s: %v (the call said %v)", name, serr, err)
			}
		})
	}
	t.Run("authorization code with PKCE", func(t *testing.T) {
		h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
			PreregisteredClient: &oauthex.ClientCredentials{ClientID: "cli"},
			RedirectURL:         "http://127.0.0.1:49152/callback",
			AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
				code, state, err := testop.Approve(ctx, args.URL, "http://127.0.0.1:49152/callback")
				if err != nil {
					return nil, err
				}
				return &auth.AuthorizationResult{Code: code, State: state}, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectOAuth(t, o, h, "")
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "by-alice.txt", "content": "hi\n"}})
		if err != nil || res.IsError {
			t.Fatalf("alice's write: %+v %v", res, err)
		}
	})
}

// TestOAuthLimitsCountPerSubjectNotPerToken: --max-calls counts the
// calls of a token's subject across its tokens, and another subject's
// apart.
func TestOAuthLimitsCountPerSubjectNotPerToken(t *testing.T) {
	o := startOAuth(t, "--max-calls", "2")
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1+1"}}}`
	token := func(id string) string {
		tok, err := o.op.Token(context.Background(), id, id+"-secret", o.url, "files:read")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	first, second := token("reader"), token("reader")
	if first == second {
		t.Fatal("the provider gave one token twice")
	}
	for i, tok := range []string{first, second} {
		if _, body := o.post(t, tok, "", call); strings.Contains(body, `"isError":true`) || strings.Contains(body, `"error"`) {
			t.Fatalf("call %d of reader: %s", i+1, body)
		}
	}
	if _, body := o.post(t, token("reader"), "", call); !strings.Contains(body, "used all 2 tool calls it is allowed") {
		t.Fatalf("reader's third call, with a third token: %s", body)
	}
	if _, body := o.post(t, token("reader2"), "", call); strings.Contains(body, `"isError":true`) || strings.Contains(body, `"error"`) {
		t.Fatalf("another subject's first call: %s", body)
	}
}

// TestAuthFlagsRefuseWhatWouldNotDoWhatTheySay: OAuth half configured,
// beside a static token, without --http, on a plain-http issuer off
// loopback or one that cannot be reached, and a gateway's header without
// its gateways: each stops the server with a sentence naming the flags.
func TestAuthFlagsRefuseWhatWouldNotDoWhatTheySay(t *testing.T) {
	root := playground(t)
	tok := tokenFile(t, "tok")
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", "https://auth.example.com"}, "--oauth-issuer needs --oauth-resource"},
		{[]string{"--http", "127.0.0.1:0", "--oauth-resource", "https://mcp.example.com/mcp"}, "--oauth-resource needs --oauth-issuer"},
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", "https://a.example", "--oauth-resource", "https://m.example/mcp", "--auth-token-file", tok}, "give one"},
		{[]string{"--oauth-issuer", "https://a.example", "--oauth-resource", "https://m.example/mcp"}, "applies only with --http"},
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", "http://auth.example.com", "--oauth-resource", "https://m.example/mcp"}, "must be https://"},
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", dead.URL, "--oauth-resource", "https://m.example/mcp"}, "the metadata of " + dead.URL},
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", "https://a.example", "--oauth-resource", "https://m.example/mcp", "--oauth-client-id", "rs"}, "go together"},
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", "https://a.example", "--oauth-resource", "https://m.example/mcp", "--oauth-scopes", "a,b"}, "three scope names"},
		{[]string{"--http", "127.0.0.1:0", "--trusted-identity-header", "X-User"}, "go together"},
		{[]string{"--http", "127.0.0.1:0", "--trusted-identity-header", "X-User", "--trusted-proxies", "not-an-address"}, "--trusted-proxies"},
		{[]string{"--http", "127.0.0.1:0", "--oauth-issuer", "https://a.example", "--oauth-resource", "https://m.example/mcp", "--trusted-identity-header", "X-User", "--trusted-proxies", "10.0.0.1"}, "give one"},
		{[]string{"--http", "0.0.0.0:0"}, "--oauth-issuer URL"},
	} {
		cfg, fs := newConfig("serve", io.Discard)
		if err := fs.Parse(append([]string{"--root", root}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		srv, closeRoot, err := build(cfg, nil, nil, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		_, err = checkHTTP(context.Background(), &cfg.http, srv)
		closeRoot()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v; want %q", tc.args, err, tc.want)
		}
	}
}

// TestAGatewaysHeaderNamesTheClientFromTrustedProxiesOnly: behind a
// gateway, --trusted-identity-header names the client whose limits a
// call counts against, but only from --trusted-proxies; from anywhere
// else the header is ignored and the address counts.
func TestAGatewaysHeaderNamesTheClientFromTrustedProxiesOnly(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1+1"}}}`
	for _, tc := range []struct {
		proxies string
		trusted bool
	}{{"127.0.0.0/8", true}, {"10.0.0.0/8, 192.168.1.1", false}} {
		ts := httptest.NewServer(httpHandlerFor(t, "--root", playground(t), "--http", "127.0.0.1:0", "--max-calls", "1",
			"--trusted-identity-header", "X-Forwarded-User", "--trusted-proxies", tc.proxies))
		answers := map[string]string{}
		for _, user := range []string{"alice", "bob"} {
			req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(call))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			req.Header.Set("X-Forwarded-User", user)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers[user] = string(b)
		}
		ts.Close()
		bobRefused := strings.Contains(answers["bob"], "used all 1 tool calls")
		if strings.Contains(answers["alice"], `"isError":true`) || bobRefused == tc.trusted {
			t.Errorf("proxies %s: alice %s; bob %s", tc.proxies, answers["alice"], answers["bob"])
		}
	}
}
