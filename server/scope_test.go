package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/security"
)

type scopeIn struct {
	Path string `json:"path" chars:"path" description:"The target."`
	Tag  string `json:"tag,omitempty" description:"A tag."`
}

type scopeOut struct {
	Tag string `json:"tag" description:"The tag."`
}

// scopeServer serves over HTTP a server whose tools record how many calls
// run at once: solo (Exclusive), work (reads), and write (changes path,
// holding on until its tag is let go).
type scopeServer struct {
	ts       *httptest.Server
	running  atomic.Int32
	most     atomic.Int32 // the most calls seen running beside a solo call
	release  sync.Map     // tag → chan struct{}
	started  chan string
	stubborn chan struct{} // closed to let the stubborn tool return
}

func newScopeServer(t *testing.T, opts Options) *scopeServer {
	t.Helper()
	opts.Logger = nopLogger()
	srv := New(opts)
	ss := &scopeServer{started: make(chan string, 64), stubborn: make(chan struct{})}
	enter := func() func() {
		ss.running.Add(1)
		return func() { ss.running.Add(-1) }
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(AddTool(srv, ToolSpec{Name: "solo", Description: "Runs alone.", Exclusive: true},
		func(ctx context.Context, _ *Call, in scopeIn) (scopeOut, error) {
			defer enter()()
			for range 20 {
				if n := ss.running.Load(); n > ss.most.Load() {
					ss.most.Store(n)
				}
				time.Sleep(time.Millisecond)
			}
			return scopeOut{Tag: in.Tag}, nil
		}))
	must(AddTool(srv, ToolSpec{Name: "work", Description: "Reads."},
		func(ctx context.Context, _ *Call, in scopeIn) (scopeOut, error) {
			defer enter()()
			time.Sleep(2 * time.Millisecond)
			return scopeOut{Tag: in.Tag}, nil
		}))
	must(AddTool(srv, ToolSpec{Name: "write", Description: "Writes.", Level: security.Write, Targets: []string{"path"}},
		func(ctx context.Context, _ *Call, in scopeIn) (scopeOut, error) {
			ss.started <- in.Tag
			ch, _ := ss.release.LoadOrStore(in.Tag, make(chan struct{}))
			select {
			case <-ch.(chan struct{}):
			case <-ctx.Done():
				return scopeOut{}, ctx.Err()
			}
			return scopeOut{Tag: in.Tag}, nil
		}))
	must(AddTool(srv, ToolSpec{Name: "stubborn", Description: "Runs alone and ignores its context.", Exclusive: true, Timeout: 100 * time.Millisecond},
		func(ctx context.Context, _ *Call, in scopeIn) (scopeOut, error) {
			<-ss.stubborn // until the test lets it go, whatever its context says
			return scopeOut{Tag: in.Tag}, nil
		}))
	ss.ts = httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	t.Cleanup(ss.ts.Close)
	return ss
}

// next returns the tag of the next write to start.
func (ss *scopeServer) next(t *testing.T) string {
	t.Helper()
	select {
	case tag := <-ss.started:
		return tag
	case <-time.After(5 * time.Second):
		t.Fatal("no write started")
		return ""
	}
}

func (ss *scopeServer) let(tag string) {
	ch, _ := ss.release.LoadOrStore(tag, make(chan struct{}))
	close(ch.(chan struct{}))
}

func (ss *scopeServer) call(t *testing.T, tool, path, tag string) string {
	return post(t, ss.ts, "POST", fmt.Sprintf(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{"path":%q,"tag":%q}}}`, tool, path, tag), nil).body
}

func TestExclusiveHoldsAcrossHTTPRequests(t *testing.T) {
	ss := newScopeServer(t, Options{MaxRepeats: -1})
	var wg sync.WaitGroup
	for i := range 12 {
		tool := "work"
		if i%4 == 0 {
			tool = "solo"
		}
		wg.Go(func() {
			if body := ss.call(t, tool, "f", fmt.Sprint(i)); !strings.Contains(body, `"structuredContent"`) {
				t.Errorf("%s: %s", tool, body)
			}
		})
	}
	wg.Wait()
	if n := ss.most.Load(); n != 1 {
		t.Fatalf("a solo call ran beside %d others over HTTP", n-1)
	}
}

func TestChangesToOneTargetKeepTheirOrderAcrossHTTPRequests(t *testing.T) {
	ss := newScopeServer(t, Options{})
	done := make(chan string, 2)
	go func() { done <- ss.call(t, "write", "dir/f.txt", "A") }()
	if tag := ss.next(t); tag != "A" {
		t.Fatalf("started %s first", tag)
	}
	go func() { done <- ss.call(t, "write", "./dir/f.txt", "B") }()
	select {
	case tag := <-ss.started:
		t.Fatalf("%s started while A held the target", tag)
	case <-time.After(100 * time.Millisecond):
	}
	// Another target is not held up.
	go func() { done <- ss.call(t, "write", "dir/g.txt", "G") }()
	if tag := ss.next(t); tag != "G" {
		t.Fatalf("started %s, want G", tag)
	}
	ss.let("G")
	<-done
	ss.let("A")
	if tag := ss.next(t); tag != "B" {
		t.Fatalf("started %s, want B", tag)
	}
	ss.let("B")
	<-done
	<-done
}

func TestExclusiveIsHeldNoLongerThanItsCallsTime(t *testing.T) {
	ss := newScopeServer(t, Options{})
	out := make(chan string, 1)
	go func() { out <- ss.call(t, "stubborn", "f", "S") }()
	if body := <-out; !strings.Contains(body, "did not finish within 100ms") {
		t.Fatalf("stubborn: %s", body)
	}
	// The stubborn tool still runs, and still holds nothing: the next
	// call runs to its answer before the tool is let go.
	if body := ss.call(t, "work", "f", "W"); !strings.Contains(body, `"tag":"W"`) {
		t.Fatalf("work: %s", body)
	}
	close(ss.stubborn)
}

func TestSlotsAreSharedBySessionsAndHTTPRequests(t *testing.T) {
	srv := New(Options{MaxInFlight: 1, Logger: nopLogger()})
	hold := make(chan struct{})
	started := make(chan string, 4)
	if err := AddTool(srv, ToolSpec{Name: "hold", Description: "Holds its slot."},
		func(ctx context.Context, _ *Call, in scopeIn) (scopeOut, error) {
			started <- in.Tag
			if in.Tag == "stdio" {
				<-hold
			}
			return scopeOut{Tag: in.Tag}, nil
		}); err != nil {
		t.Fatal(err)
	}
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{"path":"x","tag":"stdio"}}}`)
	<-started
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	defer ts.Close()
	out := make(chan string, 1)
	go func() {
		out <- post(t, ts, "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{"path":"x","tag":"http"}}}`, nil).body
	}()
	select {
	case tag := <-started:
		t.Fatalf("%s ran while the only slot was taken", tag)
	case <-time.After(100 * time.Millisecond):
	}
	close(hold)
	if !strings.Contains(c.recv(), `"tag":"stdio"`) {
		t.Fatal("no answer on stdio")
	}
	if body := <-out; !strings.Contains(body, `"tag":"http"`) {
		t.Fatalf("http: %s", body)
	}
}

func TestLogLinesCopyABoundedPrefixOfWhatAClientSent(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	w := zerolog.SyncWriter(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}))
	srv := New(Options{Logger: zerolog.New(w).Level(zerolog.DebugLevel), MaxMessageBytes: 4 << 20})
	if err := AddTool(srv, ToolSpec{Name: "echo", Description: "Echoes."},
		func(_ context.Context, _ *Call, in httpEchoIn) (httpEchoOut, error) { return httpEchoOut(in), nil }); err != nil {
		t.Fatal(err)
	}
	var args strings.Builder
	args.WriteString(`{"text":"x"`)
	for i := range 100_000 {
		fmt.Fprintf(&args, `,"k%d":%d`, i, i)
	}
	args.WriteString("}")
	long := strings.Repeat("m", 100_000)
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"` + long + `","version":"1"}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","id":"` + long + `","method":"tools/call","params":{"name":"echo","arguments":` + args.String() + `}}`)
	if r := c.recvWithin(2 * time.Minute); !strings.Contains(r, `"isError":true`) {
		t.Fatalf("want a refusal, got %.200s", r)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"` + long + `"}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"` + long + `","reason":"` + long + `"}}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	c.recv()
	mu.Lock()
	defer mu.Unlock()
	if logs.Len() == 0 {
		t.Fatal("nothing was logged")
	}
	for line := range strings.Lines(logs.String()) {
		if len(line) > 8<<10 {
			t.Errorf("a log line of %d bytes: %.300s…", len(line), line)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestPrincipalsPastMaxPrincipalsShareOne(t *testing.T) {
	var p principals
	opts := &Options{}
	first := p.get("client 0", opts)
	for i := 1; i < maxPrincipals; i++ {
		p.get(fmt.Sprintf("client %d", i), opts)
	}
	if p.get("client 0", opts) != first {
		t.Fatal("a principal met before was not remembered")
	}
	late, later := p.get("late 1", opts), p.get("late 2", opts)
	if late != later || late == first {
		t.Fatal("the clients past the first maxPrincipals do not share one principal of their own")
	}
	if len(p.m) != maxPrincipals+1 {
		t.Fatalf("%d principals remembered, want maxPrincipals and the shared one", len(p.m))
	}
}

func TestATimedOutCallEndsItsStreamedHTTPReply(t *testing.T) {
	srv := New(Options{Logger: nopLogger()})
	stuck := make(chan struct{})
	t.Cleanup(func() { close(stuck) })
	if err := AddTool(srv, ToolSpec{Name: "stuck", Description: "Reports progress, then ignores its context.", Timeout: 100 * time.Millisecond},
		func(ctx context.Context, c *Call, in scopeIn) (scopeOut, error) {
			c.Progress(1, 2, "started")
			<-stuck
			return scopeOut{}, nil
		}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	defer ts.Close()
	// The progress notification turns the reply into an SSE stream; the
	// timeout's answer must end it, though the tool still runs.
	body := make(chan string, 1)
	go func() {
		body <- post(t, ts, "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stuck","arguments":{"path":"x"},"_meta":{"progressToken":"p"}}}`, nil).body
	}()
	select {
	case b := <-body:
		if !strings.Contains(b, "event: message") || !strings.Contains(b, "did not finish within 100ms") {
			t.Fatalf("body: %s", b)
		}
	case <-time.After(time.Minute):
		t.Fatal("the reply was not ended a minute after the call's 100ms ran out")
	}
}
