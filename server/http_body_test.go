package server

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHTTPBodyRoomIsTheAnnouncedLengthNotThePrealloc(t *testing.T) {
	e := &endpoint{srv: New(Options{Logger: nopLogger(), MaxMessageBytes: 1 << 20}), opts: HTTPOptions{BodyTimeout: 10 * time.Second}}
	for _, n := range []int{2, 100, 4000} {
		body := `"` + strings.Repeat("x", n-2) + `"`
		r := httptest.NewRequest("POST", "/", strings.NewReader(body)) // announces len(body)
		got, status, werr := e.readBody(httptest.NewRecorder(), r)
		if werr != nil || string(got) != body {
			t.Fatalf("a body of %d bytes: %d %v", n, status, werr)
		}
		// bytes.Buffer's ReadFrom adds its own 512 bytes; nothing near
		// the 64 KiB a body of unknown length starts with.
		if cap(got) >= bodyPrealloc {
			t.Errorf("a body announced as %d bytes was read into %d bytes of room", n, cap(got))
		}
	}
}
