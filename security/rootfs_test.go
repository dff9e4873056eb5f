package security

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// testTree is a root and the host folders around it, in one temporary
// directory:
//
//	base/outside/secret.txt       "top secret"
//	base/outside/dir/inner.txt    "inner"
//	base/root_secret/key          "sibling"
//	base/root/                    the root
//	    a.txt                     "hello"
//	    notes/todo.txt            "todo"
//	    link-file   -> ../outside/secret.txt
//	    link-dir    -> ../outside
//	    abs-file    -> base/outside/secret.txt
//	    abs-inside  -> base/root/a.txt        (absolute, pointing inside)
//	    dangling    -> ../outside/new.txt     (does not exist)
//	    abs-dangling -> base/outside/new2.txt (does not exist)
//	    sibling     -> ../root_secret
//	    inner-link  -> a.txt
//	    loop        -> loop
type testTree struct {
	base, root string
	fs         *RootFs
	sb         *Sandbox
}

// newTestTree builds the tree and a RootFs and Sandbox over its root.
func newTestTree(t testing.TB) *testTree {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	files := map[string]string{
		"outside/secret.txt":    "top secret",
		"outside/dir/inner.txt": "inner",
		"root_secret/key":       "sibling",
		"root/a.txt":            "hello",
		"root/notes/todo.txt":   "todo",
	}
	for name, data := range files {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"link-file":    "../outside/secret.txt",
		"link-dir":     "../outside",
		"abs-file":     filepath.Join(base, "outside/secret.txt"),
		"abs-inside":   filepath.Join(root, "a.txt"),
		"dangling":     "../outside/new.txt",
		"abs-dangling": filepath.Join(base, "outside/new2.txt"),
		"sibling":      "../root_secret",
		"inner-link":   "a.txt",
		"loop":         "loop",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	rfs, err := OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rfs.Close() })
	sb := NewSandbox(rfs, SandboxOptions{HostRoot: root})
	return &testTree{base: base, root: root, fs: rfs, sb: sb}
}

// snapshot records every file, directory and link under the tree's base
// except the root: path, mode, size, modification time, content and link
// target.
func (tt *testTree) snapshot(t *testing.T) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(tt.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == tt.root {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		entry := fi.Mode().String() + " " + fi.ModTime().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			entry += " -> " + target
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += " " + string(data)
		}
		snap[p] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// assertUnchanged fails if the host folders outside the root differ from
// before.
func (tt *testTree) assertUnchanged(t *testing.T, before map[string]string) {
	t.Helper()
	after := tt.snapshot(t)
	for p, was := range before {
		if now, ok := after[p]; !ok {
			t.Errorf("outside the root, %s was removed", p)
		} else if now != was {
			t.Errorf("outside the root, %s changed:\n was %s\n now %s", p, was, now)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("outside the root, %s was created", p)
		}
	}
}

// assertNoHostPath fails if text contains the host path of the tree.
func (tt *testTree) assertNoHostPath(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, tt.base) {
		t.Errorf("%s shows the host path: %s", what, text)
	}
}

func TestRootFsMethods(t *testing.T) {
	tt := newTestTree(t)
	rfs := tt.fs

	t.Run("Name is RootFs", func(t *testing.T) {
		if rfs.Name() != "RootFs" {
			t.Errorf("Name() = %q", rfs.Name())
		}
	})
	t.Run("Open reads a file and names it relative to the root", func(t *testing.T) {
		f, err := rfs.Open("notes/todo.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		data, err := io.ReadAll(f)
		if err != nil || string(data) != "todo" {
			t.Errorf("read %q, %v; want todo", data, err)
		}
		if f.Name() != "notes/todo.txt" {
			t.Errorf("Name() = %q, want notes/todo.txt", f.Name())
		}
	})
	t.Run("a leading slash is stripped", func(t *testing.T) {
		f, err := rfs.Open("/notes/todo.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Name() != "notes/todo.txt" {
			t.Errorf("Name() = %q, want notes/todo.txt", f.Name())
		}
	})
	t.Run("the empty name and dot are the root", func(t *testing.T) {
		for _, name := range []string{"", ".", "/"} {
			f, err := rfs.Open(name)
			if err != nil {
				t.Fatalf("Open(%q) = %v", name, err)
			}
			fi, err := f.Stat()
			if err != nil || !fi.IsDir() {
				t.Errorf("Open(%q).Stat() = %v, %v; want the root directory", name, fi, err)
			}
			if f.Name() != "." || fi.Name() != "." {
				t.Errorf("Open(%q) names %q and %q, want .", name, f.Name(), fi.Name())
			}
			f.Close()
		}
	})
	t.Run("Readdir and Readdirnames list the root", func(t *testing.T) {
		f, err := rfs.Open(".")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fis, err := f.Readdir(-1)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, fi := range fis {
			names = append(names, fi.Name())
		}
		slices.Sort(names)
		want := []string{"a.txt", "abs-dangling", "abs-file", "abs-inside", "dangling", "inner-link", "link-dir", "link-file", "loop", "notes", "sibling"}
		if !slices.Equal(names, want) {
			t.Errorf("Readdir names = %q, want %q", names, want)
		}
		g, _ := rfs.Open("notes")
		defer g.Close()
		if got, err := g.Readdirnames(0); err != nil || !slices.Equal(got, []string{"todo.txt"}) {
			t.Errorf("Readdirnames = %q, %v", got, err)
		}
	})
	t.Run("ReadDir lists entries with their types", func(t *testing.T) {
		f, _ := rfs.Open(".")
		defer f.Close()
		des, err := f.(fs.ReadDirFile).ReadDir(-1)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			if de.Name() == "link-dir" && de.Type() != fs.ModeSymlink {
				t.Errorf("link-dir has type %v, want a symbolic link", de.Type())
			}
		}
	})
	t.Run("Create writes a new file", func(t *testing.T) {
		f, err := rfs.Create("new.txt")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("created"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("!")); err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if data, _ := os.ReadFile(filepath.Join(tt.root, "new.txt")); string(data) != "created!" {
			t.Errorf("the file holds %q", data)
		}
	})
	t.Run("OpenFile appends, seeks, reads at and writes at", func(t *testing.T) {
		f, err := rfs.OpenFile("app.txt", os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("ab")
		f.WriteString("cd")
		f.Close()
		f, err = rfs.OpenFile("app.txt", os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt([]byte("X"), 1); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 2)
		if _, err := f.ReadAt(buf, 1); err != nil || string(buf) != "Xc" {
			t.Errorf("ReadAt = %q, %v", buf, err)
		}
		if off, err := f.Seek(3, io.SeekStart); err != nil || off != 3 {
			t.Errorf("Seek = %d, %v", off, err)
		}
		if err := f.Truncate(1); err != nil {
			t.Fatal(err)
		}
		fi, _ := f.Stat()
		if fi.Size() != 1 || fi.Mode().Perm() != 0o600 {
			t.Errorf("after Truncate size %d mode %v", fi.Size(), fi.Mode())
		}
	})
	t.Run("Mkdir and MkdirAll create directories", func(t *testing.T) {
		if err := rfs.Mkdir("d1", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := rfs.MkdirAll("d2/x/y", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := rfs.MkdirAll("d2/x/y", 0o755); err != nil {
			t.Errorf("MkdirAll of an existing directory = %v", err)
		}
		if fi, err := rfs.Stat("d2/x/y"); err != nil || !fi.IsDir() {
			t.Errorf("Stat(d2/x/y) = %v, %v", fi, err)
		}
		if err := rfs.Mkdir("d1", 0o755); !errors.Is(err, fs.ErrExist) {
			t.Errorf("Mkdir of an existing directory = %v, want ErrExist", err)
		}
	})
	t.Run("Rename moves a file inside the root", func(t *testing.T) {
		rfs.MkdirAll("mv/sub", 0o755)
		afero.WriteFile(rfs, "mv/f", []byte("m"), 0o644)
		if err := rfs.Rename("mv/f", "mv/sub/g"); err != nil {
			t.Fatal(err)
		}
		if data, err := afero.ReadFile(rfs, "mv/sub/g"); err != nil || string(data) != "m" {
			t.Errorf("after Rename read %q, %v", data, err)
		}
	})
	t.Run("Remove and RemoveAll delete inside the root", func(t *testing.T) {
		afero.WriteFile(rfs, "rm.txt", nil, 0o644)
		if err := rfs.Remove("rm.txt"); err != nil {
			t.Fatal(err)
		}
		rfs.MkdirAll("rmall/a/b", 0o755)
		afero.WriteFile(rfs, "rmall/a/b/c", nil, 0o644)
		if err := rfs.RemoveAll("rmall"); err != nil {
			t.Fatal(err)
		}
		if _, err := rfs.Stat("rmall"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat after RemoveAll = %v", err)
		}
		if err := rfs.RemoveAll("never-there"); err != nil {
			t.Errorf("RemoveAll of a missing path = %v, want nil", err)
		}
	})
	t.Run("Chmod, Chown and Chtimes change a file", func(t *testing.T) {
		afero.WriteFile(rfs, "attr.txt", nil, 0o644)
		if err := rfs.Chmod("attr.txt", 0o600); err != nil {
			t.Fatal(err)
		}
		if err := rfs.Chown("attr.txt", os.Getuid(), os.Getgid()); err != nil {
			t.Fatal(err)
		}
		when := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
		if err := rfs.Chtimes("attr.txt", when, when); err != nil {
			t.Fatal(err)
		}
		fi, _ := rfs.Stat("attr.txt")
		if fi.Mode().Perm() != 0o600 || !fi.ModTime().Equal(when) {
			t.Errorf("mode %v time %v", fi.Mode(), fi.ModTime())
		}
	})
	t.Run("Stat follows a link inside the root", func(t *testing.T) {
		if fi, err := rfs.Stat("inner-link"); err != nil || fi.Size() != 5 {
			t.Errorf("Stat(inner-link) = %v, %v", fi, err)
		}
	})
	t.Run("LstatIfPossible describes the link itself", func(t *testing.T) {
		fi, used, err := rfs.LstatIfPossible("link-dir")
		if err != nil || !used || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("LstatIfPossible(link-dir) = %v, %v, %v", fi, used, err)
		}
	})
	t.Run("ReadlinkIfPossible returns the target as stored", func(t *testing.T) {
		if got, err := rfs.ReadlinkIfPossible("link-file"); err != nil || got != "../outside/secret.txt" {
			t.Errorf("ReadlinkIfPossible(link-file) = %q, %v", got, err)
		}
	})
	t.Run("SymlinkIfPossible creates a relative link inside the root", func(t *testing.T) {
		if err := rfs.SymlinkIfPossible("../a.txt", "notes/up"); err != nil {
			t.Fatal(err)
		}
		if data, err := afero.ReadFile(rfs, "notes/up"); err != nil || string(data) != "hello" {
			t.Errorf("read through the new link %q, %v", data, err)
		}
	})
	t.Run("errors from files never show the host path", func(t *testing.T) {
		f, err := rfs.Open("notes")
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Read(make([]byte, 1))
		if err == nil {
			t.Fatal("reading a directory did not fail")
		}
		tt.assertNoHostPath(t, "a read error", err.Error())
		if !strings.Contains(err.Error(), "notes") {
			t.Errorf("the read error %q does not name notes", err)
		}
		f.Close()
		err = f.Close()
		tt.assertNoHostPath(t, "a second Close", err.Error())
		_, err = f.Stat()
		tt.assertNoHostPath(t, "Stat after Close", err.Error())
	})
	t.Run("errors from the root never show the host path", func(t *testing.T) {
		for _, name := range []string{"missing/x", "link-file", "abs-file", "loop"} {
			f, err := rfs.Open(name)
			if err == nil {
				f.Close()
				t.Errorf("Open(%q) succeeded", name)
				continue
			}
			tt.assertNoHostPath(t, "an open error", err.Error())
		}
	})
	t.Run("the root itself cannot be removed or renamed", func(t *testing.T) {
		for name, err := range map[string]error{
			"Remove":    rfs.Remove("."),
			"RemoveAll": rfs.RemoveAll("/"),
			"Rename":    rfs.Rename("", "elsewhere"),
		} {
			pe, _ := errors.AsType[*PathError](tt.sb.Explain(strings.ToLower(name), ".", err))
			if pe == nil || pe.Reason != RootItself {
				t.Errorf("%s of the root = %v, want Reason RootItself", name, err)
			}
		}
		if data, err := os.ReadFile(filepath.Join(tt.root, "a.txt")); err != nil || string(data) != "hello" {
			t.Errorf("the root lost a.txt: %v", err)
		}
	})
}

func TestOpenRootRefusesWhatIsNotADirectory(t *testing.T) {
	tt := newTestTree(t)
	if _, err := OpenRoot(filepath.Join(tt.root, "a.txt")); err == nil {
		t.Error("OpenRoot of a file succeeded")
	}
	if _, err := OpenRoot(filepath.Join(tt.base, "missing")); err == nil {
		t.Error("OpenRoot of a missing directory succeeded")
	}
}

// escapeCase is one attack on the tree: do runs it, and the error must
// have the Reason want (after Explain) and, when msg is set, that message.
type escapeCase struct {
	name string
	do   func(tt *testTree) error
	want Reason
	msg  string
}

func TestRootFsRefusesEscapes(t *testing.T) {
	const (
		wrOnly = os.O_WRONLY | os.O_TRUNC
		create = os.O_WRONLY | os.O_CREATE
	)
	// explain runs a RootFs operation and explains its error.
	explain := func(tt *testTree, op, rel string, err error) error { return tt.sb.Explain(op, rel, err) }
	tests := []escapeCase{
		{name: "reading an outside file through a relative link fails", want: LinkOutside,
			msg: `"link-file" is a symbolic link that points outside the root; it cannot be followed`,
			do:  func(tt *testTree) error { _, _, err := tt.sb.OpenRead("link-file", false); return err }},
		{name: "reading an outside file through an absolute link fails", want: LinkOutside,
			msg: `"abs-file" is an absolute symbolic link; only relative links inside the root can be followed`,
			do:  func(tt *testTree) error { _, _, err := tt.sb.OpenRead("abs-file", false); return err }},
		{name: "reading through an absolute link pointing inside fails too", want: LinkOutside,
			do: func(tt *testTree) error { _, _, err := tt.sb.OpenRead("abs-inside", false); return err }},
		{name: "listing an outside directory through a link fails", want: LinkOutside,
			do: func(tt *testTree) error { _, _, err := tt.sb.OpenRead("link-dir", true); return err }},
		{name: "reading a file under a linked outside directory fails and names the link", want: LinkOutside,
			msg: `"link-dir" is a symbolic link that points outside the root; it cannot be followed`,
			do:  func(tt *testTree) error { _, _, err := tt.sb.OpenRead("link-dir/secret.txt", false); return err }},
		{name: "reading the sibling directory through a link fails", want: LinkOutside,
			do: func(tt *testTree) error { _, _, err := tt.sb.OpenRead("sibling/key", false); return err }},
		{name: "afero.ReadFile through a link fails", want: LinkOutside,
			do: func(tt *testTree) error {
				_, err := afero.ReadFile(tt.fs, "link-file")
				return explain(tt, "read", "link-file", err)
			}},
		{name: "writing an outside file through a link fails", want: LinkOutside,
			do: func(tt *testTree) error { _, err := tt.sb.OpenWrite("link-file", wrOnly, 0); return err }},
		{name: "truncating an outside file through a link with OpenFile fails", want: LinkOutside,
			do: func(tt *testTree) error {
				_, err := tt.fs.OpenFile("link-file", wrOnly, 0)
				return explain(tt, "write", "link-file", err)
			}},
		{name: "afero.WriteFile through an absolute link fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "write", "abs-file", afero.WriteFile(tt.fs, "abs-file", []byte("pwned"), 0o644))
			}},
		{name: "creating through a dangling link does not create the outside file", want: LinkOutside,
			do: func(tt *testTree) error {
				_, err := tt.fs.Create("dangling")
				return explain(tt, "write", "dangling", err)
			}},
		{name: "creating through an absolute dangling link does not create the outside file", want: LinkOutside,
			do: func(tt *testTree) error { _, err := tt.sb.OpenWrite("abs-dangling", create, 0o644); return err }},
		{name: "creating exclusively through a dangling link fails", want: Exists,
			do: func(tt *testTree) error { _, err := tt.sb.OpenWrite("dangling", create|os.O_EXCL, 0o644); return err }},
		{name: "creating a file under a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error { _, err := tt.sb.OpenWrite("link-dir/new.txt", create, 0o644); return err }},
		{name: "Mkdir under a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "mkdir", "link-dir/newdir", tt.fs.Mkdir("link-dir/newdir", 0o755))
			}},
		{name: "MkdirAll under a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "mkdir", "link-dir/a/b", tt.fs.MkdirAll("link-dir/a/b", 0o755))
			}},
		{name: "renaming into a linked outside directory fails", want: LinkOutside,
			msg: `"link-dir" is a symbolic link that points outside the root; it cannot be followed`,
			do: func(tt *testTree) error {
				return explain(tt, "rename", "a.txt", tt.fs.Rename("a.txt", "link-dir/a.txt"))
			}},
		{name: "renaming out of a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "rename", "link-dir/secret.txt", tt.fs.Rename("link-dir/secret.txt", "stolen.txt"))
			}},
		{name: "renaming to a dot-dot name outside fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "rename", "a.txt", tt.fs.Rename("a.txt", "../outside/a.txt"))
			}},
		{name: "renaming from a dot-dot name outside fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "rename", "../outside/secret.txt", tt.fs.Rename("../outside/secret.txt", "stolen.txt"))
			}},
		{name: "renaming from an absolute host name stays inside the root", want: NotExist,
			do: func(tt *testTree) error {
				name := filepath.Join(tt.base, "outside/secret.txt")
				return explain(tt, "rename", name, tt.fs.Rename(name, "stolen.txt"))
			}},
		{name: "renaming to an absolute host name stays inside the root", want: NotExist,
			do: func(tt *testTree) error {
				name := filepath.Join(tt.base, "outside/moved.txt")
				return explain(tt, "rename", "a.txt", tt.fs.Rename("a.txt", name))
			}},
		{name: "Resolve refuses dot-dot names before any rename", want: Escapes,
			do: func(tt *testTree) error { _, err := tt.sb.Resolve("../outside/secret.txt"); return err }},
		{name: "Resolve refuses the absolute host path of an outside file", want: Escapes,
			do: func(tt *testTree) error {
				_, err := tt.sb.Resolve(filepath.Join(tt.base, "outside/secret.txt"))
				return err
			}},
		{name: "Resolve refuses the sibling folder with the root as prefix", want: Escapes,
			do: func(tt *testTree) error { _, err := tt.sb.Resolve(tt.root + "_secret/key"); return err }},
		{name: "removing a file under a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "remove", "link-dir/secret.txt", tt.fs.Remove("link-dir/secret.txt"))
			}},
		{name: "RemoveAll under a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "remove", "link-dir/dir", tt.fs.RemoveAll("link-dir/dir"))
			}},
		{name: "Chmod through a link fails", want: LinkOutside,
			do: func(tt *testTree) error { return explain(tt, "chmod", "link-file", tt.fs.Chmod("link-file", 0o777)) }},
		{name: "Chtimes through a link fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "chtimes", "link-file", tt.fs.Chtimes("link-file", time.Unix(0, 0), time.Unix(0, 0)))
			}},
		{name: "Chown through a link fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "chown", "link-file", tt.fs.Chown("link-file", os.Getuid(), os.Getgid()))
			}},
		{name: "Stat through a link fails", want: LinkOutside,
			do: func(tt *testTree) error {
				_, err := tt.fs.Stat("link-dir/secret.txt")
				return explain(tt, "stat", "link-dir/secret.txt", err)
			}},
		{name: "a link loop is reported as too many links", want: TooManyLinks,
			do: func(tt *testTree) error { _, _, err := tt.sb.OpenRead("loop", false); return err }},
		{name: "creating a link with an absolute target fails", want: LinkOutside,
			msg: `cannot link "evil" to "/etc/passwd"; the target must be a relative path inside the root`,
			do: func(tt *testTree) error {
				return explain(tt, "symlink", "evil", tt.fs.SymlinkIfPossible("/etc/passwd", "evil"))
			}},
		{name: "creating a link with a target above the root fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "symlink", "notes/evil", tt.fs.SymlinkIfPossible("../../outside", "notes/evil"))
			}},
		{name: "creating a link under a linked outside directory fails", want: LinkOutside,
			do: func(tt *testTree) error {
				return explain(tt, "symlink", "link-dir/evil", tt.fs.SymlinkIfPossible("secret.txt", "link-dir/evil"))
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTestTree(t)
			before := tt.snapshot(t)
			err := tc.do(tt)
			tt.assertUnchanged(t, before)
			if err == nil {
				t.Fatal("the attack succeeded")
			}
			pe, ok := errors.AsType[*PathError](err)
			if !ok {
				t.Fatalf("error %T %v is not a *PathError", err, err)
			}
			if pe.Reason != tc.want {
				t.Errorf("Reason = %v (%v), want %v", pe.Reason, err, tc.want)
			}
			if tc.msg != "" && err.Error() != tc.msg {
				t.Errorf("message\n got %s\nwant %s", err.Error(), tc.msg)
			}
			tt.assertNoHostPath(t, "the message", err.Error())
		})
	}
}

func TestRemovingALinkKeepsItsOutsideTarget(t *testing.T) {
	for _, name := range []string{"link-dir", "link-file", "sibling"} {
		t.Run("RemoveAll of "+name+" removes only the link", func(t *testing.T) {
			tt := newTestTree(t)
			before := tt.snapshot(t)
			if err := tt.fs.RemoveAll(name); err != nil {
				t.Fatal(err)
			}
			tt.assertUnchanged(t, before)
			if _, err := os.Lstat(filepath.Join(tt.root, name)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the link is still there: %v", err)
			}
		})
	}
}

func TestProcAndDevNamesAreInsideTheRoot(t *testing.T) {
	tt := newTestTree(t)
	before := tt.snapshot(t)
	for _, p := range []string{"proc/self/root/etc/passwd", "proc/self/cwd", "dev/null", "dev/stdin"} {
		rel, err := tt.sb.Resolve(p)
		if err != nil || rel != p {
			t.Fatalf("Resolve(%q) = %q, %v", p, rel, err)
		}
		_, _, err = tt.sb.OpenRead(rel, false)
		if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != NotExist {
			t.Errorf("OpenRead(%q) = %v, want Reason NotExist: the name is inside the root", p, err)
		}
	}
	f, err := tt.sb.OpenWrite("dev/null", os.O_WRONLY|os.O_CREATE, 0o644)
	if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != NotExist {
		t.Errorf("OpenWrite(dev/null) without a dev folder = %v, want NotExist", err)
	}
	if f != nil {
		f.Close()
	}
	tt.fs.Mkdir("dev", 0o755)
	f, err = tt.sb.OpenWrite("dev/null", os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatalf("OpenWrite(dev/null) = %v", err)
	}
	f.WriteString("just a file")
	f.Close()
	if data, _ := os.ReadFile(filepath.Join(tt.root, "dev/null")); string(data) != "just a file" {
		t.Errorf("dev/null inside the root holds %q", data)
	}
	tt.assertUnchanged(t, before)
}

func TestFilesNeverShowTheHostPath(t *testing.T) {
	tt := newTestTree(t)
	for _, p := range []string{"a.txt", "notes/todo.txt", "inner-link", tt.root + "/notes/todo.txt", "."} {
		f, fi, err := tt.sb.OpenRead(p, true)
		if err != nil {
			t.Fatalf("OpenRead(%q) = %v", p, err)
		}
		tt.assertNoHostPath(t, "File.Name()", f.Name())
		tt.assertNoHostPath(t, "FileInfo.Name()", fi.Name())
		if f.Name() == "" || strings.HasPrefix(f.Name(), "/") {
			t.Errorf("OpenRead(%q).Name() = %q, want a relative name", p, f.Name())
		}
		f.Close()
	}
}

func TestOpenReadReadsThroughALinkInsideTheRoot(t *testing.T) {
	tt := newTestTree(t)
	f, _, err := tt.sb.OpenRead("inner-link", false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, f); err != nil || buf.String() != "hello" {
		t.Errorf("read %q, %v; want hello", buf.String(), err)
	}
}
