package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// reviewRoot is one root of a multi-root review env: name, folder below
// the base, read-only.
type reviewRoot struct {
	name, dir string
	ro        bool
}

// multiEnv is a sandbox over several real roots below base, with the file
// tools registered (delete_file included).
type multiEnv struct {
	base string
	sb   *security.Sandbox
	srv  *server.Server
}

func newReviewEnv(t testing.TB, roots ...reviewRoot) *multiEnv {
	t.Helper()
	base := t.TempDir()
	var specs []security.Root
	for _, r := range roots {
		dir := filepath.Join(base, r.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		rfs, err := security.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rfs.Close() })
		specs = append(specs, security.Root{Name: r.name, Fs: rfs, HostPath: dir, ReadOnly: r.ro})
	}
	sb, err := security.NewRoots(specs, security.SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{AllowAdmin: true, TargetKey: sb.Key})
	if err := Register(srv, sb); err != nil {
		t.Fatal(err)
	}
	return &multiEnv{base: base, sb: sb, srv: srv}
}

func (m *multiEnv) host(p string) string { return filepath.Join(m.base, filepath.FromSlash(p)) }

func (m *multiEnv) put(t testing.TB, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(m.host(p)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m.host(p), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (m *multiEnv) call(t testing.TB, tool, args string) (string, bool) {
	t.Helper()
	e := &env{srv: m.srv}
	res := e.call(t, tool, args)
	out := text(res)
	if strings.Contains(out, m.base) {
		t.Errorf("%s %s shows a host path: %q", tool, args, out)
	}
	return out, res.IsError
}

// TestReviewMoveOntoItselfAcrossRootsDeletesIt: two writable roots on one
// folder (or one nested in the other) name one file twice. move_file from
// one spelling to the other, with overwrite, passes checkTransfer (the
// strings differ), meets EXDEV in muxFs.Rename, copies the file onto
// itself and then removes the source: the file is gone. A rename(2) of a
// file onto itself does nothing, and so should this.
func TestReviewMoveOntoItselfAcrossRootsDeletesIt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		roots  []reviewRoot
		src    string // host, below base
		source string
		dest   string
	}{
		{"same folder", []reviewRoot{{"aa", "d", false}, {"bb", "d", false}}, "d/f.txt", "aa:/f.txt", "bb:/f.txt"},
		{"nested", []reviewRoot{{"aa", "d", false}, {"bb", "d/sub", false}}, "d/sub/f.txt", "aa:/sub/f.txt", "bb:/f.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newReviewEnv(t, tc.roots...)
			m.put(t, tc.src, "precious\n")
			out, isErr := m.call(t, "move_file", `{"source":"`+tc.source+`","destination":"`+tc.dest+`","overwrite":true}`)
			if b, err := os.ReadFile(m.host(tc.src)); err != nil || string(b) != "precious\n" {
				t.Errorf("move_file %s -> %s (err=%v: %q) lost the file: %q, %v", tc.source, tc.dest, isErr, out, b, err)
			}
			if !isErr || !strings.Contains(out, "same file") {
				t.Errorf("move_file %s -> %s = %q; want a refusal naming the same file", tc.source, tc.dest, out)
			}
			// Into a different file of the other root, it moves.
			other := strings.Replace(tc.dest, "f.txt", "g.txt", 1)
			if out, isErr := m.call(t, "move_file", `{"source":"`+tc.source+`","destination":"`+other+`"}`); isErr {
				t.Errorf("move_file %s -> %s: %q", tc.source, other, out)
			}
		})
	}
}

// TestReviewMkdirThroughDanglingLinkIntoNestedReadOnlyRoot: a dangling
// symbolic link in the writable root that leads to a missing folder in a
// nested read-only root. create_directory through it passes the gate:
// protection.climb starts from the nearest existing ancestor (the
// writable root), and the final-link check looks only at the last
// element, which does not exist. os.Root.MkdirAll then follows the
// dangling link and creates the folder inside the read-only root.
func TestReviewMkdirThroughDanglingLinkIntoNestedReadOnlyRoot(t *testing.T) {
	m := newReviewEnv(t, reviewRoot{"src", "src", false}, reviewRoot{"vendor", "src/vendor", true})
	m.put(t, "src/vendor/v.txt", "v")
	if err := os.Symlink("vendor/build", m.host("src/build")); err != nil {
		t.Fatal(err)
	}
	out, isErr := m.call(t, "create_directory", `{"path":"src:/build/out"}`)
	if _, err := os.Stat(m.host("src/vendor/build/out")); err == nil {
		t.Errorf("create_directory src:/build/out (err=%v: %q) created vendor/build/out inside the read-only root", isErr, out)
	}
	if !isErr || !strings.Contains(out, `read-only root "vendor"`) {
		t.Errorf("create_directory through a dangling link into the read-only root = %q; want a read-only refusal", out)
	}
	// Elsewhere in src, create_directory still makes every missing parent,
	// and a dangling link elsewhere is an error, as with os.MkdirAll.
	if out, isErr := m.call(t, "create_directory", `{"path":"src:/x/y/z"}`); isErr {
		t.Errorf("create_directory src:/x/y/z: %q", out)
	}
	if fi, err := os.Stat(m.host("src/x/y/z")); err != nil || !fi.IsDir() {
		t.Errorf("src/x/y/z: %v", err)
	}
	if err := os.Symlink("nowhere/d", m.host("src/dangling")); err != nil {
		t.Fatal(err)
	}
	if out, isErr := m.call(t, "create_directory", `{"path":"src:/dangling/e"}`); !isErr {
		t.Errorf("create_directory through a dangling link = %q; want an error", out)
	}
	if _, err := os.Stat(m.host("src/nowhere")); err == nil {
		t.Error("create_directory through a dangling link created its target")
	}
}

// TestReviewMoveDirectoryAcrossRootsSaysFileSystems: moving a directory
// between two roots on one disk is refused as if they were different file
// systems. Nit: the sentence should say "roots".
func TestReviewMoveDirectoryAcrossRootsSaysFileSystems(t *testing.T) {
	m := newReviewEnv(t, reviewRoot{"aa", "a", false}, reviewRoot{"bb", "b", false})
	m.put(t, "a/dir/f.txt", "x")
	out, isErr := m.call(t, "move_file", `{"source":"aa:/dir","destination":"bb:/dir"}`)
	if !isErr {
		t.Skip("moved")
	}
	if strings.Contains(out, "file systems") {
		t.Logf("nit: %q", out)
	}
}

// TestReviewListDirectorySingleRootNameEndingInColon: with one root,
// list_directory of a folder whose name ends in ":" used to end its
// summary "x:: ..."; the multi-root change drops the colon, so one root
// no longer behaves exactly as before (and "x: 1 file" reads as a root).
func TestReviewListDirectorySingleRootNameEndingInColon(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "ab:/f.txt", "f")
	got := text(e.ok(t, "list_directory", `{"path":"ab:"}`))
	if !strings.Contains(got, "ab:: ") {
		t.Errorf("single-root list_directory of \"ab:\" = %q; before the change it said \"ab:: 0 directories, 1 file.\"", got)
	}
	// With several roots, a root keeps one colon, a folder "ab:" two.
	m := newReviewEnv(t, reviewRoot{"src", "src", false}, reviewRoot{"notes", "notes", true})
	m.put(t, "notes/todo.md", "x")
	m.put(t, "src/ab:/f.txt", "x")
	for p, want := range map[string]string{"notes:": "\nnotes: 0 directories, 1 file.", "src:/ab:": "\nsrc:/ab:: 0 directories, 1 file."} {
		if got, _ := m.call(t, "list_directory", `{"path":"`+p+`"}`); !strings.Contains(got, want) {
			t.Errorf("list_directory %s = %q; want %q", p, got, want)
		}
	}
}

// TestReviewLongPathsInTheFirstRoot: with one root, a path of up to
// MaxPathBytes (4096) bytes may be read and written. With several, a
// plain path that long resolves to "src:/" and the path, 5 bytes longer;
// the tools then pass that form back to OpenRead, OpenWrite and
// CheckNewName, which resolve it again and refuse it as too long. The
// limit should apply to the path inside the root, not to the prefix.
func TestReviewLongPathsInTheFirstRoot(t *testing.T) {
	m := newReviewEnv(t, reviewRoot{"src", "src", false}, reviewRoot{"notes", "notes", true})
	// 16 directories of 250 bytes and a file: 16*251 + 75 = 4091 bytes.
	var parts []string
	for i := 0; i < 16; i++ {
		parts = append(parts, strings.Repeat(string(rune('a'+i)), 250))
	}
	dir := strings.Join(parts, "/")
	file := dir + "/" + strings.Repeat("f", 4094-len(dir)-1)
	if len(file) != 4094 {
		t.Fatalf("len = %d", len(file))
	}
	r, err := os.OpenRoot(m.host("src"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFile(file, []byte("deep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, isErr := m.call(t, "read_file", `{"path":"`+file+`"}`); isErr || !strings.Contains(out, "deep") {
		t.Errorf("read_file of a %d-byte plain path = %.200q", len(file), out)
	}
	if out, isErr := m.call(t, "write_file", `{"path":"`+file+`","content":"new"}`); isErr {
		t.Errorf("write_file of a %d-byte plain path = %.200q", len(file), out)
	}
}

// TestReviewAllowedWithNothingAllowedOneRoot: with one root and nothing
// allowed, list_allowed_directories began its text with an empty line
// (no directory, then the note); the change dropped it. One root should
// read as before.
func TestReviewAllowedWithNothingAllowedOneRoot(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.sb.Deny()
	if got := text(e.ok(t, "list_allowed_directories", `{}`)); !strings.HasPrefix(got, "\nNo directory") {
		t.Errorf("list_allowed_directories with nothing allowed = %q; want it as before several roots, starting \"\\nNo directory\"", got)
	}
}
