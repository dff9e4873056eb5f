package fs

import (
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// newMultiEnv returns an env over two roots in memory: "one" (writable,
// the first) and "two" (read-only when ro).
func newMultiEnv(t *testing.T, ro bool) (e *env, one, two afero.Fs) {
	t.Helper()
	one, two = afero.NewMemMapFs(), afero.NewMemMapFs()
	sb, err := security.NewRoots([]security.Root{{Name: "one", Fs: one}, {Name: "two", Fs: two, ReadOnly: ro}}, security.SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{AllowAdmin: true})
	if err := Register(srv, sb); err != nil {
		t.Fatal(err)
	}
	return &env{name: "multi", fs: one, sb: sb, srv: srv}, one, two
}

func TestSearchesInASecondRootApplyItsIgnoreFiles(t *testing.T) {
	e, _, two := newMultiEnv(t, true)
	for name, body := range map[string]string{
		"two/.gitignore": "build/\n*.log\n", "two/a.txt": "needle\n", "two/x.log": "needle\n",
		"two/build/b.txt": "needle\n", "two/sub/c.txt": "needle\n", "two/sub/.gitignore": "c.txt\n",
	} {
		if err := afero.WriteFile(two, strings.TrimPrefix(name, "two/"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ tool, args, want, not string }{
		{"search_files", `{"path":"two:","pattern":"**/*"}`, "two:/a.txt", "two:/build"},
		{"grep", `{"path":"two:","query":"needle"}`, "two:/a.txt:1:needle", "x.log"},
		{"grep", `{"path":"two:/sub","query":"needle"}`, "Skipped 1 ignored entry", "two:/sub/c.txt"},
		{"directory_tree", `{"path":"two:"}`, "sub/", "build/"},
	} {
		got := text(e.ok(t, tc.tool, tc.args))
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) || strings.Contains(got, "Did not apply") {
			t.Errorf("%s %s = %q; want %q and not %q", tc.tool, tc.args, got, tc.want, tc.not)
		}
	}
}

func TestToolsAcrossTwoRoots(t *testing.T) {
	e, one, two := newMultiEnv(t, true)
	if err := afero.WriteFile(two, "ref.txt", []byte("reference\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(one, "mine.txt", []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.ok(t, "copy_file", `{"source":"two:/ref.txt","destination":"copied.txt"}`)
	if b, _ := afero.ReadFile(one, "copied.txt"); string(b) != "reference\n" {
		t.Errorf("copied.txt = %q", b)
	}
	for _, tc := range []struct{ tool, args string }{
		{"write_file", `{"path":"two:/new.txt","content":"x"}`},
		{"write_file", `{"path":"two:/new.txt","content":"x","dry_run":true}`},
		{"edit_file", `{"path":"two:/ref.txt","edits":[{"old_text":"reference","new_text":"x"}]}`},
		{"create_directory", `{"path":"two:/d"}`},
		{"copy_file", `{"source":"mine.txt","destination":"two:/mine.txt"}`},
		{"move_file", `{"source":"two:/ref.txt","destination":"one:/ref.txt"}`},
		{"move_file", `{"source":"mine.txt","destination":"two:/mine.txt","dry_run":true}`},
		{"delete_file", `{"path":"two:/ref.txt"}`},
	} {
		if msg := e.fail(t, tc.tool, tc.args); !strings.Contains(msg, `read-only root "two"`) {
			t.Errorf("%s %s = %q; want a read-only refusal", tc.tool, tc.args, msg)
		}
	}
	for _, tc := range []struct{ tool, args, want string }{
		{"delete_file", `{"path":"one:"}`, "root directory"},
		{"delete_file", `{"path":"two:"}`, `read-only root "two"`},
		{"move_file", `{"source":"one:","destination":"one:/x"}`, "root"},
		{"write_file", `{"path":"one:","content":"x"}`, "root directory"},
	} {
		if msg := e.fail(t, tc.tool, tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("%s %s = %q; want %q", tc.tool, tc.args, msg, tc.want)
		}
	}
	if b, _ := afero.ReadFile(two, "ref.txt"); string(b) != "reference\n" {
		t.Errorf("the read-only root's file changed: %q", b)
	}
	got := text(e.ok(t, "list_allowed_directories", `{}`))
	for _, want := range []string{"one: (read and write): paths in it are written one:/PATH, or as a plain relative PATH", "two: (read-only)"} {
		if !strings.Contains(got, want) {
			t.Errorf("list_allowed_directories = %q; want %q", got, want)
		}
	}
}
