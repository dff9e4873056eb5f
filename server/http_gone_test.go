package server

import (
	"bufio"
	"io"
	"net"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHTTPClientGoneMidAnswer: a client that leaves while a large answer
// is written to it in pieces, as JSON or as the SSE event after progress,
// leaves nothing behind (the call, its handler and the write end) and the
// server answers the next request.
func TestHTTPClientGoneMidAnswer(t *testing.T) {
	srv := New(Options{Logger: nopLogger(), MaxRepeats: -1})
	largeTool(t, srv)
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	t.Cleanup(ts.Close)
	before := runtime.NumGoroutine()
	for _, accept := range []string{"application/json", "application/json, text/event-stream"} {
		for i := 0; i < 5; i++ {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			body := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"large","arguments":{"text":"abc\"\n","n":2000000},"_meta":{"progressToken":"p"}}}`
			_, _ = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: "+ts.Listener.Addr().String()+"\r\nContent-Type: application/json\r\nAccept: "+accept+"\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
			r := bufio.NewReader(conn)
			buf := make([]byte, 300)
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			n, _ := io.ReadFull(r, buf)
			if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 200 OK\r\n") {
				t.Fatalf("%s: %q", accept, buf[:n])
			}
			conn.Close() // 300 bytes into an answer of 14 MB
		}
	}
	r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"small","arguments":{"a":1}}}`, map[string]string{"Accept": "application/json"})
	if r.status != 200 || !strings.Contains(r.body, `"id":6`) {
		t.Fatalf("after: %d %s", r.status, r.body)
	}
	ts.Client().CloseIdleConnections()
	waitForGoroutines(t, before)
}
