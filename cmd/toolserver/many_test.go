package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// This file runs several toolserver processes on one root behind a load
// balancer, as users who outgrow one process do (docs/http.md, "Running many").
// A request of MCP 2026-07-28 carries everything it needs, so any process
// may serve it; what each process keeps to itself is said where it shows.

// backendHeader names, in the proxy's responses, the backend that served
// the request, so the test can see where each round landed.
const backendHeader = "X-Test-Backend"

// httpBackend is one toolserver --http process.
type httpBackend struct {
	cmd    *exec.Cmd
	base   *url.URL // http://127.0.0.1:PORT
	stderr *lockedWriter
}

// startHTTPBackend starts the binary with --http 127.0.0.1:0 and args and
// waits for the URL it logs. The process is killed when the test ends.
func startHTTPBackend(t *testing.T, args ...string) *httpBackend {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(waited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			t.Errorf("toolserver %d did not exit after kill", cmd.Process.Pid)
		}
	})
	b := &httpBackend{cmd: cmd, stderr: &lockedWriter{b: &strings.Builder{}}}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		sent := false
		for sc.Scan() {
			_, _ = b.stderr.Write(append(sc.Bytes(), '\n'))
			var line struct{ URL string }
			if !sent && json.Unmarshal(sc.Bytes(), &line) == nil && line.URL != "" {
				urls <- line.URL
				sent = true
			}
		}
	}()
	select {
	case raw := <-urls:
		u, err := url.Parse(raw)
		if err != nil || u.Path != "/mcp" {
			t.Fatalf("logged url %q: %v", raw, err)
		}
		b.base = &url.URL{Scheme: u.Scheme, Host: u.Host}
	case <-time.After(15 * time.Second):
		t.Fatalf("toolserver did not log its URL; stderr:\n%s", b.stderr)
	}
	return b
}

// modernMeta is the _meta of every request of the test: MCP 2026-07-28,
// with elicitation, so that --confirm-writes asks through input_required.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

// rpcResponse is what the test reads of a response.
type rpcResponse struct {
	ID     json.RawMessage
	Result struct {
		ResultType        string
		Tools             json.RawMessage
		NextCursor        string
		Content           []struct{ Type, Text string }
		StructuredContent json.RawMessage
		IsError           bool
		RequestState      string
		InputRequests     map[string]struct {
			Method string
			Params struct{ Message string }
		}
	}
	Error *struct {
		Code    int
		Message string
	}
}

// reply is one HTTP exchange: its status, the backend that served it (by
// the proxy's header; empty when sent to a backend directly), the body
// and the body decoded.
type reply struct {
	status  int
	backend string
	body    []byte
	rpc     rpcResponse
}

// mcpClient posts modern requests to one endpoint.
type mcpClient struct {
	ctx    context.Context
	client *http.Client
}

// post sends a request of MCP 2026-07-28 with the headers its body calls
// for. params are the members of params besides _meta; tool is the tool
// of a tools/call ("" otherwise).
func (c *mcpClient) post(endpoint string, id int, method, tool, params string) (*reply, error) {
	if params != "" {
		params += ","
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s}}`, id, method, params, modernMeta)
	req, err := http.NewRequestWithContext(c.ctx, "POST", endpoint, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if tool != "" {
		req.Header.Set("Mcp-Name", tool)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("id %d: status %d, %d bytes of the body read: %w", id, resp.StatusCode, len(b), err)
	}
	r := &reply{status: resp.StatusCode, backend: resp.Header.Get(backendHeader), body: b}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return r, fmt.Errorf("id %d: Content-Type %q: %s", id, ct, b)
	}
	if err := json.Unmarshal(b, &r.rpc); err != nil {
		return r, fmt.Errorf("id %d: %v: %s", id, err, b)
	}
	if string(r.rpc.ID) != strconv.Itoa(id) {
		return r, fmt.Errorf("sent id %d, answered id %s: %s", id, r.rpc.ID, b)
	}
	return r, nil
}

// writeParams are the params of a write_file call, with the answer and
// the state of a second round when state is not empty.
func writeParams(path, content, state string) string {
	p := fmt.Sprintf(`"name":"write_file","arguments":{"path":%q,"content":%q}`, path, content)
	if state != "" {
		p += fmt.Sprintf(`,"inputResponses":{"confirm":{"action":"accept"}},"requestState":%q`, state)
	}
	return p
}

// TestManyProcessesBehindARoundRobinProxy serves one root from three
// processes sharing one --state-key-file, behind a reverse proxy that
// sends each request to the next process, and speaks MCP 2026-07-28 to
// them in raw POSTs: tools/list, a confirmed write whose rounds land on
// different processes, and 200 concurrent mixed calls, twenty of them
// edits of one file.
func TestManyProcessesBehindARoundRobinProxy(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// One root (a copy of the playground) and one state key for all.
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(playground(t))); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 48)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "state-key")
	nonceDir := t.TempDir() // shared by the processes, outside the root
	if err := os.WriteFile(keyFile, []byte(base64.StdEncoding.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 3
	backends := make([]*httpBackend, n)
	for i := range backends {
		// Without the loop guard: the 200 concurrent calls below repeat
		// a few calls forty times each, and one process may well take
		// five of one of them in a row, which the guard would refuse.
		backends[i] = startHTTPBackend(t, "--root", root, "--confirm-writes", "--state-key-file", keyFile, "--nonce-dir", nonceDir,
			"--max-repeats", "-1")
	}

	// The load balancer: round robin, each request to the next process.
	// SetURL also makes the outgoing Host the backend's, which its Host
	// allow-list (against DNS rebinding) accepts.
	upstream := &http.Transport{MaxIdleConnsPerHost: 100}
	defer upstream.CloseIdleConnections()
	var next atomic.Uint64
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			i := (next.Add(1) - 1) % n
			// The request body is buffered, as proxies in front of
			// servers usually do. Streamed, it breaks answers: Go's
			// HTTP/1 server closes the inbound body when the backend's
			// answer starts to flow back, the transport's last read of
			// that body then fails, and it cuts the backend's answer
			// off (golang/go#40747; seen here as about one run in ten
			// under -race ending in "unexpected EOF").
			body, _ := io.ReadAll(pr.In.Body)
			pr.Out.Body = io.NopCloser(bytes.NewReader(body))
			pr.Out.ContentLength = int64(len(body))
			pr.SetURL(backends[i].base)
			pr.Out.Header.Set(backendHeader, strconv.Itoa(int(i)))
		},
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Set(backendHeader, resp.Request.Header.Get(backendHeader))
			return nil
		},
		Transport: upstream,
	}
	front := httptest.NewServer(proxy)
	defer front.Close()
	endpoint := front.URL + "/mcp"
	direct := func(i int) string { return backends[i].base.String() + "/mcp" }
	clientTransport := &http.Transport{MaxIdleConnsPerHost: 256}
	defer clientTransport.CloseIdleConnections()
	c := &mcpClient{ctx: ctx, client: &http.Client{Transport: clientTransport, Timeout: 30 * time.Second}}
	var ids atomic.Int64
	id := func() int { return int(ids.Add(1)) }
	// mustFor returns a check, for the (sub)test t, that an exchange
	// went through and was answered 200.
	mustFor := func(t *testing.T) func(*reply, error) *reply {
		return func(r *reply, err error) *reply {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			return r
		}
	}
	defer func() {
		if t.Failed() {
			for i, b := range backends {
				t.Logf("stderr of backend %d:\n%s", i, b.stderr)
			}
		}
	}()

	t.Run("tools/list is the same on every process", func(t *testing.T) {
		must := mustFor(t)
		// 14 tools fit in one page (the page size is 100, and no flag
		// changes it), so no process issues a cursor. Three requests in a
		// row land on the three processes; their lists must be identical.
		var lists [n]json.RawMessage
		seen := map[string]bool{}
		for range n {
			r := must(c.post(endpoint, id(), "tools/list", "", ""))
			if r.rpc.Result.ResultType != "complete" || r.rpc.Result.NextCursor != "" || len(r.rpc.Result.Tools) == 0 {
				t.Fatalf("tools/list from backend %s: %.300s", r.backend, r.body)
			}
			i, _ := strconv.Atoi(r.backend)
			seen[r.backend] = true
			lists[i] = r.rpc.Result.Tools
		}
		if len(seen) != n {
			t.Fatalf("three requests in a row reached backends %v, not all three", seen)
		}
		var all []json.RawMessage
		if err := json.Unmarshal(lists[0], &all); err != nil || len(all) < 2 {
			t.Fatalf("tools: %v %.200s", err, lists[0])
		}
		for i := 1; i < n; i++ {
			if !bytes.Equal(lists[i], lists[0]) {
				t.Fatalf("backend %d lists other tools than backend 0:\n%.300s\n%.300s", i, lists[i], lists[0])
			}
		}
		// A cursor holds its offset and nothing of the process that made
		// it, so one built as a server builds them (base64url of
		// "tools:OFFSET") pages the same on every process.
		cursor := base64.RawURLEncoding.EncodeToString([]byte("tools:" + strconv.Itoa(len(all)-2)))
		var tails [n]json.RawMessage
		for range n {
			r := must(c.post(endpoint, id(), "tools/list", "", fmt.Sprintf(`"cursor":%q`, cursor)))
			i, _ := strconv.Atoi(r.backend)
			tails[i] = r.rpc.Result.Tools
		}
		want, _ := json.Marshal(all[len(all)-2:])
		for i, tail := range tails {
			var got []json.RawMessage
			if err := json.Unmarshal(tail, &got); err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			if !bytes.Equal(g, want) {
				t.Fatalf("backend %d, page after the cursor: %s, want %s", i, g, want)
			}
		}
	})

	t.Run("a confirmed write whose rounds land on different processes", func(t *testing.T) {
		must := mustFor(t)
		const path, content = "confirmed.txt", "written by many"
		// Round 1: the call, without an answer. The process asks, with a
		// requestState sealed under the shared key.
		r1 := must(c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, content, "")))
		state := r1.rpc.Result.RequestState
		if r1.rpc.Result.ResultType != "input_required" || r1.rpc.Result.InputRequests["confirm"].Method != "elicitation/create" || !strings.HasPrefix(state, "v1.") {
			t.Fatalf("round 1: %s", r1.body)
		}
		if _, err := os.Stat(filepath.Join(root, path)); !os.IsNotExist(err) {
			t.Fatalf("written before the user answered: %v", err)
		}
		// Round 2: a new id, the same call, the answer and the state
		// echoed: the next process opens the state with the same key.
		r2 := must(c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, content, state)))
		if r2.backend == r1.backend {
			t.Fatalf("both rounds landed on backend %s", r1.backend)
		}
		if r2.rpc.Result.ResultType != "complete" || r2.rpc.Result.IsError {
			t.Fatalf("round 2 on backend %s (round 1 on %s): %s", r2.backend, r1.backend, r2.body)
		}
		if b, err := os.ReadFile(filepath.Join(root, path)); err != nil || string(b) != content {
			t.Fatalf("after round 2: %q %v", b, err)
		}
		// The same state sent to the third process: the file exists now,
		// so the change would be another (an overwrite, not the create
		// the user was asked about), and the process asks again rather
		// than writing.
		r3 := must(c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, content, state)))
		if r3.backend == r1.backend || r3.backend == r2.backend {
			t.Fatalf("rounds on backends %s, %s, %s", r1.backend, r2.backend, r3.backend)
		}
		if r3.rpc.Result.ResultType != "input_required" || !strings.Contains(r3.rpc.Result.InputRequests["confirm"].Params.Message, "Overwrite") {
			t.Fatalf("the create's state replayed on a third process, after the create: %s", r3.body)
		}

		// The nonce of a state is accepted once by all the processes: they
		// share --nonce-dir. An overwrite with as many bytes as before
		// leaves the change the user approved the same after it is made,
		// so its state could be replayed: every process refuses it.
		const same = "WRITTEN BY MANY"
		r1 = must(c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, same, "")))
		state = r1.rpc.Result.RequestState
		if r1.rpc.Result.ResultType != "input_required" || state == "" {
			t.Fatalf("overwrite, round 1: %s", r1.body)
		}
		r2 = must(c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, same, state)))
		if r2.backend == r1.backend || r2.rpc.Result.ResultType != "complete" || r2.rpc.Result.IsError {
			t.Fatalf("overwrite, round 2 on backend %s (round 1 on %s): %s", r2.backend, r1.backend, r2.body)
		}
		spent, _ := strconv.Atoi(r2.backend)
		other := (spent + 1) % n
		replay, err := c.post(direct(spent), id(), "tools/call", "write_file", writeParams(path, same, state))
		if err != nil {
			t.Fatal(err)
		}
		if replay.status != http.StatusBadRequest || replay.rpc.Error == nil || replay.rpc.Error.Code != -32602 || !strings.Contains(replay.rpc.Error.Message, "used already") {
			t.Fatalf("replay on the process that spent the state: %d %s", replay.status, replay.body)
		}
		replay, err = c.post(direct(other), id(), "tools/call", "write_file", writeParams(path, same, state))
		if err != nil || replay.rpc.Error == nil || !strings.Contains(replay.rpc.Error.Message, "used already") {
			t.Fatalf("replay on another process: want it refused (the nonces are shared), got %v %s", err, replay.body)
		}
		if b, err := os.ReadFile(filepath.Join(root, path)); err != nil || string(b) != same {
			t.Fatalf("after the overwrite: %q %v", b, err)
		}
	})

	t.Run("200 concurrent mixed calls, none lost", func(t *testing.T) {
		todo, err := os.ReadFile(filepath.Join(root, "notes", "todo.txt"))
		if err != nil {
			t.Fatal(err)
		}
		const calls = 200
		// One file that the edits among the calls change, each its own line.
		var shared strings.Builder
		for k := 8; k < calls; k += 10 {
			fmt.Fprintf(&shared, "line %03d: old\n", k)
		}
		if err := os.WriteFile(filepath.Join(root, "shared.txt"), []byte(shared.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			failures []string
			answered atomic.Int32
			perBack  [n]atomic.Int32
		)
		fail := func(format string, a ...any) {
			mu.Lock()
			failures = append(failures, fmt.Sprintf(format, a...))
			mu.Unlock()
		}
		// got checks the HTTP side of a reply and counts where it landed.
		got := func(k int, r *reply, err error) bool {
			if err != nil {
				fail("call %d: %v", k, err)
				return false
			}
			if r.status != http.StatusOK {
				fail("call %d: status %d: %s", k, r.status, r.body)
				return false
			}
			if i, err := strconv.Atoi(r.backend); err == nil && i < n {
				perBack[i].Add(1)
			}
			return true
		}
		text := func(r *reply) string {
			if len(r.rpc.Result.Content) == 0 {
				return ""
			}
			return r.rpc.Result.Content[0].Text
		}
		for k := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch k % 10 {
				case 0, 1, 2, 3, 4:
					r, err := c.post(endpoint, id(), "tools/call", "calc", fmt.Sprintf(`"name":"calc","arguments":{"expr":"%d*7+1"}`, k))
					if !got(k, r, err) {
						return
					}
					want := fmt.Sprintf(`{"value":"%d","exact":true}`, k*7+1)
					if r.rpc.Result.ResultType != "complete" || r.rpc.Result.IsError || string(r.rpc.Result.StructuredContent) != want {
						fail("calc %d: %s", k, r.body)
						return
					}
				case 5, 6:
					r, err := c.post(endpoint, id(), "tools/call", "read_file", `"name":"read_file","arguments":{"path":"notes/todo.txt"}`)
					if !got(k, r, err) {
						return
					}
					if r.rpc.Result.IsError || text(r) != string(todo) {
						fail("read_file %d: %s", k, r.body)
						return
					}
				case 8:
					// An edit of its own line of the shared file: two rounds,
					// each wherever the proxy sends it, while the other edits
					// of the file land on other processes.
					params := fmt.Sprintf(`"name":"edit_file","arguments":{"path":"shared.txt","edits":[{"old_text":"line %03d: old","new_text":"line %03d: new"}]}`, k, k)
					r, err := c.post(endpoint, id(), "tools/call", "edit_file", params)
					if !got(k, r, err) {
						return
					}
					if r.rpc.Result.ResultType != "input_required" || r.rpc.Result.RequestState == "" {
						fail("edit %d, round 1: %s", k, r.body)
						return
					}
					params += fmt.Sprintf(`,"inputResponses":{"confirm":{"action":"accept"}},"requestState":%q`, r.rpc.Result.RequestState)
					r, err = c.post(endpoint, id(), "tools/call", "edit_file", params)
					if !got(k, r, err) {
						return
					}
					if r.rpc.Result.ResultType != "complete" || r.rpc.Result.IsError {
						fail("edit %d, round 2: %s", k, r.body)
						return
					}
				case 7:
					r, err := c.post(endpoint, id(), "tools/call", "list_directory", `"name":"list_directory","arguments":{"path":"notes"}`)
					if !got(k, r, err) {
						return
					}
					if s := text(r); r.rpc.Result.IsError || !strings.Contains(s, "poem.txt") || !strings.Contains(s, "todo.txt") {
						fail("list_directory %d: %s", k, r.body)
						return
					}
				case 9:
					// A write: two rounds, each wherever the proxy sends it.
					path, content := fmt.Sprintf("many-%03d.txt", k), fmt.Sprintf("call %d\n", k)
					r, err := c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, content, ""))
					if !got(k, r, err) {
						return
					}
					if r.rpc.Result.ResultType != "input_required" || r.rpc.Result.RequestState == "" {
						fail("write %d, round 1: %s", k, r.body)
						return
					}
					r, err = c.post(endpoint, id(), "tools/call", "write_file", writeParams(path, content, r.rpc.Result.RequestState))
					if !got(k, r, err) {
						return
					}
					if r.rpc.Result.ResultType != "complete" || r.rpc.Result.IsError {
						fail("write %d, round 2: %s", k, r.body)
						return
					}
				}
				answered.Add(1)
			}()
		}
		wg.Wait()
		if len(failures) > 0 {
			t.Fatalf("%d of %d calls failed; the first: %s", len(failures), calls, strings.Join(failures[:min(5, len(failures))], "\n"))
		}
		if answered.Load() != calls {
			t.Fatalf("%d of %d calls answered", answered.Load(), calls)
		}
		for i := range perBack {
			// 240 requests (each write and edit is two) in round robin: a
			// third each.
			if got := perBack[i].Load(); got < 60 {
				t.Errorf("backend %d served %d requests of 240", i, got)
			}
		}
		if b, err := os.ReadFile(filepath.Join(root, "shared.txt")); err != nil || strings.Contains(string(b), "old") ||
			strings.Count(string(b), ": new\n") != calls/10 {
			t.Errorf("shared.txt after %d acknowledged edits of its lines: %q %v", calls/10, b, err)
		}
		for k := 9; k < calls; k += 10 {
			path, content := fmt.Sprintf("many-%03d.txt", k), fmt.Sprintf("call %d\n", k)
			if b, err := os.ReadFile(filepath.Join(root, path)); err != nil || string(b) != content {
				t.Errorf("%s: %q %v", path, b, err)
			}
		}
	})
}
