package fs

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// env is one file system the tools are tested on: an afero.MemMapFs, or a
// RootFs over a real temporary directory.
type env struct {
	name string
	fs   afero.Fs
	sb   *security.Sandbox
	srv  *server.Server
	dir  string // the host directory of a real env; "" for memory
}

// real reports whether the env is a real directory.
func (e *env) real() bool { return e.dir != "" }

// newMemEnv returns an env over a MemMapFs with limits.
func newMemEnv(t testing.TB, lim security.Limits) *env {
	t.Helper()
	return newEnv(t, "mem", newMemFs(), "", lim)
}

// memFs is afero's MemMapFs as the tests use it. The sandbox opens every
// file to read with O_NONBLOCK, and a MemMapFs file opened with any flag
// but O_RDONLY alone counts as open for writing: its Close sets its
// modification time, so that every read would change the file's
// version. The flag means nothing in memory, and is dropped.
type memFs struct{ afero.Fs }

// newMemFs returns an empty memFs.
func newMemFs() afero.Fs { return memFs{afero.NewMemMapFs()} }

func (m memFs) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		flag &^= syscall.O_NONBLOCK
	}
	return m.Fs.OpenFile(name, flag, perm)
}

// newRealEnv returns an env over a RootFs on a fresh temporary directory.
func newRealEnv(t testing.TB, lim security.Limits, set ...func(*toolset)) *env {
	t.Helper()
	dir := t.TempDir()
	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return newEnv(t, "real", root, dir, lim, set...)
}

// newEnv returns an env over fsys, its tools registered as Register does
// after each of set has changed their toolset.
func newEnv(t testing.TB, name string, fsys afero.Fs, dir string, lim security.Limits, set ...func(*toolset)) *env {
	t.Helper()
	sb := security.NewSandbox(fsys, security.SandboxOptions{HostRoot: dir, Limits: lim})
	srv := server.New(server.Options{AllowAdmin: true})
	ts := newToolset(sb)
	for _, f := range set {
		f(ts)
	}
	if err := ts.register(srv); err != nil {
		t.Fatalf("register: %v", err)
	}
	return &env{name: name, fs: fsys, sb: sb, srv: srv, dir: dir}
}

// bothFS runs f as a subtest on a memory env and on a real env.
func bothFS(t *testing.T, lim security.Limits, f func(t *testing.T, e *env)) {
	t.Run("mem", func(t *testing.T) { f(t, newMemEnv(t, lim)) })
	t.Run("real", func(t *testing.T) { f(t, newRealEnv(t, lim)) })
}

// call runs a tool the way the server does and returns its result.
func (e *env) call(t testing.TB, tool, args string) *server.CallToolResult {
	t.Helper()
	res, err := e.srv.CallTool(context.Background(), tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("CallTool(%s, %s): %v", tool, args, err)
	}
	return res
}

// ok runs a tool and fails the test if the result is an error.
func (e *env) ok(t testing.TB, tool, args string) *server.CallToolResult {
	t.Helper()
	res := e.call(t, tool, args)
	if res.IsError {
		t.Fatalf("%s(%s) failed: %s", tool, args, text(res))
	}
	return res
}

// fail runs a tool, fails the test unless the result is an error, and
// returns the error text.
func (e *env) fail(t testing.TB, tool, args string) string {
	t.Helper()
	res := e.call(t, tool, args)
	if !res.IsError {
		t.Fatalf("%s(%s) succeeded, want an error; got %s", tool, args, text(res))
	}
	return text(res)
}

// text returns the text blocks of a result, joined.
func text(res *server.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type() == "text" {
			parts = append(parts, c.Text())
		}
	}
	return strings.Join(parts, "\n")
}

// structured decodes the structured content of a result into v.
func structured(t testing.TB, res *server.CallToolResult, v any) {
	t.Helper()
	raw, ok := res.StructuredContent.(json.RawMessage)
	if !ok {
		t.Fatalf("structuredContent is %T, want json.RawMessage", res.StructuredContent)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
}

// object decodes the structured content of a result as a JSON object.
func object(t testing.TB, res *server.CallToolResult) map[string]any {
	t.Helper()
	var m map[string]any
	structured(t, res, &m)
	return m
}

// args encodes v as the JSON arguments of a call.
func args(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// write creates the file name with content and any missing parents.
func (e *env) write(t testing.TB, name, content string) {
	t.Helper()
	e.writeMode(t, name, content, 0o644)
}

// writeMode creates the file name with content and mode.
func (e *env) writeMode(t testing.TB, name, content string, mode fs.FileMode) {
	t.Helper()
	if dir := path.Dir(name); dir != "." {
		if err := e.fs.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := afero.WriteFile(e.fs, name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := e.fs.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
}

// mkdir creates the directory name and its parents.
func (e *env) mkdir(t testing.TB, name string) {
	t.Helper()
	if err := e.fs.MkdirAll(name, 0o755); err != nil {
		t.Fatal(err)
	}
}

// read returns the content of the file name.
func (e *env) read(t testing.TB, name string) string {
	t.Helper()
	b, err := afero.ReadFile(e.fs, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// exists reports whether name exists.
func (e *env) exists(t testing.TB, name string) bool {
	t.Helper()
	_, err := lstat(e.fs, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// symlink creates a symbolic link on a real env; it skips the test on a
// memory env.
func (e *env) symlink(t testing.TB, target, name string) {
	t.Helper()
	if !e.real() {
		t.Skip("MemMapFs has no symbolic links")
	}
	if err := os.Symlink(target, filepath.Join(e.dir, filepath.FromSlash(name))); err != nil {
		t.Fatal(err)
	}
}

// snapshot describes every entry of the tree: its type, mode and, for
// files, content.
func (e *env) snapshot(t testing.TB) string {
	t.Helper()
	var lines []string
	var walk func(dir string)
	walk = func(dir string) {
		f, err := e.fs.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			p := joinRel(dir, n)
			fi, err := lstat(e.fs, p)
			if err != nil {
				t.Fatal(err)
			}
			line := p + " " + fi.Mode().String()
			switch {
			case fi.Mode().IsRegular():
				line += " " + e.read(t, p)
			case fi.IsDir():
				walk(p)
			}
			lines = append(lines, line)
		}
	}
	walk(".")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// wantContains fails the test unless s contains every one of subs.
func wantContains(t testing.TB, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("got %q\nwant it to contain %q", s, sub)
		}
	}
}

// itoa formats n.
func itoa(n int) string { return strconv.Itoa(n) }

// outcome checks a result against wantErr. With wantErr set, the result
// must be an error that contains it, and outcome returns false: there is
// nothing more to check. Otherwise the result must be a success, and
// outcome returns true.
func outcome(t testing.TB, res *server.CallToolResult, wantErr string) bool {
	t.Helper()
	if wantErr == "" {
		if res.IsError {
			t.Fatalf("error: %s", text(res))
		}
		return true
	}
	if !res.IsError {
		t.Fatalf("got %q, want error", text(res))
	}
	wantContains(t, text(res), wantErr)
	return false
}

// writeAll writes files, a map from a name to its content; a name ending
// in "/" is an empty directory.
func (e *env) writeAll(t testing.TB, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if strings.HasSuffix(name, "/") {
			e.mkdir(t, name)
		} else {
			e.write(t, name, content)
		}
	}
}

// plural returns "1 file" or "n files", as the English messages count.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// versionTagPattern finds a version tag in the text of a result, in
// either language.
var versionTagPattern = regexp.MustCompile(`\[(version|版本) [0-9a-f]{16}\]`)

// anyVersion returns s with the digits of every version tag in it made
// "V", for comparing texts that show versions.
func anyVersion(s string) string { return versionTagPattern.ReplaceAllString(s, "[$1 V]") }

// versionIn returns the version the tag in s shows, failing the test
// unless there is exactly one.
func versionIn(t testing.TB, s string) string {
	t.Helper()
	m := versionTagPattern.FindAllString(s, -1)
	if len(m) != 1 {
		t.Fatalf("%d version tags in %q, want 1", len(m), s)
	}
	return m[0][len(m[0])-17 : len(m[0])-1]
}
