package server

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// TestAGatewaysHeaderIsBelievedOnlyAsOneValue: the identity header is
// believed from a trusted proxy when it names one client once; given
// twice (a gateway that appends to the client's own), with a comma, or
// from another address, it is ignored.
func TestAGatewaysHeaderIsBelievedOnlyAsOneValue(t *testing.T) {
	var got string
	h := trustIdentity("X-User", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got, _ = principalOf(r.Context())
	}))
	for _, tc := range []struct {
		remote string
		values []string
		want   string
	}{
		{"10.1.2.3:5000", []string{"alice"}, "gateway alice"},
		{"[::ffff:10.1.2.3]:5000", []string{"alice"}, "gateway alice"},
		{"10.1.2.3:5000", []string{"admin", "mallory"}, ""},
		{"10.1.2.3:5000", []string{"admin, mallory"}, ""},
		{"10.1.2.3:5000", []string{"a\x01b"}, ""},
		{"10.1.2.3:5000", []string{strings.Repeat("a", 257)}, ""},
		{"192.168.1.1:5000", []string{"alice"}, ""},
	} {
		got = ""
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.RemoteAddr = tc.remote
		for _, v := range tc.values {
			req.Header.Add("X-User", v)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		if got != tc.want {
			t.Errorf("%s %q: principal %q, want %q", tc.remote, tc.values, got, tc.want)
		}
	}
}
