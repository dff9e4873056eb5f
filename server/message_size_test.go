package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// sizedPing is a ping request of exactly n bytes, padded in its params.
func sizedPing(t *testing.T, id, n int) string {
	t.Helper()
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"`, id)
	const tail = `"}}`
	pad := n - len(head) - len(tail)
	if pad < 0 {
		t.Fatalf("a ping cannot be as short as %d bytes", n)
	}
	return head + strings.Repeat("a", pad) + tail
}

// tooLongError is the answer to a message over the limit, on either
// transport.
func tooLongError(limit int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: the message is longer than the limit of %d bytes (--max-message-bytes) and was discarded"}}`, limit)
}

// TestStdioTakesALineOfExactlyTheLimit: the stdio transport counts a
// line's bytes without its line ending ("\n" or "\r\n"), so a line of
// exactly MaxMessageBytes is served and one byte more is refused, and
// the next line is read as usual. The larger limit makes the line come
// in pieces longer than the reader's buffer.
func TestStdioTakesALineOfExactlyTheLimit(t *testing.T) {
	for _, limit := range []int{4096, 200 << 10} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			c := servertest.Connect(t, server.New(server.Options{MaxMessageBytes: limit}))
			cases := []struct {
				name  string
				size  int
				end   string // added before the "\n" Send writes
				serve bool
			}{
				{"the limit", limit, "", true},
				{"the limit, ended by CRLF", limit, "\r", true},
				{"one byte more", limit + 1, "", false},
				{"one byte more, ended by CRLF", limit + 1, "\r", false},
				{"two bytes more, ended by CRLF", limit + 2, "\r", false},
			}
			for i, tc := range cases {
				c.Send(sizedPing(t, i, tc.size) + tc.end)
				want := tooLongError(limit)
				if tc.serve {
					want = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, i)
				}
				if got := c.Recv(); got != want {
					t.Errorf("%s (%d bytes):\n got  %.200s\n want %s", tc.name, tc.size, got, want)
				}
			}
			// The refusals cost the session nothing: the next line is served.
			c.Send(`{"jsonrpc":"2.0","id":"next","method":"ping"}`)
			if got := c.Recv(); got != `{"jsonrpc":"2.0","id":"next","result":{}}` {
				t.Fatalf("after the refusals: %s", got)
			}
		})
	}
}

// TestHTTPTakesABodyOfExactlyTheLimit: over HTTP a body of exactly
// MaxMessageBytes is served and one byte more is refused with 413 and
// the sentence stdio answers with, whether the body says its length
// (Content-Length) or not (chunked).
func TestHTTPTakesABodyOfExactlyTheLimit(t *testing.T) {
	const limit = 4096
	srv := server.New(server.Options{MaxMessageBytes: limit})
	h := srv.HTTPHandler(server.HTTPOptions{})
	chunked := make(chan bool, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunked <- r.ContentLength < 0 && len(r.TransferEncoding) == 1 && r.TransferEncoding[0] == "chunked"
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	for _, withLength := range []bool{true, false} {
		for _, tc := range []struct {
			size   int
			status int
		}{
			{limit - 1, http.StatusOK},
			{limit, http.StatusOK},
			{limit + 1, http.StatusRequestEntityTooLarge},
			{limit + 1000, http.StatusRequestEntityTooLarge},
		} {
			body := sizedPing(t, 1, tc.size)
			var reader io.Reader = strings.NewReader(body)
			if !withLength {
				reader = struct{ io.Reader }{reader} // a length the client cannot know: sent chunked
			}
			req, err := http.NewRequest("POST", ts.URL, reader)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if c := <-chunked; c == withLength {
				t.Fatalf("Content-Length sent %v, yet the body came chunked %v", withLength, c)
			}
			want := `{"jsonrpc":"2.0","id":1,"result":{}}`
			if tc.status != http.StatusOK {
				want = tooLongError(limit)
			}
			if resp.StatusCode != tc.status || string(got) != want {
				t.Errorf("%d bytes, Content-Length sent %v: %d %.200s; want %d %s", tc.size, withLength, resp.StatusCode, got, tc.status, want)
			}
		}
	}
}
