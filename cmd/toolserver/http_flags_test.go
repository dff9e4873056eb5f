package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPFlagsReachTheHandler: what --allowed-hosts, the address of
// --http and --max-message-bytes say is what the /mcp handler enforces.
// IPv6 addresses are allowed whether written with brackets or without,
// and a body of exactly --max-message-bytes is served, one byte more
// refused.
func TestHTTPFlagsReachTheHandler(t *testing.T) {
	const limit = 2048
	h := httpHandlerFor(t, "--root", playground(t), "--http", "[fd00::9]:8080", "--auth-token-file", tokenFile(t, "tok"),
		"--allowed-hosts", "[fd00::5], fd00::6", "--max-message-bytes", fmt.Sprint(limit))
	ping := func(size int) string {
		head := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`
		return head + strings.Repeat("a", size-len(head)-3) + `"}}`
	}
	cases := []struct {
		name, host, origin string
		size, status       int
	}{
		{"a bracketed --allowed-hosts entry", "[fd00::5]:8080", "http://[fd00::5]:8080", 100, http.StatusOK},
		{"a bare --allowed-hosts entry", "[fd00::6]:8080", "http://[fd00::6]", 100, http.StatusOK},
		{"the --http address", "[fd00::9]:8080", "http://[fd00::9]:8080", 100, http.StatusOK},
		{"another host", "[fd00::8]:8080", "", 100, http.StatusForbidden},
		{"another origin", "[fd00::5]:8080", "http://[fd00::8]:8080", 100, http.StatusForbidden},
		{"a body of the limit", "[fd00::5]:8080", "", limit, http.StatusOK},
		{"a body over the limit", "[fd00::5]:8080", "", limit + 1, http.StatusRequestEntityTooLarge},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(ping(tc.size)))
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != tc.status {
			t.Errorf("%s: %d %q; want %d", tc.name, w.Code, w.Body, tc.status)
		}
	}
}
