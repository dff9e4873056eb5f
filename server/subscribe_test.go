package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeWatches is a WatchFunc whose changes a test makes: it records the
// watches running by URI, and change calls their functions. "missing" is
// not found, "broken" fails, "slow" sets its watch after its 100 ms
// timeout has passed.
type fakeWatches struct {
	mu      sync.Mutex
	running map[string]map[*func()]struct{}
	started int
}

func (f *fakeWatches) watch(ctx context.Context, _ *Call, uri string, vars map[string]string, changed func()) (func(), error) {
	switch vars["path"] {
	case "missing":
		return nil, ResourceNotFound(uri)
	case "broken":
		return nil, errors.New("this note cannot be watched; read it again")
	case "slow":
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond) // set after the call was answered
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running == nil {
		f.running = make(map[string]map[*func()]struct{})
	}
	if f.running[uri] == nil {
		f.running[uri] = make(map[*func()]struct{})
	}
	p := &changed
	f.running[uri][p] = struct{}{}
	f.started++
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.running[uri], p)
	}, nil
}

// change calls the function of every watch of uri n times.
func (f *fakeWatches) change(uri string, n int) {
	f.mu.Lock()
	var fns []func()
	for p := range f.running[uri] {
		fns = append(fns, *p)
	}
	f.mu.Unlock()
	for range n {
		for _, fn := range fns {
			fn()
		}
	}
}

// count returns how many watches of uri run ("" for all).
func (f *fakeWatches) count(uri string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for u, m := range f.running {
		if uri == "" || u == uri {
			n += len(m)
		}
	}
	return n
}

// waitCount waits until count(uri) is want.
func (f *fakeWatches) waitCount(t testing.TB, uri string, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for f.count(uri) != want {
		if time.Now().After(deadline) {
			t.Fatalf("%d watches of %q run, want %d", f.count(uri), uri, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// watchServer is resourceServer with its template watchable by a
// fakeWatches, and a fixed resource that is not.
func watchServer(t testing.TB, opts Options) (*Server, *fakeWatches) {
	t.Helper()
	opts.Logger = nopLogger()
	srv := New(opts)
	f := new(fakeWatches)
	read := func(_ context.Context, _ *Call, uri string, _ map[string]string) ([]ResourceContents, error) {
		return []ResourceContents{{URI: uri, Text: "x"}}, nil
	}
	if err := AddResource(srv, ResourceSpec{URI: "notes://index", Name: "index"}, read); err != nil {
		t.Fatal(err)
	}
	if err := AddResource(srv, ResourceSpec{URITemplate: "notes://n/{+path}", Name: "notes", Timeout: 100 * time.Millisecond, Watch: f.watch}, read); err != nil {
		t.Fatal(err)
	}
	return srv, f
}

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func TestASessionIsToldOfChangesToWhatItSubscribedTo(t *testing.T) {
	srv, f := watchServer(t, Options{UpdateDelay: 10 * time.Millisecond})
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if got := c.recv(); !strings.Contains(got, `"resources":{"subscribe":true}`) {
		t.Fatalf("initialize does not offer subscriptions: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tc := range []struct{ name, send, want string }{
		{"subscribe", `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"notes://n/a.md"}}`,
			`{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"again: nothing changes", `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"notes://n/a.md"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{}}`},
		{"a URI nothing serves", `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"file:///etc/passwd"}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Resource not found: file:///etc/passwd","data":{"uri":"file:///etc/passwd"}}}`},
		{"not found by the watch", `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"notes://n/missing"}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Resource not found: notes://n/missing","data":{"uri":"notes://n/missing"}}}`},
		{"the watch's own error", `{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":"notes://n/broken"}}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"this note cannot be watched; read it again"}}`},
		{"a resource that cannot be watched", `{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{"uri":"notes://index"}}`,
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: the resource notes://index cannot be watched; read it again to see a change","data":{"uri":"notes://index"}}}`},
		{"no uri", `{"jsonrpc":"2.0","id":7,"method":"resources/subscribe","params":{}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: resources/subscribe needs params with \"uri\", a string"}}`},
	} {
		c.send(tc.send)
		if got := c.recv(); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
	if n := f.count(""); n != 1 {
		t.Fatalf("%d watches run, want 1", n)
	}
	f.change("notes://n/a.md", 1)
	if got, want := c.recv(), `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"notes://n/a.md"}}`; got != want {
		t.Fatalf("after a change:\n got  %s\n want %s", got, want)
	}
	c.send(`{"jsonrpc":"2.0","id":8,"method":"resources/unsubscribe","params":{"uri":"notes://n/a.md"}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":8,"result":{}}` {
		t.Fatalf("unsubscribe: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","id":9,"method":"resources/unsubscribe","params":{"uri":"notes://n/a.md"}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":9,"result":{}}` {
		t.Fatalf("unsubscribe again: %s", got)
	}
	if n := f.count(""); n != 0 {
		t.Fatalf("%d watches run after unsubscribe", n)
	}
	c.quiet()
}

func TestChangesThatComeTogetherAreToldOnce(t *testing.T) {
	srv, f := watchServer(t, Options{UpdateDelay: 300 * time.Millisecond})
	c := serve(t, srv)
	c.initialize()
	for i, uri := range []string{"notes://n/a", "notes://n/b"} {
		c.send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"resources/subscribe","params":{"uri":"` + uri + `"}}`)
		if got := c.recv(); !strings.Contains(got, `"result":{}`) {
			t.Fatalf("subscribe %s: %s", uri, got)
		}
	}
	f.change("notes://n/a", 500)
	f.change("notes://n/b", 3)
	f.change("notes://n/a", 500)
	got := []string{c.recv(), c.recv()}
	for _, uri := range []string{"notes://n/a", "notes://n/b"} {
		n := 0
		for _, l := range got {
			if strings.Contains(l, `"uri":"`+uri+`"`) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s was told %d times in %q, want once", uri, n, got)
		}
	}
	c.quiet() // nothing more
	f.change("notes://n/b", 1)
	if got := c.recv(); !strings.Contains(got, `"uri":"notes://n/b"`) {
		t.Fatalf("a later change: %s", got)
	}
}

func TestAClientWatchesNoMoreThanTheBoundAllows(t *testing.T) {
	srv, f := watchServer(t, Options{MaxSubscriptions: 2})
	c := serve(t, srv)
	c.initialize()
	sub := func(id, uri string) string {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"resources/subscribe","params":{"uri":"` + uri + `"}}`)
		return c.recv()
	}
	for _, id := range []string{"1", "2"} {
		if got := sub(id, "notes://n/"+id); !strings.Contains(got, `"result":{}`) {
			t.Fatalf("subscription %s: %s", id, got)
		}
	}
	want := `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: this client watches 2 resources already, and 1 more would pass the most one client may watch (2, --max-subscriptions); end some subscriptions first (unsubscribe, or close a listen stream)"}}`
	if got := sub("3", "notes://n/3"); got != want {
		t.Fatalf("past the bound:\n got  %s\n want %s", got, want)
	}
	// Another client has a bound of its own.
	other := serve(t, srv)
	other.initialize()
	other.send(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"notes://n/3"}}`)
	if got := other.recv(); !strings.Contains(got, `"result":{}`) {
		t.Fatalf("another client: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","id":4,"method":"resources/unsubscribe","params":{"uri":"notes://n/1"}}`)
	c.recv()
	if got := sub("5", "notes://n/3"); !strings.Contains(got, `"result":{}`) {
		t.Fatalf("after an unsubscribe: %s", got)
	}
	if n := f.count(""); n != 3 {
		t.Fatalf("%d watches run, want 3", n)
	}
	// A session's end ends its watches and gives its places back.
	c.in.Close()
	f.waitCount(t, "notes://n/2", 0)
	other.in.Close()
	f.waitCount(t, "", 0)
	srv.subs.mu.Lock()
	defer srv.subs.mu.Unlock()
	if len(srv.subs.n) != 0 {
		t.Fatalf("places still held after every session ended: %v", srv.subs.n)
	}
}

func TestAWatchSetAfterItsCallTimedOutIsStopped(t *testing.T) {
	srv, f := watchServer(t, Options{})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"notes://n/slow"}}`)
	if got := c.recv(); !strings.Contains(got, `"code":-32603`) || !strings.Contains(got, "100ms") {
		t.Fatalf("a slow subscription: %s", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		f.mu.Lock()
		started := f.started
		f.mu.Unlock()
		if started == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slow watch never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.waitCount(t, "", 0)
	srv.subs.mu.Lock()
	defer srv.subs.mu.Unlock()
	if len(srv.subs.n) != 0 {
		t.Fatalf("places held by a subscription refused: %v", srv.subs.n)
	}
}

func TestAListenStreamOverStdioIsAcknowledgedToldAndCancelled(t *testing.T) {
	srv, f := watchServer(t, Options{UpdateDelay: 10 * time.Millisecond})
	c := serve(t, srv)
	listen := func(id, filter string) {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{` + modernMeta + `,"notifications":` + filter + `}}`)
	}
	listen(`"s1"`, `{"toolsListChanged":true,"resourceSubscriptions":["notes://n/a","notes://n/b","notes://n/a"]}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s1"},"notifications":{"resourceSubscriptions":["notes://n/a","notes://n/b"]}}}`; got != want {
		t.Fatalf("acknowledgment:\n got  %s\n want %s", got, want)
	}
	f.change("notes://n/b", 1)
	if got, want := c.recv(), `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s1"},"uri":"notes://n/b"}}`; got != want {
		t.Fatalf("a change:\n got  %s\n want %s", got, want)
	}
	listen(`"s1"`, `{}`)
	if got := c.recv(); !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, "subscription still open") {
		t.Fatalf("a second listen with the id of an open one: %s", got)
	}
	for _, tc := range []struct{ filter, want string }{
		{`{"resourceSubscriptions":["notes://n/missing"]}`, `"code":-32602,"message":"Resource not found: notes://n/missing"`},
		{`{"resourceSubscriptions":["notes://index"]}`, `cannot be watched`},
		{`{"resourceSubscriptions":"notes://n/a"}`, `"code":-32602,"message":"Invalid params: subscriptions/listen needs params`},
		{`[]`, `"code":-32602`},
	} {
		listen(`"bad"`, tc.filter)
		if got := c.recv(); !strings.Contains(got, tc.want) {
			t.Errorf("listen with %s: %s", tc.filter, got)
		}
	}
	listen(`7`, `{"promptsListChanged":true}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{}}}`; got != want {
		t.Fatalf("a listen for nothing served:\n got  %s\n want %s", got, want)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s1"}}`)
	f.waitCount(t, "", 0)
	c.send(`{"jsonrpc":"2.0","id":8,"method":"resources/subscribe","params":{"uri":"notes://n/a",` + modernMeta + `}}`)
	if got := c.recv(); !strings.Contains(got, `"code":-32601`) {
		t.Fatalf("resources/subscribe under 2026-07-28: %s", got)
	}
	// The session's end answers the streams still open.
	c.in.Close()
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":7,"io.modelcontextprotocol/serverInfo":{"name":"toolserver","title":"toolserver","version":"devel"}}}}`; got != want {
		t.Fatalf("at the end:\n got  %s\n want %s", got, want)
	}
}

// postListen posts one modern request to url and returns the response.
func postListen(t *testing.T, ctx context.Context, url, body, accept string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	var m struct{ Method string }
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Method", m.Method)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// nextData returns the data of the next SSE event of r.
func nextData(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended: %v", err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			return strings.TrimSuffix(d, "\n")
		}
	}
}

func TestAListenStreamOverHTTPIsToldUntilClosedOrEnded(t *testing.T) {
	srv, f := watchServer(t, Options{UpdateDelay: 10 * time.Millisecond, MaxSubscriptions: 3})
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{MaxConcurrent: 1}))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{` + modernMeta + `,"notifications":{"resourceSubscriptions":["notes://n/a"]}}}`

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postListen(t, ctx, ts.URL, body, "application/json, text/event-stream")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	r := bufio.NewReader(resp.Body)
	if got := nextData(t, r); !strings.Contains(got, `"method":"notifications/subscriptions/acknowledged"`) || !strings.Contains(got, `/subscriptionId":1}`) {
		t.Fatalf("acknowledgment: %s", got)
	}
	f.change("notes://n/a", 2)
	if got := nextData(t, r); got != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"uri":"notes://n/a"}}` {
		t.Fatalf("a change: %s", got)
	}
	// The stream holds none of the places of requests at once (one here).
	pingResp := postListen(t, context.Background(), ts.URL, `{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{`+modernMeta+`}}`, "application/json")
	if pingResp.StatusCode != 200 {
		t.Fatalf("a request beside an open stream: %d", pingResp.StatusCode)
	}
	pingResp.Body.Close()
	// Past the bound (3: the stream and its URI count two).
	// The place of the request before may come back just after its
	// client has the answer: a 503 here is that, and is tried again.
	var over *http.Response
	for try := 0; ; try++ {
		over = postListen(t, context.Background(), ts.URL, `{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{`+modernMeta+`,"notifications":{"resourceSubscriptions":["notes://n/b"]}}}`, "text/event-stream")
		if over.StatusCode != http.StatusServiceUnavailable || try == 50 {
			break
		}
		over.Body.Close()
		time.Sleep(10 * time.Millisecond)
	}
	buf := new(strings.Builder)
	_, _ = bufio.NewReader(over.Body).WriteTo(buf)
	over.Body.Close()
	if !strings.Contains(buf.String(), "--max-subscriptions") {
		t.Fatalf("past the bound: %d %s", over.StatusCode, buf)
	}
	// Closing the stream ends the subscription.
	cancel()
	resp.Body.Close()
	f.waitCount(t, "", 0)

	// Without an event stream accepted: 406.
	no := postListen(t, context.Background(), ts.URL, body, "application/json")
	no.Body.Close()
	if no.StatusCode != http.StatusNotAcceptable {
		t.Fatalf("JSON only: %d", no.StatusCode)
	}

	// The server ending it answers the request as the last event.
	resp = postListen(t, context.Background(), ts.URL, body, "text/event-stream")
	defer resp.Body.Close()
	r = bufio.NewReader(resp.Body)
	nextData(t, r)
	srv.CloseSubscriptions()
	if got := nextData(t, r); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":1,`) {
		t.Fatalf("the end: %s", got)
	}
	f.waitCount(t, "", 0)
}

func TestSubscriptionsAreOfferedWhereTheyCanBeServed(t *testing.T) {
	srv, _ := watchServer(t, Options{})
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	defer ts.Close()
	post := func(body, version string) string {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("MCP-Protocol-Version", version)
		if version == ModernVersion {
			req.Header.Set("Mcp-Method", "server/discover")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b := new(strings.Builder)
		_, _ = bufio.NewReader(resp.Body).WriteTo(b)
		return b.String()
	}
	// Stateless HTTP keeps no session: the legacy era's subscriptions
	// are not offered there, and refused with a sentence.
	if got := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, "2025-11-25"); strings.Contains(got, "subscribe") || !strings.Contains(got, `"resources":{}`) {
		t.Fatalf("initialize over HTTP: %s", got)
	}
	if got := post(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"notes://n/a"}}`, "2025-11-25"); !strings.Contains(got, `"code":-32601`) || !strings.Contains(got, "subscriptions/listen") {
		t.Fatalf("resources/subscribe over HTTP: %s", got)
	}
	// server/discover offers them, on either transport.
	if got := post(`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+modernMeta+`}}`, ModernVersion); !strings.Contains(got, `"resources":{"subscribe":true}`) {
		t.Fatalf("server/discover: %s", got)
	}
}

// TestAListenCancelledAtOnceLeavesNothingRunning: listens each cancelled
// as soon as sent, whichever moment the cancellation meets them in (the
// call in flight, its answer, the stream), leave no watch running and no
// place of the bound taken.
func TestAListenCancelledAtOnceLeavesNothingRunning(t *testing.T) {
	srv, f := watchServer(t, Options{UpdateDelay: time.Millisecond, MaxSubscriptions: 100000})
	c := serve(t, srv)
	go func() {
		for range c.lines {
		}
	}()
	for i := range 300 {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"L%d","method":"subscriptions/listen","params":{%s,"notifications":{"resourceSubscriptions":["notes://n/a"]}}}`, i, modernMeta))
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L%d",%s}}`, i, modernMeta))
	}
	f.waitCount(t, "", 0)
	waitHeld(t, srv, 0)
}

// TestTwoListensOfOneIDOpenOneStream: of two listens sent with one id,
// one opens and the other is refused, whatever the timing; once the
// session ends nothing is left running.
func TestTwoListensOfOneIDOpenOneStream(t *testing.T) {
	srv, f := watchServer(t, Options{UpdateDelay: time.Millisecond, MaxSubscriptions: 100000})
	c := serve(t, srv)
	acks := make(chan string, 1000)
	go func() {
		for l := range c.lines {
			if strings.Contains(l, "subscriptions/acknowledged") {
				acks <- l
			}
		}
		close(acks)
	}()
	for i := range 200 {
		for range 2 {
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"D%d","method":"subscriptions/listen","params":{%s,"notifications":{"resourceSubscriptions":["notes://n/a"]}}}`, i, modernMeta))
		}
	}
	f.waitCount(t, "notes://n/a", 200)
	c.in.Close()
	f.waitCount(t, "", 0)
	waitHeld(t, srv, 0)
	seen := map[string]int{}
	for l := range acks {
		seen[l]++
	}
	for l, n := range seen {
		if n != 1 {
			t.Fatalf("acknowledged %d times: %s", n, l)
		}
	}
	if len(seen) != 200 {
		t.Fatalf("%d listens acknowledged, want 200", len(seen))
	}
}

// waitHeld waits until the server's clients hold n places of the bound
// in all.
func waitHeld(t *testing.T, srv *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		srv.subs.mu.Lock()
		held := 0
		for _, h := range srv.subs.n {
			held += h
		}
		srv.subs.mu.Unlock()
		if held == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d places of the bound held, want %d", held, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
