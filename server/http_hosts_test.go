package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/server"
)

// TestHTTPAllowedHostsTakeIPv6LiteralsWithOrWithoutBrackets: an entry of
// HTTPOptions.AllowedHosts may write an IPv6 address as a URL does
// ([fd00::5]) or bare (fd00::6); either matches the Host and Origin
// headers that name it, with a port or without, and other hosts are
// refused with 403.
func TestHTTPAllowedHostsTakeIPv6LiteralsWithOrWithoutBrackets(t *testing.T) {
	h := server.New(server.Options{}).HTTPHandler(server.HTTPOptions{AllowedHosts: []string{"[fd00::5]", "fd00::6", " [FD00::7] "}})
	cases := []struct {
		host, origin string
		status       int
	}{
		{"[fd00::5]:8080", "", http.StatusOK},
		{"[fd00::5]", "", http.StatusOK},
		{"[FD00::5]:8080", "", http.StatusOK},
		{"[fd00::5]:8080", "http://[fd00::5]:8080", http.StatusOK},
		{"[fd00::5]:8080", "https://[fd00::5]", http.StatusOK},
		{"[fd00::6]:8080", "http://[fd00::6]:8080", http.StatusOK},
		{"[fd00::6]", "", http.StatusOK},
		{"[fd00::7]:8080", "http://[fd00::7]:8080", http.StatusOK},
		{"localhost:8080", "http://[fd00::5]:3000", http.StatusOK},
		{"[fd00::8]:8080", "", http.StatusForbidden},
		{"[fd00::8]", "", http.StatusForbidden},
		{"[fd00::5]:8080", "http://[fd00::8]:8080", http.StatusForbidden},
		{"[fd00::50]:8080", "", http.StatusForbidden},
		{"fd00:5:8080", "", http.StatusForbidden},
		{"[::ffff:fd00:5]:8080", "", http.StatusForbidden},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		want := `{"jsonrpc":"2.0","id":1,"result":{}}`
		if tc.status == http.StatusForbidden {
			want = "Forbidden: "
		}
		if w.Code != tc.status || !strings.HasPrefix(w.Body.String(), want) {
			t.Errorf("Host %q, Origin %q: %d %q; want %d %q", tc.host, tc.origin, w.Code, w.Body, tc.status, want)
		}
	}
}
