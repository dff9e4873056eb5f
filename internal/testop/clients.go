package testop

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Token gets an access token for resource with scopes by the client
// credentials grant, as client id with its secret, through
// golang.org/x/oauth2.
func (o *OP) Token(ctx context.Context, id, secret, resource string, scopes ...string) (string, error) {
	cfg := clientcredentials.Config{
		ClientID: id, ClientSecret: secret, TokenURL: o.Issuer + "/oauth/token", Scopes: scopes,
		EndpointParams: map[string][]string{"resource": {resource}},
	}
	tok, err := cfg.Token(ctx)
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// TokenByCode gets an access token for resource with scopes by the
// authorization code grant with PKCE (S256), as the public client id
// whose redirect URI is redirect: the provider's login approves at once,
// and the code is taken from the redirect rather than by a browser.
func (o *OP) TokenByCode(ctx context.Context, id, redirect, resource string, scopes ...string) (string, error) {
	cfg := oauth2.Config{
		ClientID:    id,
		Endpoint:    oauth2.Endpoint{AuthURL: o.Issuer + "/authorize", TokenURL: o.Issuer + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: redirect,
		Scopes:      scopes,
	}
	verifier := oauth2.GenerateVerifier()
	state := oauth2.GenerateVerifier()[:16]
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	code, got, err := Approve(ctx, authURL, redirect)
	if err != nil {
		return "", err
	}
	if got != state {
		return "", errors.New("authorize: the state came back changed")
	}
	tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// Approve opens authURL, an authorization request of the provider, as a
// browser would, the user approving at once, and returns the code and
// state the provider sends to redirect.
func Approve(ctx context.Context, authURL, redirect string) (code, state string, err error) {
	hc := &http.Client{CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", "", err
	}
	resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return "", "", fmt.Errorf("authorize: %d and no redirect", resp.StatusCode)
	}
	if e := loc.Query().Get("error"); e != "" {
		return "", "", fmt.Errorf("authorize: %s: %s", e, loc.Query().Get("error_description"))
	}
	return loc.Query().Get("code"), loc.Query().Get("state"), nil
}
