//go:build !windows

package listing

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
	"github.com/stdiotools/toolserver/tools/fs"
)

// TestAppendWritesWhatToolserverBesideItWrites holds Append to the
// list_directory of the toolserver in the tree the bench sits in (the
// module's replace directive points at it), on the kinds of folder the
// bench lists: plain files, folders, a symbolic link, a named pipe, an
// empty folder, and the suite's folder of numbered files.
func TestAppendWritesWhatToolserverBesideItWrites(t *testing.T) {
	dir := t.TempDir()
	mkdir := func(name string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	touch := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkdir("mixed/sub")
	touch("mixed/a.txt")
	touch("mixed/b.txt")
	if err := os.Symlink("a.txt", filepath.Join(dir, "mixed/link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "mixed/pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	mkdir("one/dir")
	touch("one/only.txt")
	mkdir("empty")
	mkdir("many")
	for i := range 120 {
		touch(fmt.Sprintf("many/file-%04d.txt", i))
	}

	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	srv := server.New(server.Options{})
	if err := fs.Register(srv, security.NewSandbox(root, security.SandboxOptions{HostRoot: dir})); err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)

	for _, name := range []string{"mixed", "one", "empty", "many"} {
		entries, err := os.ReadDir(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		res := c.CallTool("list_directory", map[string]any{"path": name})
		if res.IsError {
			t.Fatalf("list_directory %s: %s", name, res.Text())
		}
		if got, want := string(Append(nil, name, entries)), res.Text(); got != want {
			t.Errorf("%s: Append wrote\n%s\ntoolserver wrote\n%s", name, got, want)
		}
	}
}
