package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawPost opens a connection to ts and writes head (a request line and
// headers, without the blank line) and then the first part of a body.
func rawPost(t *testing.T, ts *httptest.Server, head, body string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+"\r\n\r\n"+body); err != nil {
		t.Fatal(err)
	}
	return conn
}

// readReply reads one HTTP response from conn, within d.
func readReply(t *testing.T, conn net.Conn, d time.Duration) (*http.Response, string) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(d))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response within %v: %v", d, err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("response body: %v", err)
	}
	// The connection is closed after it: the next read finds its end,
	// where an open connection would run into the deadline.
	if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Fatalf("the connection stayed open after the response (read %d, %v)", n, err)
	}
	return resp, string(b)
}

func TestHTTPBodyThatStallsIsAnswered400AndItsConnectionClosed(t *testing.T) {
	cases := []struct{ name, head, body string }{
		{"with a length", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100", `{"jsonrpc":"2.0",`},
		{"chunked", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", "5\r\n{\"jso\r\n"},
		{"nothing of it", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts, _ := httpTestServer(t, Options{}, HTTPOptions{BodyTimeout: 300 * time.Millisecond})
			conn := rawPost(t, ts, tc.head, tc.body)
			resp, body := readReply(t, conn, 3*time.Second)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "did not arrive within 300ms") {
				t.Fatalf("got %d %q", resp.StatusCode, body)
			}
		})
	}
}

func TestHTTPSlowClientsHoldNoPlaceAGoodRequestNeeds(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{MaxConcurrent: 4, BodyTimeout: 10 * time.Second})
	// Far more slow clients than places, each with most of a body sent.
	var conns []net.Conn
	for range 40 {
		conns = append(conns, rawPost(t, ts,
			"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000", `{"jsonrpc":"2.0","id":1,`))
	}
	time.Sleep(50 * time.Millisecond) // they are all being read
	// As many good requests at once as there are places: any 503 means
	// a slow client held a place (more good requests than places may
	// rightly be turned away, whenever they happen to overlap).
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			r := post(t, ts, "POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi_%d"}}}`, i, i), nil)
			if r.status != http.StatusOK || !strings.Contains(r.body, fmt.Sprintf(`"text":"hi_%d"`, i)) {
				t.Errorf("a good request while slow clients wait: %d %q", r.status, r.body)
			}
		})
	}
	wg.Wait()
	for _, c := range conns {
		c.Close()
	}
}

func TestHTTPRequestWithTransferEncodingClosesItsConnection(t *testing.T) {
	ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
	msg := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	// A length beside the coding (RFC 9112 §6.1): net/http drops the
	// length before the handler sees it, so the connection is closed
	// after any request with a transfer coding.
	conn := rawPost(t, ts, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 3\r\nTransfer-Encoding: chunked",
		fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(msg), msg))
	resp, body := readReply(t, conn, 3*time.Second)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"result":{}`) || !resp.Close {
		t.Fatalf("got %d %q, close %v", resp.StatusCode, body, resp.Close)
	}
}

func TestHTTPConnectionIsClosedAfterARequestOnlyWhenItHasATransferCoding(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	cases := []struct {
		name, head, body string
		wantClose        bool
	}{
		{"with a length", fmt.Sprintf("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d", len(msg)), msg, false},
		{"chunked", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked",
			fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(msg), msg), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts, _ := httpTestServer(t, Options{}, HTTPOptions{})
			conn := rawPost(t, ts, tc.head, tc.body)
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			br := bufio.NewReader(conn)
			for i := range 2 {
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("response %d: %v", i+1, err)
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"result":{}`) {
					t.Fatalf("response %d: %d %q %v", i+1, resp.StatusCode, b, err)
				}
				if resp.Close != tc.wantClose {
					t.Fatalf("response %d: close %v, want %v", i+1, resp.Close, tc.wantClose)
				}
				if tc.wantClose {
					return
				}
				// The connection stays open for the next request.
				if _, err := io.WriteString(conn, tc.head+"\r\n\r\n"+tc.body); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
