package fs

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// readResource reads uri through the server as a client's resources/read
// does, and returns its one content, or the error.
func (e *env) readResource(t *testing.T, uri string) (server.ResourceContents, error) {
	t.Helper()
	contents, err := e.srv.ReadResource(context.Background(), uri)
	if err != nil {
		return server.ResourceContents{}, err
	}
	if len(contents) != 1 {
		t.Fatalf("%s: %d contents", uri, len(contents))
	}
	return contents[0], nil
}

// TestResourcesReadAsTheToolsDo: a text file whole, a binary file and an
// image as blobs, a folder as its listing, a name that needs escaping,
// and an ignored file (resources ignore nothing, as read_file).
func TestResourcesReadAsTheToolsDo(t *testing.T) {
	bothFS(t, security.Limits{MaxReadBytes: 64}, func(t *testing.T, e *env) {
		e.write(t, "notes/a.txt", "alpha\n")
		e.write(t, "bin.dat", "x\x00y")
		e.write(t, "img.png", "\x89PNG\r\n\x1a\nrest")
		e.write(t, "a b/ü.md", "u\n")
		e.write(t, ".gitignore", "secret.txt\n")
		e.write(t, "secret.txt", "kept\n")
		for _, c := range []struct{ uri, mime, text, blob string }{
			{"toolserver:///notes/a.txt", textMIME, "alpha\n", ""},
			{"toolserver:///bin.dat", "application/octet-stream", "", "x\x00y"},
			{"toolserver:///img.png", "image/png", "", "\x89PNG\r\n\x1a\nrest"},
			{"toolserver:///a%20b/%C3%BC.md", textMIME, "u\n", ""},
			{"toolserver:///secret.txt", textMIME, "kept\n", ""},
			{"toolserver:///notes", resourceDirMIME, "a.txt\nnotes: 0 directories, 1 file.\n", ""},
			{"toolserver:///notes/", resourceDirMIME, "a.txt\nnotes: 0 directories, 1 file.\n", ""},
		} {
			got, err := e.readResource(t, c.uri)
			if err != nil {
				t.Errorf("%s: %v", c.uri, err)
				continue
			}
			if got.URI != c.uri || got.MIMEType != c.mime || got.Text != c.text || !bytes.Equal(got.Blob, []byte(c.blob)) && c.blob != "" {
				t.Errorf("%s = %+v, want %s %q %q", c.uri, got, c.mime, c.text, c.blob)
			}
		}
		e.write(t, "edge.txt", strings.Repeat("line\n", 12)+"abcd")
		e.write(t, "edge.bin", strings.Repeat("\x00", 64))
		if got, err := e.readResource(t, "toolserver:///edge.txt"); err != nil || len(got.Text) != 64 {
			t.Errorf("a text of exactly the read limit: %+v %v", got, err)
		}
		if got, err := e.readResource(t, "toolserver:///edge.bin"); err != nil || len(got.Blob) != 64 {
			t.Errorf("a blob of exactly the read limit: %+v %v", got, err)
		}
		e.write(t, "big.txt", strings.Repeat("line\n", 20))
		e.write(t, "big.bin", strings.Repeat("\x00", 65))
		for _, uri := range []string{"toolserver:///big.txt", "toolserver:///big.bin"} {
			if _, err := e.readResource(t, uri); err == nil || server.IsResourceNotFound(err) || !strings.Contains(err.Error(), "more than the 64 bytes a resource read returns; read_file reads it in parts") {
				t.Errorf("%s past the read limit: %v", uri, err)
			}
		}
	})
}

// TestNoResourceLeavesTheSandbox runs the path attacks of the tools
// through resources/read: each is the URI not found, and nothing outside
// the root is read.
func TestNoResourceLeavesTheSandbox(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.write(t, "in.txt", "in\n")
	e.symlink(t, filepath.Join(outside, "secret"), "abs-link")
	e.symlink(t, "../"+filepath.Base(outside)+"/secret", "rel-link")
	e.symlink(t, outside, "dir-link")
	for _, uri := range []string{
		"toolserver:///../" + filepath.Base(outside) + "/secret",
		"toolserver:///%2e%2e/" + filepath.Base(outside) + "/secret",
		"toolserver:///a/../../x",
		"toolserver:///abs-link",
		"toolserver:///rel-link",
		"toolserver:///dir-link/secret",
		"toolserver:///in.txt%00",
		"toolserver:///%5Cin.txt",
		"toolserver:///~/in.txt",
		"toolserver:///C:/in.txt",
		"toolserver://" + outside + "/secret",
		"toolserver://other/in.txt",
		"file://" + filepath.Join(e.dir, "in.txt"),
		"toolserver:///missing.txt",
		"TOOLSERVER:///in.txt",
	} {
		got, err := e.readResource(t, uri)
		if !server.IsResourceNotFound(err) {
			t.Errorf("%s: %+v, %v; want the URI not found", uri, got, err)
		}
	}
	if got, err := e.readResource(t, "toolserver:///in.txt"); err != nil || got.Text != "in\n" {
		t.Fatalf("the file inside: %+v %v", got, err)
	}
}

// TestResourcesFollowTheClientsRootsAndEveryRootsName: with several roots
// each has its resource and template by name, a read-only root is read,
// and a path the client's roots leave out is not found.
func TestResourcesFollowTheClientsRootsAndEveryRootsName(t *testing.T) {
	e, one, two := newMultiEnv(t, true)
	for _, f := range []struct {
		fsys afero.Fs
		name string
	}{{one, "a/x.txt"}, {one, "b.txt"}, {two, "y.txt"}} {
		if err := f.fsys.MkdirAll("a", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(f.fsys, f.name, []byte(f.name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := e.readResource(t, "toolserver://one/a/x.txt"); err != nil || got.Text != "a/x.txt" {
		t.Errorf("one: %+v %v", got, err)
	}
	if got, err := e.readResource(t, "toolserver://two/y.txt"); err != nil || got.Text != "y.txt" {
		t.Errorf("two, read-only: %+v %v", got, err)
	}
	if _, err := e.readResource(t, "toolserver:///a/x.txt"); !server.IsResourceNotFound(err) {
		t.Errorf("no root named: %v", err)
	}
	e.sb.Restrict([]string{"one:/a"})
	if _, err := e.readResource(t, "toolserver://one/b.txt"); !server.IsResourceNotFound(err) {
		t.Errorf("outside the client's roots: %v", err)
	}
	if got, err := e.readResource(t, "toolserver://one/a/x.txt"); err != nil || got.Text != "a/x.txt" {
		t.Errorf("inside the client's roots: %+v %v", got, err)
	}
}

// TestResourceURIIsWhatTheTemplateReadsBack: the URI ResourceURI builds
// from a path the tools show names that path, with one root and with
// several.
func TestResourceURIIsWhatTheTemplateReadsBack(t *testing.T) {
	for _, c := range []struct {
		path  string
		multi bool
		want  string
	}{
		{"src/main.go", false, "toolserver:///src/main.go"},
		{".", false, "toolserver:///"},
		{"a b/ü?#%.md", false, "toolserver:///a%20b/%C3%BC%3F%23%25.md"},
		{"notes:/todo.md", true, "toolserver://notes/todo.md"},
		{"notes:", true, "toolserver://notes/"},
	} {
		if got := ResourceURI(c.path, c.multi); got != c.want {
			t.Errorf("ResourceURI(%q, %v) = %q, want %q", c.path, c.multi, got, c.want)
		}
	}
	e := newMemEnv(t, security.Limits{})
	e.write(t, "a b/ü?#%.md", "odd\n")
	if got, err := e.readResource(t, ResourceURI("a b/ü?#%.md", false)); err != nil || got.Text != "odd\n" {
		t.Errorf("read back: %+v %v", got, err)
	}
}

// FuzzReadResourceURI reads any URI as resources/read would: it never
// panics, reads only the files of the root, and answers a URI it serves
// with contents of that URI; the URI ResourceURI builds for any name the
// tools could show reads that file back.
func FuzzReadResourceURI(f *testing.F) {
	for _, seed := range []string{"toolserver:///in.txt", "toolserver:///%2e%2e/x", "toolserver://x/y", "toolserver:///a%00b", "toolserver:///" + strings.Repeat("a/", 100), "file:///etc", "toolserver:///{+path}", ""} {
		f.Add(seed, "in.txt")
	}
	e := newMemEnv(f, security.Limits{})
	e.write(f, "in.txt", "inside\n")
	f.Fuzz(func(t *testing.T, uri, name string) {
		contents, err := e.srv.ReadResource(context.Background(), uri)
		if err == nil {
			if len(contents) != 1 || contents[0].URI != uri {
				t.Fatalf("%q: %+v", uri, contents)
			}
			if c := contents[0]; c.Text != "inside\n" && !strings.Contains(c.Text, "in.txt\n") {
				t.Fatalf("%q read %+v", uri, c)
			}
		}
		if _, _, ok := security.ClassPath.Check(name); !ok || strings.ContainsAny(name, "/\\") || name == "." || name == ".." || strings.HasPrefix(name, "~") {
			return
		}
		if _, err := e.sb.Resolve(name); err != nil {
			return
		}
		if err := afero.WriteFile(e.fs, name, []byte("named\n"), 0o644); err != nil {
			return
		}
		defer e.fs.Remove(name)
		got, err := e.srv.ReadResource(context.Background(), ResourceURI(name, false))
		if err != nil || len(got) != 1 || got[0].Text != "named\n" && name != "in.txt" {
			t.Fatalf("%q as %s: %+v %v", name, ResourceURI(name, false), got, err)
		}
	})
}

// TestCompletionOffersTheEntriesOfTheFolderTyped: the path argument of a
// root's template completes as a shell does.
func TestCompletionOffersTheEntriesOfTheFolderTyped(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, name := range []string{"src/main.go", "src/main_test.go", "src/lib/a.go", "src/.hidden", "README.md",
			".gitignore", "build/out.bin", "notes.txt"} {
			e.write(t, name, "x")
		}
		e.write(t, ".gitignore", "build/\n")
		for i := range 150 {
			e.write(t, fmt.Sprintf("many/f%03d", i), "")
		}
		const tmpl = "toolserver:///{+path}"
		for _, c := range []struct {
			value, want string
			total       int
			more        bool
		}{
			{"", "README.md many/ notes.txt src/", 4, false},
			{"src/", "src/lib/ src/main.go src/main_test.go", 3, false},
			{"src/ma", "src/main.go src/main_test.go", 2, false},
			{"src/.", "src/.hidden", 1, false},
			{".", ".gitignore", 1, false},
			{"b", "", 0, false},
			{"nope/", "", 0, false},
			{"../", "", 0, false},
			{"README.md/", "", 0, false},
			{"many/f14", "many/f140 many/f141 many/f142 many/f143 many/f144 many/f145 many/f146 many/f147 many/f148 many/f149", 10, false},
		} {
			got, err := e.srv.Complete(context.Background(), tmpl, "path", c.value, nil)
			if err != nil || strings.Join(got.Values, " ") != c.want || got.Total != c.total || got.HasMore != c.more {
				t.Errorf("%q: %+v %v; want %q, total %d", c.value, got, err, c.want, c.total)
			}
		}
		got, err := e.srv.Complete(context.Background(), tmpl, "path", "many/", nil)
		if err != nil || len(got.Values) != 100 || got.Values[0] != "many/f000" || got.Values[99] != "many/f099" || got.Total != 150 || !got.HasMore {
			t.Errorf("150 entries: %d values, total %d, more %v, %v", len(got.Values), got.Total, got.HasMore, err)
		}
	})
}

// TestCompletionNamesEveryRootsPaths: with several roots each template
// completes the paths of its own root, as they are written in its URIs.
func TestCompletionNamesEveryRootsPaths(t *testing.T) {
	e, one, two := newMultiEnv(t, true)
	if err := afero.WriteFile(one, "a/x.txt", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(two, "a/y.txt", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for tmpl, want := range map[string]string{"toolserver://one/{+path}": "a/x.txt", "toolserver://two/{+path}": "a/y.txt"} {
		got, err := e.srv.Complete(context.Background(), tmpl, "path", "a/", nil)
		if err != nil || strings.Join(got.Values, " ") != want {
			t.Errorf("%s: %+v %v; want %s", tmpl, got, err, want)
		}
	}
}

// TestCompletedNamesReadBack: a completed name is written as the tools
// show it (escaped), so that the URI a client expands from it reads the
// file (found in review: a backslash or a line break in a name was
// offered raw, and its URI was not found).
func TestCompletedNamesReadBack(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "new\nline", "n")
	e.write(t, `back\slash`, "b")
	for _, prefix := range []string{"n", "b"} {
		c, err := e.srv.Complete(context.Background(), "toolserver:///{+path}", "path", prefix, nil)
		if err != nil || len(c.Values) != 1 {
			t.Fatalf("%q: %+v %v", prefix, c, err)
		}
		uri := "toolserver:///" + (&url.URL{Path: c.Values[0]}).EscapedPath()
		if got, err := e.readResource(t, uri); err != nil || got.Text != prefix {
			t.Errorf("completion offered %q, whose URI %s reads %+v, %v", c.Values[0], uri, got, err)
		}
	}
}

// TestNoHostPathIsAResourceOrACompletion: a path after the URI's root
// that is absolute would name the host's folders, even inside the root;
// it is not found, and completes to nothing. So is a path too long.
func TestNoHostPathIsAResourceOrACompletion(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "in.txt", "in\n")
	host := (&url.URL{Path: filepath.ToSlash(filepath.Join(e.dir, "in.txt"))}).EscapedPath()
	for _, uri := range []string{"toolserver:///" + host, "toolserver://" + host, "toolserver:///" + strings.Repeat("a", 6000)} {
		if _, err := e.readResource(t, uri); !server.IsResourceNotFound(err) {
			t.Errorf("%.80s: %v; want not found", uri, err)
		}
	}
	c, err := e.srv.Complete(context.Background(), "toolserver:///{+path}", "path", filepath.ToSlash(e.dir)+"/", nil)
	if err != nil || len(c.Values) != 0 {
		t.Errorf("a host path completed: %+v %v", c, err)
	}
}
