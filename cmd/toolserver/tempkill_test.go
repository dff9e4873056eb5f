package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/internal/testbin"
)

// tempEntry matches the names of the server's temporary entries, and
// tempShown one within a line.
var (
	tempEntry = regexp.MustCompile(`^\.toolserver-[0-9a-f]{16}\.tmp$`)
	tempShown = regexp.MustCompile(`\.toolserver-[0-9a-f]{16}\.tmp`)
)

// TestKilledWritesLeaveNoTemporaryFileInSight kills the server with
// SIGKILL at random moments of write_file, edit_file and copy_file,
// built so that it writes through named temporary files, as where the
// kernel has no O_TMPFILE (the tag toolserver_notmpfile). After each kill
// every file holds its old content or its new one. Then a server started
// afresh shows none of the temporary files the kills left in any
// listing, tree, search or grep, nor counts them, and leaves them while
// they may be someone's write under way; once they are an hour old, the
// listings of their directories remove them.
func TestKilledWritesLeaveNoTemporaryFileInSight(t *testing.T) {
	notmp, cleanup, err := testbin.Build(".", "toolserver", "-tags", "toolserver_notmpfile")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	root := t.TempDir()
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	if err := os.Mkdir(at("sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	oldBig := strings.Repeat("old line\n", 1<<17) // 1.1 MiB
	newBig := strings.Repeat("NEW LINE\n", 1<<19) // 4.5 MiB
	var notes strings.Builder
	for i := range 150_000 {
		fmt.Fprintf(&notes, "line %06d\n", i) // 1.7 MiB
	}
	oldNotes := notes.String()
	newNotes := strings.Replace(oldNotes, "line 000100\n", "LINE 000100\n", 1)
	src := bytes.Repeat([]byte("0123456789abcde\n"), 1<<17) // 2 MiB
	if err := os.WriteFile(at("src.bin"), src, 0o644); err != nil {
		t.Fatal(err)
	}

	type op struct {
		name, request string
		target        string
		versions      []string // what the target may hold after a kill; "" for absent
		full          time.Duration
	}
	ops := []*op{
		{name: "write_file", target: "big.txt", versions: []string{oldBig, newBig},
			request: fmt.Sprintf(`{"name":"write_file","arguments":{"path":"big.txt","content":%q}}`, newBig)},
		{name: "edit_file", target: "sub/notes.txt", versions: []string{oldNotes, newNotes},
			request: `{"name":"edit_file","arguments":{"path":"sub/notes.txt","edits":[{"old_text":"line 000100\n","new_text":"LINE 000100\n"}]}}`},
		{name: "copy_file", target: "sub/copy.bin", versions: []string{"", string(src)},
			request: `{"name":"copy_file","arguments":{"source":"src.bin","destination":"sub/copy.bin","overwrite":true}}`},
	}
	reset := func() {
		for _, f := range []struct{ rel, content string }{{"big.txt", oldBig}, {"sub/notes.txt", oldNotes}} {
			if err := os.WriteFile(at(f.rel), []byte(f.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Remove(at("sub/copy.bin")); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	leftovers := func() []string {
		var found []string
		for _, dir := range []string{".", "sub"} {
			entries, err := os.ReadDir(at(dir))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if tempEntry.MatchString(e.Name()) {
					found = append(found, filepath.Join(at(dir), e.Name()))
				}
			}
		}
		return found
	}
	call := func(p *proc, id int, params string) {
		// Written aside: a kill may come while the server reads it.
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params)
		go func() { _, _ = p.stdin.Write([]byte(line + "\n")) }()
	}

	// Each operation once to its end, to learn how long it takes.
	for _, o := range ops {
		reset()
		p := startBinaryInitialized(t, notmp, "--root", root)
		began := time.Now()
		call(p, 1, o.request)
		if l := p.recv(); strings.Contains(l, `"isError":true`) || !strings.Contains(l, `"result"`) {
			t.Fatalf("%s failed: %.300s", o.name, l)
		}
		o.full = time.Since(began)
		p.finish()
		t.Logf("%s takes %v", o.name, o.full)
	}
	if left := leftovers(); len(left) > 0 {
		t.Fatalf("writes that ran to their end left %v", left)
	}

	// Kill at random moments until the kills have left a few temporary
	// files, or have tried long enough.
	kills, minKills, maxKills := 0, 12, 60
	if testing.Short() {
		minKills = 4
	}
	for kills < minKills || len(leftovers()) < 3 && kills < maxKills {
		o := ops[rng.IntN(len(ops))]
		reset()
		p := startBinaryInitialized(t, notmp, "--root", root)
		call(p, 1, o.request)
		delay := time.Duration(rng.Int64N(int64(o.full*5/4) + 1))
		time.Sleep(delay)
		_ = p.cmd.Process.Kill()
		<-p.waited
		kills++
		got, err := os.ReadFile(at(o.target))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		whole := false
		for _, v := range o.versions {
			whole = whole || (v == "" && os.IsNotExist(err)) || (err == nil && string(got) == v)
		}
		if !whole {
			t.Fatalf("%s killed after %v (a whole one takes %v): %s holds %d bytes that are neither the old nor the new content", o.name, delay, o.full, o.target, len(got))
		}
	}
	left := leftovers()
	t.Logf("%d kills left %d temporary files", kills, len(left))
	if len(left) == 0 {
		t.Skip("no kill came while a temporary file existed")
	}

	// A server started afresh shows none of them, counts none, and
	// removes none: they are younger than an hour.
	reset()
	p := startInitialized(t, []string{"--root", root})
	for i, params := range []string{
		`{"name":"list_directory","arguments":{"path":"."}}`,
		`{"name":"list_directory","arguments":{"path":"sub","sizes":true,"sort":"modified"}}`,
		`{"name":"directory_tree","arguments":{"depth":5}}`,
		`{"name":"search_files","arguments":{"pattern":"**","include_ignored":true}}`,
		`{"name":"search_files","arguments":{"pattern":".toolserver-*"}}`,
		`{"name":"grep","arguments":{"query":"NEW LINE","include_ignored":true,"max_results":5}}`,
		`{"name":"grep","arguments":{"query":"LINE 000100","include_ignored":true,"max_results":5}}`,
		`{"name":"get_file_info","arguments":{"path":"sub"}}`,
	} {
		began := time.Now()
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, params))
		l := p.recv()
		t.Logf("%.60s took %v", params, time.Since(began))
		if strings.Contains(l, `"isError":true`) || !strings.Contains(l, `"result"`) {
			t.Fatalf("%s failed: %.300s", params, l)
		}
		if tempShown.MatchString(l) {
			t.Errorf("%s shows a temporary file: %.600s", params, l)
		}
		if strings.Contains(params, "get_file_info") && !strings.Contains(l, `"entries":1`) {
			t.Errorf("get_file_info of sub counts more than notes.txt: %.300s", l)
		}
	}
	p.finish()
	if now := leftovers(); len(now) != len(left) {
		t.Fatalf("temporary files younger than an hour were removed: %d of %d left", len(now), len(left))
	}

	// An hour later, listing their directories removes them.
	old := time.Now().Add(-61 * time.Minute)
	for _, f := range left {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	p = startInitialized(t, []string{"--root", root})
	for i, dir := range []string{".", "sub"} {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_directory","arguments":{"path":%q}}}`, i+1, dir))
		if l := p.recv(); strings.Contains(l, `"isError":true`) {
			t.Fatalf("list_directory %s failed: %.300s", dir, l)
		}
	}
	p.finish()
	if now := leftovers(); len(now) > 0 {
		t.Errorf("stale temporary files are still there after the listings of their directories: %v", now)
	}
}

// startInitialized starts the binary with args and does the handshake.
func startInitialized(t *testing.T, args []string) *proc {
	t.Helper()
	return startBinaryInitialized(t, binary, args...)
}

// startBinaryInitialized starts the binary bin with args and does the
// handshake.
func startBinaryInitialized(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	p := startBinary(t, bin, nil, args...)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.recv()
	return p
}
