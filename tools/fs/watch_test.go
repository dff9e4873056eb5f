package fs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// newWatchEnv returns a session with a server whose two roots are real
// folders: "one", and "two", read-only. It skips where the system
// reports no changes.
func newWatchEnv(t *testing.T) (c *servertest.Client, one, two string) {
	t.Helper()
	if !security.CanWatch() {
		t.Skip("this system reports no changes to files")
	}
	one, two = t.TempDir(), t.TempDir()
	var roots []security.Root
	for _, r := range []struct {
		name, dir string
		ro        bool
	}{{"one", one, false}, {"two", two, true}} {
		fsys, err := security.OpenRoot(r.dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { fsys.Close() })
		roots = append(roots, security.Root{Name: r.name, Fs: fsys, HostPath: r.dir, ReadOnly: r.ro})
	}
	sb, err := security.NewRoots(roots, security.SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{UpdateDelay: 1})
	if err := Register(srv, sb); err != nil {
		t.Fatal(err)
	}
	return servertest.Start(t, srv), one, two
}

// subscribe subscribes the session to uri and returns the error's
// message, "" for none.
func subscribe(t *testing.T, c *servertest.Client, uri string) string {
	t.Helper()
	r := c.Request("resources/subscribe", map[string]string{"uri": uri})
	if r.Error != nil {
		return r.Error.Message
	}
	return ""
}

// callAndWait calls tool with args and reads the session's lines until
// both its result and an update of uri have come, in either order (the
// update may be written before the result): servertest's CallTool would
// skip the update. A tool error, a line of another kind, or no line
// within servertest.Timeout fails the test.
func callAndWait(t *testing.T, c *servertest.Client, tool, args, uri string) {
	t.Helper()
	c.Send(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`)
	waitUpdated(t, c, uri, true)
}

// waitUpdated reads the session's lines until uri is told updated, and
// the result of the request "w" when result is true.
func waitUpdated(t *testing.T, c *servertest.Client, uri string, result bool) {
	t.Helper()
	told := false
	for !told || result {
		line := c.Recv()
		var m struct {
			ID     string                 `json:"id"`
			Method string                 `json:"method"`
			Result *server.CallToolResult `json:"result"`
			Params struct {
				URI string `json:"uri"`
			} `json:"params"`
		}
		switch err := json.Unmarshal([]byte(line), &m); {
		case err != nil:
			t.Fatalf("waiting for %s updated: %s", uri, line)
		case m.ID == "w" && m.Result != nil && !m.Result.IsError:
			result = false
		case m.Method == "notifications/resources/updated":
			told = told || m.Params.URI == uri
		default:
			t.Fatalf("waiting for %s updated: %s", uri, line)
		}
	}
}

// TestAWriteThroughTheToolsIsToldToTheSubscribers: a file written by
// write_file, a folder given a new entry by create_directory, and a file
// of a read-only root changed by someone else are each told updated.
func TestAWriteThroughTheToolsIsToldToTheSubscribers(t *testing.T) {
	c, _, two := newWatchEnv(t)
	if r := c.CallTool("create_directory", map[string]string{"path": "one:/notes"}); r.IsError {
		t.Fatal(r.Text())
	}
	if r := c.CallTool("write_file", map[string]string{"path": "one:/notes/a.txt", "content": "a\n"}); r.IsError {
		t.Fatal(r.Text())
	}
	if err := os.WriteFile(filepath.Join(two, "ro.txt"), []byte("ro\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"toolserver://one/notes/a.txt", "toolserver://one/notes", "toolserver://two/ro.txt"} {
		if msg := subscribe(t, c, uri); msg != "" {
			t.Fatalf("subscribe %s: %s", uri, msg)
		}
	}

	callAndWait(t, c, "write_file", `{"path":"one:/notes/a.txt","content":"b\n"}`, "toolserver://one/notes/a.txt")
	callAndWait(t, c, "create_directory", `{"path":"one:/notes/sub"}`, "toolserver://one/notes")

	if err := os.WriteFile(filepath.Join(two, "ro.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUpdated(t, c, "toolserver://two/ro.txt", false)

	// Unsubscribed, the file is no longer told: a write to it is told
	// as its folder's update only.
	if r := c.Request("resources/unsubscribe", map[string]string{"uri": "toolserver://one/notes/a.txt"}); r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	c.Send(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"write_file","arguments":{"path":"one:/notes/a.txt","content":"c\n"}}}`)
	for seen := 0; seen < 2; {
		line := c.Recv()
		if strings.Contains(line, "notes/a.txt\"") {
			t.Fatalf("told after unsubscribing: %s", line)
		}
		if strings.Contains(line, `"uri":"toolserver://one/notes"`) || strings.Contains(line, `"id":"w"`) {
			seen++
		}
	}
}

// TestNoWatchLeavesTheSandbox: the URIs the reads refuse are refused by
// subscribe the same way, the URI not found, and nothing is watched.
func TestNoWatchLeavesTheSandbox(t *testing.T) {
	c, one, _ := newWatchEnv(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"abs-link": filepath.Join(outside, "secret"), "dir-link": outside} {
		if err := os.Symlink(target, filepath.Join(one, name)); err != nil {
			t.Fatal(err)
		}
	}
	base := filepath.Base(outside)
	for _, uri := range []string{
		"toolserver://one/../" + base + "/secret",
		"toolserver://one/%2e%2e/" + base + "/secret",
		"toolserver://one/abs-link",
		"toolserver://one/dir-link/secret",
		"toolserver://one/dir-link",
		"toolserver://one/missing.txt",
		"toolserver://one/a%00",
		"toolserver://one/~/a",
		"toolserver://" + outside + "/secret",
		"toolserver:///one/a",
		"toolserver://three/a",
		"file://" + filepath.Join(outside, "secret"),
	} {
		if msg := subscribe(t, c, uri); !strings.HasPrefix(msg, "Resource not found: ") || strings.Contains(msg, outside) && !strings.Contains(uri, outside) {
			t.Errorf("subscribe %s: %q; want the URI not found", uri, msg)
		}
	}
}

// TestAFileSystemThatReportsNoChangesIsRefusedWithASentence: a root the
// watcher cannot watch (a file system in memory here, as NFS would be)
// refuses the subscription with a sentence, rather than accepting one it
// would never tell.
func TestAFileSystemThatReportsNoChangesIsRefusedWithASentence(t *testing.T) {
	if !security.CanWatch() {
		t.Skip("this system reports no changes to files")
	}
	e := newMemEnv(t, security.Limits{})
	e.write(t, "a.txt", "a\n")
	c := servertest.Start(t, e.srv)
	msg := subscribe(t, c, "toolserver:///a.txt")
	if msg != `cannot watch "a.txt": its root's file system does not report changes; read it again` {
		t.Fatalf("subscribe on a memory root: %q", msg)
	}
}

// TestSubscribingAgainWatchesAgain: a subscription whose folder was
// moved away is told once and then hears nothing; subscribing to the URI
// again sets its watch again, on what the path names now.
func TestSubscribingAgainWatchesAgain(t *testing.T) {
	c, one, _ := newWatchEnv(t)
	if err := os.MkdirAll(filepath.Join(one, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, "notes", "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	const uri = "toolserver://one/notes/a.txt"
	if msg := subscribe(t, c, uri); msg != "" {
		t.Fatal(msg)
	}
	if err := os.Rename(filepath.Join(one, "notes"), filepath.Join(one, "old")); err != nil {
		t.Fatal(err)
	}
	waitUpdated(t, c, uri, false)
	if err := os.MkdirAll(filepath.Join(one, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, "notes", "a.txt"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg := subscribe(t, c, uri); msg != "" {
		t.Fatal(msg)
	}
	callAndWait(t, c, "write_file", `{"path":"one:/notes/a.txt","content":"again\n"}`, uri)
}
