package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"unicode"

	"github.com/rs/zerolog"
)

// This file holds the checks every HTTP request passes before the
// endpoint sees it, each an http.Handler wrapper in the net/http style:
// the Host header (against DNS rebinding), the Origin header (against
// web pages), and the bearer token.

// hostSet is the hosts that Host and Origin may name.
type hostSet struct {
	any   bool // "*": every host
	names map[string]bool
}

// newHostSet returns the loopback names and allowed, lower-cased and
// without brackets.
func newHostSet(allowed []string) *hostSet {
	h := &hostSet{names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	for _, name := range allowed {
		name = strings.ToLower(strings.Trim(strings.TrimSpace(name), "[]"))
		switch name {
		case "":
		case "*":
			h.any = true
		default:
			h.names[name] = true
		}
	}
	return h
}

// allows reports whether a Host header (a name or address, with or
// without a port) names a host of the set.
func (h *hostSet) allows(hostport string) bool {
	if h.any {
		return true
	}
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	return host != "" && h.names[host]
}

// allowsOrigin reports whether an Origin header names a host of the set.
// "null" and anything that is not a URL with a host are refused.
func (h *hostSet) allowsOrigin(origin string) bool {
	if h.any {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return h.allows(u.Host)
}

// checkHost refuses, with 403, a request whose Host header names a host
// the server does not answer for: a page that rebinds its own name to
// this machine's address.
func checkHost(hosts *hostSet, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hosts.allows(r.Host) {
			log.Warn().Str("host", clip(r.Host)).Str("remote", r.RemoteAddr).Msg("refused a request for a host not allowed (DNS rebinding?)")
			httpRefuse(w, http.StatusForbidden, "Forbidden: the Host header names a host this server does not answer for")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkOrigin refuses, with 403, a request whose Origin header names an
// origin the server does not answer: a web page of another site.
func checkOrigin(hosts *hostSet, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !hosts.allowsOrigin(origin) {
			log.Warn().Str("origin", clip(origin)).Str("remote", r.RemoteAddr).Msg("refused a request from an origin not allowed")
			httpRefuse(w, http.StatusForbidden, "Forbidden: the Origin header names an origin this server does not answer")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// tokenPrincipal is the principal of every request that carries the
// static token: the token names one client, whoever sends it.
const tokenPrincipal = "bearer token"

// requireToken refuses, with 401, a request without the bearer token,
// compared in constant time, and serves the others for the token's
// principal.
func requireToken(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !bearerIs(r.Header.Get("Authorization"), want[:]) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolserver"`)
			httpRefuse(w, http.StatusUnauthorized, "Unauthorized: send the token as \"Authorization: Bearer <token>\"")
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), tokenPrincipal)))
	})
}

// trustIdentity serves a request from one of proxies that carries the
// header, once, for the principal the header names; any other request as
// it came. A header given twice or naming two (a comma), a name longer
// than maxIdentity, or one with control characters is not what a gateway
// that replaces the header gives, and is ignored.
func trustIdentity(header string, proxies []netip.Prefix, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// One value only: a gateway that appends to what the client sent
		// would leave the client's own name first.
		values := r.Header.Values(header)
		if len(values) == 1 && trustedName(values[0]) && fromProxy(r.RemoteAddr, proxies) {
			r = r.WithContext(WithPrincipal(r.Context(), "gateway "+values[0]))
		}
		next.ServeHTTP(w, r)
	})
}

// trustedName reports whether name is one a gateway gives: not empty,
// at most maxIdentity bytes, one value (no comma), no control character.
func trustedName(name string) bool {
	return name != "" && len(name) <= maxIdentity && !strings.ContainsRune(name, ',') && !strings.ContainsFunc(name, unicode.IsControl)
}

// maxIdentity bounds the name a gateway's header gives.
const maxIdentity = 256

// fromProxy reports whether remote, a connection's address, is one of
// proxies.
func fromProxy(remote string, proxies []netip.Prefix) bool {
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	for _, p := range proxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// bearerIs reports, in constant time, whether an Authorization header
// carries the token whose SHA-256 is sum.
func bearerIs(header string, sum []byte) bool {
	const scheme = "bearer "
	if len(header) < len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(header[len(scheme):])))
	return subtle.ConstantTimeCompare(got[:], sum) == 1
}

// httpRefuse answers a request refused before its body is read.
func httpRefuse(w http.ResponseWriter, status int, text string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text+"\n")
}
