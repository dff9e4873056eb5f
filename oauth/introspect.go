package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// introspection is an RFC 7662 introspection response, as far as a
// Resource reads it.
type introspection struct {
	Active    bool            `json:"active"`
	Scope     string          `json:"scope"`
	ClientID  string          `json:"client_id"`
	Subject   string          `json:"sub"`
	Issuer    string          `json:"iss"`
	Audience  json.RawMessage `json:"aud"`
	Expiry    int64           `json:"exp"`
	NotBefore int64           `json:"nbf"`
}

// introspect asks the issuer about an opaque token (RFC 7662),
// authenticated as the configured client. The token must be active, of
// this issuer if it says, for this resource, and within its time; unlike
// a JWT's, an introspected token's audience and expiry must be given.
func (r *Resource) introspect(ctx context.Context, raw string) (*Identity, error) {
	form := url.Values{"token": {raw}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.meta.IntrospectionEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(r.cfg.Introspection.ID), url.QueryEscape(r.cfg.Introspection.Secret))
	resp, err := r.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("oauth: introspection: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("oauth: introspection: %w", &statusError{url: r.meta.IntrospectionEndpoint, code: resp.StatusCode})
	}
	var in introspection
	if err := decodeJSON(resp.Body, &in, r.meta.IntrospectionEndpoint); err != nil {
		return nil, fmt.Errorf("oauth: introspection: %w", err)
	}
	now := r.cfg.Now()
	switch {
	case !in.Active:
		return nil, &TokenError{Reason: "not active (introspection)"}
	case in.Issuer != "" && in.Issuer != r.issuer:
		return nil, &TokenError{Reason: "issued by another issuer"}
	case !r.audienceIn(in.Audience):
		return nil, &TokenError{Reason: "issued for another resource (aud)"}
	case in.Expiry == 0:
		return nil, &TokenError{Reason: "no expiry (exp)"}
	case now.Add(-r.cfg.ClockSkew).After(time.Unix(in.Expiry, 0)):
		return nil, &TokenError{Reason: "expired"}
	case in.NotBefore != 0 && now.Add(r.cfg.ClockSkew).Before(time.Unix(in.NotBefore, 0)):
		return nil, &TokenError{Reason: "not valid yet (nbf)"}
	case in.Subject == "" && in.ClientID == "":
		return nil, &TokenError{Reason: "no subject (sub)"}
	}
	subject := in.Subject
	if subject == "" {
		subject = in.ClientID
	}
	return r.identity(subject, in.ClientID, strings.Fields(in.Scope), time.Unix(in.Expiry, 0))
}

// audienceIn reports whether aud, a string or an array of strings, names
// this resource.
func (r *Resource) audienceIn(aud json.RawMessage) bool {
	var list []string
	var one string
	if json.Unmarshal(aud, &one) == nil {
		list = []string{one}
	} else if json.Unmarshal(aud, &list) != nil {
		return false
	}
	want := r.audiences()
	return slices.ContainsFunc(list, func(a string) bool { return slices.Contains(want, a) })
}
