package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file holds toolserver to its promise about writes: a change
// answered as done is in the file, however many clients write one file
// at once, over stdio or HTTP, through one process or several.

// lineFile writes n lines "line i: old" to dir/name and returns its path.
func lineFile(t *testing.T, dir, name string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d: old\n", i)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// editArgs are the arguments of the edit of line i of lineFile.
func editArgs(name string, i int) string {
	return fmt.Sprintf(`{"path":%q,"edits":[{"old_text":"line %d: old\n","new_text":"line %d: new\n"}]}`, name, i, i)
}

// callBody is a legacy tools/call, which a stateless HTTP endpoint
// serves without a handshake.
func callBody(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// toolReply is what the tests read of a tools/call response.
type toolReply struct {
	ID     int
	Result struct {
		IsError           bool
		Content           []struct{ Text string }
		StructuredContent json.RawMessage
	}
	Error *struct{ Message string }
}

func (r toolReply) text() string {
	var b strings.Builder
	for _, c := range r.Result.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// postCall posts a legacy tools/call to endpoint and decodes its answer.
func postCall(ctx context.Context, client *http.Client, endpoint string, id int, tool, args string) (toolReply, error) {
	var r toolReply
	req, err := http.NewRequestWithContext(ctx, "POST", endpoint, strings.NewReader(callBody(id, tool, args)))
	if err != nil {
		return r, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return r, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return r, fmt.Errorf("id %d: status %d: %w", id, resp.StatusCode, err)
	}
	return r, nil
}

// checkLines checks that every line i < n of the file at p says new.
func checkLines(t *testing.T, p string, n int) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var lost []int
	for i := range n {
		if !strings.Contains(string(b), fmt.Sprintf("line %d: new\n", i)) {
			lost = append(lost, i)
		}
	}
	if len(lost) > 0 {
		t.Fatalf("%d of %d acknowledged edits are not in the file: lines %v", len(lost), n, lost)
	}
}

// backends starts n toolserver --http processes on root, sharing one
// lock directory, and returns their endpoints.
func backends(t *testing.T, n int, root string, args ...string) []string {
	t.Helper()
	locks := t.TempDir()
	var eps []string
	for range n {
		b := startHTTPBackend(t, append([]string{"--root", root, "--lock-dir", locks, "--max-repeats", "-1"}, args...)...)
		eps = append(eps, b.base.String()+"/mcp")
	}
	return eps
}

// hammer calls tool with args(i) for i < n, all at once, spread over the
// endpoints in turn, and fails the test on any answer that is not a
// success.
func hammer(t *testing.T, eps []string, n int, tool string, args func(i int) string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := postCall(ctx, client, eps[i%len(eps)], i+1, tool, args(i))
			switch {
			case err != nil:
				t.Errorf("call %d: %v", i, err)
			case r.Error != nil || r.Result.IsError:
				t.Errorf("call %d refused: %+v %s", i, r.Error, r.text())
			}
		})
	}
	wg.Wait()
}

func TestConcurrentEditsOfOneFileAllLand(t *testing.T) {
	for _, n := range []int{10, 40, 100} {
		t.Run(fmt.Sprintf("%d over HTTP to one process", n), func(t *testing.T) {
			root := t.TempDir()
			p := lineFile(t, root, "f.txt", n)
			hammer(t, backends(t, 1, root), n, "edit_file", func(i int) string { return editArgs("f.txt", i) })
			checkLines(t, p, n)
		})
		t.Run(fmt.Sprintf("%d over HTTP to three processes", n), func(t *testing.T) {
			root := t.TempDir()
			p := lineFile(t, root, "f.txt", n)
			hammer(t, backends(t, 3, root), n, "edit_file", func(i int) string { return editArgs("f.txt", i) })
			checkLines(t, p, n)
		})
		t.Run(fmt.Sprintf("%d pipelined over stdio", n), func(t *testing.T) {
			root := t.TempDir()
			p := lineFile(t, root, "f.txt", n)
			proc := startInitialized(t, []string{"--root", root, "--max-repeats", "-1", "--lock-dir", t.TempDir()})
			for i := range n {
				proc.send(callBody(i+1, "edit_file", editArgs("f.txt", i)))
			}
			for range n {
				var r toolReply
				line := proc.recv()
				if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error != nil || r.Result.IsError {
					t.Fatalf("refused: %s", line)
				}
			}
			checkLines(t, p, n)
		})
	}
}

func TestConcurrentAppendsToOneFileAllLandWhole(t *testing.T) {
	for _, n := range []int{10, 100} {
		t.Run(fmt.Sprintf("%d over HTTP to three processes", n), func(t *testing.T) {
			root := t.TempDir()
			entry := func(i int) string { return fmt.Sprintf("entry %03d %s\n", i, strings.Repeat("x", 200)) }
			hammer(t, backends(t, 3, root), n, "append_file", func(i int) string {
				return fmt.Sprintf(`{"path":"log.txt","content":%q}`, entry(i))
			})
			b, err := os.ReadFile(filepath.Join(root, "log.txt"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(b), "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			seen := map[string]bool{}
			for _, l := range lines {
				seen[l] = true
			}
			if len(lines) != n || len(seen) != n {
				t.Fatalf("%d lines, %d distinct, want %d", len(lines), len(seen), n)
			}
			for i := range n {
				if !seen[entry(i)] {
					t.Fatalf("entry %d is missing or torn", i)
				}
			}
		})
	}
}

// readVersion reads the file at path through endpoint and returns its
// text and version.
func readVersion(ctx context.Context, client *http.Client, endpoint string, id int, path string) (string, string, error) {
	r, err := postCall(ctx, client, endpoint, id, "read_file", fmt.Sprintf(`{"path":%q}`, path))
	if err != nil {
		return "", "", err
	}
	var sc struct{ Version string }
	if r.Error != nil || r.Result.IsError || json.Unmarshal(r.Result.StructuredContent, &sc) != nil || sc.Version == "" {
		return "", "", fmt.Errorf("read_file: %+v %s", r.Error, r.text())
	}
	return r.Result.Content[0].Text, sc.Version, nil
}

// TestAgentsThatReadThenWriteLoseNothingWithVersions runs agents that
// each read a counter and write it back one higher, some with write_file
// and some with edit_file, passing the version they read: a write over a
// change they did not see is refused, and they read again. Every
// increment lands.
func TestAgentsThatReadThenWriteLoseNothingWithVersions(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "counter.txt"), []byte("0"), 0o644); err != nil {
		t.Fatal(err)
	}
	eps := backends(t, 3, root)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	const agents = 24
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused := 0
	for a := range agents {
		wg.Go(func() {
			ep := eps[a%len(eps)]
			for try := 0; ; try++ {
				if try == 500 {
					t.Errorf("agent %d gave up", a)
					return
				}
				id := a*1000 + try*2
				text, version, err := readVersion(ctx, client, ep, id, "counter.txt")
				if err != nil {
					t.Error(err)
					return
				}
				var n int
				fmt.Sscan(text, &n)
				var args, tool string
				if a%2 == 0 {
					tool, args = "write_file", fmt.Sprintf(`{"path":"counter.txt","content":"%d","expected_version":%q}`, n+1, version)
				} else {
					tool, args = "edit_file", fmt.Sprintf(`{"path":"counter.txt","edits":[{"old_text":"%d","new_text":"%d"}],"expected_version":%q}`, n, n+1, version)
				}
				r, err := postCall(ctx, client, ep, id+1, tool, args)
				if err != nil {
					t.Error(err)
					return
				}
				if r.Error == nil && !r.Result.IsError {
					return
				}
				if !strings.Contains(r.text(), "changed since") {
					t.Errorf("agent %d: %s refused for another reason: %s", a, tool, r.text())
					return
				}
				mu.Lock()
				refused++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(filepath.Join(root, "counter.txt"))
	if string(b) != fmt.Sprint(agents) {
		t.Fatalf("the counter is %q after %d increments (%d stale writes refused)", b, agents, refused)
	}
	t.Logf("%d stale writes refused and retried", refused)
}

func TestAStaleVersionIsRefusedAndTheFileUntouched(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "f.txt")
	if err := os.WriteFile(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eps := backends(t, 2, root)
	ctx := context.Background()
	client := &http.Client{}
	_, version, err := readVersion(ctx, client, eps[0], 1, "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Another agent, through the other process, changes the file.
	if r, err := postCall(ctx, client, eps[1], 2, "append_file", `{"path":"f.txt","content":"two\n"}`); err != nil || r.Result.IsError {
		t.Fatalf("append: %v %s", err, r.text())
	}
	before, _ := os.Stat(p)
	for i, tc := range []struct{ tool, args string }{
		{"write_file", `{"path":"f.txt","content":"mine\n","expected_version":%q}`},
		{"edit_file", `{"path":"f.txt","edits":[{"old_text":"one","new_text":"mine"}],"expected_version":%q}`},
		{"append_file", `{"path":"f.txt","content":"mine\n","expected_version":%q}`},
	} {
		r, err := postCall(ctx, client, eps[i%2], 3+i, tc.tool, fmt.Sprintf(tc.args, version))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Result.IsError || !strings.Contains(r.text(), "changed since") {
			t.Errorf("%s with a stale version: %s", tc.tool, r.text())
		}
	}
	after, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	if string(b) != "one\ntwo\n" || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the file changed: %q", b)
	}
}
