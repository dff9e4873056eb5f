package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// metadata is what a Resource uses of its authorization server's
// metadata (RFC 8414, or OpenID Connect Discovery).
type metadata struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
}

// maxDocument bounds a metadata, keys or introspection document read
// from the authorization server.
const maxDocument = 1 << 20

// discover reads the metadata of issuer: RFC 8414's well-known URI
// first (with the issuer's path after it, as that RFC places it), then
// OpenID's (after the issuer's path). The document must name the same
// issuer (RFC 8414 §3.3; a trailing slash aside), so that a server
// cannot speak for another; tokens must then name it exactly as the
// document does.
func discover(ctx context.Context, client *http.Client, issuer string) (metadata, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return metadata{}, fmt.Errorf("oauth: issuer: %w", err)
	}
	host, path := u.Scheme+"://"+u.Host, strings.TrimSuffix(u.EscapedPath(), "/")
	oauthURL := host + "/.well-known/oauth-authorization-server" + path
	openidURL := host + path + "/.well-known/openid-configuration"
	var errs []error
	for _, where := range []string{oauthURL, openidURL} {
		var m metadata
		err := getJSON(ctx, client, where, &m)
		if err == nil {
			if strings.TrimSuffix(m.Issuer, "/") != issuer {
				return metadata{}, fmt.Errorf("oauth: %s names the issuer %q, not %q", where, m.Issuer, issuer)
			}
			if m.JWKSURI == "" && m.IntrospectionEndpoint == "" {
				return metadata{}, fmt.Errorf("oauth: %s names neither jwks_uri nor introspection_endpoint", where)
			}
			return m, nil
		}
		errs = append(errs, err)
		var se *statusError
		if !errors.As(err, &se) || se.code != http.StatusNotFound {
			break // only a missing document sends us to the other
		}
	}
	return metadata{}, fmt.Errorf("oauth: the metadata of %s: %w", issuer, errors.Join(errs...))
}

// statusError is a response of a status other than 200.
type statusError struct {
	url  string
	code int
}

func (e *statusError) Error() string {
	return fmt.Sprintf("GET %s: %d %s", e.url, e.code, http.StatusText(e.code))
}

// getJSON GETs where and decodes its JSON body, of at most maxDocument
// bytes, into v.
func getJSON(ctx context.Context, client *http.Client, where string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &statusError{url: where, code: resp.StatusCode}
	}
	return decodeJSON(resp.Body, v, where)
}

// decodeJSON decodes r, of at most maxDocument bytes, into v.
func decodeJSON(r io.Reader, v any, where string) error {
	b, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", where, err)
	}
	if len(b) > maxDocument {
		return fmt.Errorf("%s: larger than %d bytes", where, maxDocument)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}
