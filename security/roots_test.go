package security

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// multiFixture is a sandbox over four roots on real folders:
//
//	src     writable, the first root, at base/src
//	notes   read-only, at base/notes
//	vendor  read-only, at base/src/vendor (nested in src)
//	same    writable, at base/notes (the folder of notes)
//
// src holds a.txt, vendor/v.txt, deep/inner/x.txt, a link lnk -> vendor
// and a link flink -> vendor/v.txt; notes holds todo.md.
type multiFixture struct {
	base string
	sb   *Sandbox
}

func newMultiFixture(t testing.TB) *multiFixture {
	t.Helper()
	base := t.TempDir()
	for _, d := range []string{"src/vendor", "src/deep/inner", "notes", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"src/a.txt": "a", "src/vendor/v.txt": "v", "src/deep/inner/x.txt": "x", "notes/todo.md": "todo", "outside/secret": "s"} {
		if err := os.WriteFile(filepath.Join(base, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("vendor", filepath.Join(base, "src/lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("vendor/v.txt", filepath.Join(base, "src/flink")); err != nil {
		t.Fatal(err)
	}
	sb := rootsIn(t, base, rootSpec{"src", "src", false}, rootSpec{"notes", "notes", true}, rootSpec{"vendor", "src/vendor", true}, rootSpec{"same", "notes", false})
	return &multiFixture{base: base, sb: sb}
}

// rootSpec is a root for rootsIn: its name, its folder below the base,
// and whether it is read-only.
type rootSpec struct {
	name, dir string
	ro        bool
}

// rootsIn opens a sandbox over the roots, folders below base that exist.
func rootsIn(t testing.TB, base string, specs ...rootSpec) *Sandbox {
	t.Helper()
	var roots []Root
	for _, r := range specs {
		dir := filepath.Join(base, r.dir)
		rfs, err := OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rfs.Close() })
		roots = append(roots, Root{Name: r.name, Fs: rfs, HostPath: dir, ReadOnly: r.ro})
	}
	sb, err := NewRoots(roots, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

func TestMultiResolve(t *testing.T) {
	f := newMultiFixture(t)
	abs := func(p string) string { return filepath.ToSlash(filepath.Join(f.base, p)) }
	tests := []struct {
		in, want string
		reason   Reason // when refused
		says     string // a part of the refusal
	}{
		{in: "a.txt", want: "src:/a.txt"},
		{in: ".", want: "src:"},
		{in: "./deep/../a.txt", want: "src:/a.txt"},
		{in: "src:/a.txt", want: "src:/a.txt"},
		{in: "src:a.txt", want: "src:/a.txt"},
		{in: "src:", want: "src:"},
		{in: "src:/", want: "src:"},
		{in: "notes:/todo.md", want: "notes:/todo.md"},
		{in: "notes://todo.md", want: "notes:/todo.md"},
		{in: "vendor:/v.txt", want: "vendor:/v.txt"},
		{in: "src:/vendor/v.txt", want: "src:/vendor/v.txt"},
		{in: abs("src/a.txt"), want: "src:/a.txt"},
		{in: abs("src"), want: "src:"},
		{in: abs("src/vendor/v.txt"), want: "vendor:/v.txt"}, // the innermost root
		{in: abs("notes/todo.md"), reason: Ambiguous, says: `"notes:/todo.md" or "same:/todo.md"`},
		{in: abs("outside/secret"), reason: Escapes, says: "outside every root"},
		{in: abs("src") + "x/a", reason: Escapes},
		{in: "notes:/../outside/secret", reason: Escapes, says: `such as "notes:/outside/secret"`},
		{in: "notes:..", reason: Escapes},
		{in: "../outside", reason: Escapes, says: `"src:/outside"`},
		{in: "nope:/x", reason: NotExist, says: `the root "nope", which does not exist`},
		{in: "nope:", reason: NotExist, says: `"src:", "notes:", "vendor:" or …`},
		{in: "nope:x", want: "src:/nope:x"}, // an ordinary name in the first root
		{in: "a:b", want: "src:/a:b"},
		{in: "c:/x", reason: WindowsPath},
		{in: "~/x", reason: Tilde},
		{in: "src:/~x", reason: Tilde}, // as with one root, so that "~x" is never shown
		{in: "notes:/a\\u{0}", reason: Control},
	}
	for _, tt := range tests {
		got, err := f.sb.Resolve(tt.in)
		if tt.want != "" {
			if err != nil || got != tt.want {
				t.Errorf("Resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		var pe *PathError
		if !errors.As(err, &pe) || pe.Reason != tt.reason {
			t.Errorf("Resolve(%q) = %q, %v; want a refusal for %v", tt.in, got, err, tt.reason)
			continue
		}
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Resolve(%q) says %q; want it to contain %q", tt.in, err, tt.says)
		}
		if strings.Contains(err.Error(), f.base) && !strings.HasPrefix(tt.in, "/") {
			t.Errorf("Resolve(%q) shows a host path: %q", tt.in, err)
		}
	}
}

func TestMultiResolveRefusesAmbiguousNames(t *testing.T) {
	f := newMultiFixture(t)
	for _, name := range []string{"notes:", "notes:todo.md"} {
		if err := os.Mkdir(filepath.Join(f.base, "src", name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The form the tools show always names the root.
	for _, p := range []string{"notes:/todo.md", "notes:"} {
		if got, err := f.sb.Resolve(p); err != nil || !strings.HasPrefix(got, "notes:") {
			t.Errorf("Resolve(%q) with an entry \"notes:\" in the first root = %q, %v; want the root notes", p, got, err)
		}
	}
	// The first root's entry, named with the first root.
	if got, err := f.sb.Resolve("src:/notes:/x"); err != nil || got != "src:/notes:/x" {
		t.Errorf("Resolve(src:/notes:/x) = %q, %v", got, err)
	}
	// Without the slash, both readings exist: refused, with both.
	_, err := f.sb.Resolve("notes:todo.md")
	var pe *PathError
	if !errors.As(err, &pe) || pe.Reason != Ambiguous {
		t.Fatalf("Resolve(notes:todo.md) with an entry \"notes:todo.md\" in the first root = %v; want Ambiguous", err)
	}
	for _, want := range []string{`"notes:/todo.md"`, `"src:/notes:todo.md"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not show the reading %s", err, want)
		}
	}
	// A folder that looks like a root name but names none is a folder.
	if err := os.Mkdir(filepath.Join(f.base, "src", "docs:"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := f.sb.Resolve("docs:/x"); err != nil || got != "src:/docs:/x" {
		t.Errorf("Resolve(docs:/x) = %q, %v; want the folder docs: of the first root", got, err)
	}
}

func TestMultiResolvedPathsResolveToThemselves(t *testing.T) {
	f := newMultiFixture(t)
	for _, p := range []string{"a.txt", "notes:", "vendor:/v.txt", "deep/inner", "src:/deep/../deep"} {
		rel, err := f.sb.Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.sb.Resolve(rel)
		if err != nil || again != rel {
			t.Errorf("Resolve(Resolve(%q) = %q) = %q, %v", p, rel, again, err)
		}
	}
}

// isReadOnlyRoot reports whether err is a refusal for a read-only root.
func isReadOnlyRoot(err error) bool {
	var pe *PathError
	return errors.As(err, &pe) && pe.Reason == ReadOnlyRoot
}

func TestMultiReadOnlyRootsRefuseEveryChange(t *testing.T) {
	f := newMultiFixture(t)
	fsys := f.sb.Fs()
	changes := map[string]func(p string) error{
		"create":   func(p string) error { _, err := fsys.OpenFile(p+"/new", os.O_CREATE|os.O_WRONLY, 0o644); return err },
		"truncate": func(p string) error { _, err := fsys.OpenFile(p+"/v", os.O_WRONLY|os.O_TRUNC, 0); return err },
		"append":   func(p string) error { _, err := fsys.OpenFile(p+"/v", os.O_WRONLY|os.O_APPEND, 0); return err },
		"mkdir":    func(p string) error { return fsys.Mkdir(p+"/d", 0o755) },
		"mkdirall": func(p string) error { return fsys.MkdirAll(p+"/d/e", 0o755) },
		"remove":   func(p string) error { return fsys.Remove(p + "/v") },
		"removeall": func(p string) error {
			return fsys.RemoveAll(p + "/v")
		},
		"rename":  func(p string) error { return fsys.Rename(p+"/v", p+"/w") },
		"chmod":   func(p string) error { return fsys.Chmod(p+"/v", 0o600) },
		"symlink": func(p string) error { return fsys.(afero.Linker).SymlinkIfPossible("v", p+"/l") },
	}
	// Each read-only root, by its own name and through the writable root
	// it is nested in: by path, and through a symbolic link.
	files := map[string]string{"notes:": "todo.md", "vendor:": "v.txt", "src:/vendor": "v.txt", "src:/lnk": "v.txt"}
	for dir, file := range files {
		for name, change := range changes {
			p := dir
			var err error
			switch name {
			case "truncate", "append", "remove", "removeall", "rename", "chmod":
				p += "/" + file
				err = changeFile(fsys, name, p)
			default:
				err = change(p)
			}
			if err == nil || !isReadOnlyRoot(f.sb.Explain(name, p, err)) {
				t.Errorf("%s in %s: %v; want a read-only refusal", name, p, err)
			}
		}
	}
	// Nothing changed on disk.
	for _, name := range []string{"notes/todo.md", "src/vendor/v.txt"} {
		if b, err := os.ReadFile(filepath.Join(f.base, name)); err != nil || len(b) == 0 {
			t.Errorf("%s changed: %q, %v", name, b, err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(f.base, "src/vendor")); len(ents) != 1 {
		t.Errorf("src/vendor holds %d entries, want 1", len(ents))
	}
	// The same folder as notes, through the writable root same, may change.
	if err := afero.WriteFile(fsys, "same:/new.md", []byte("n"), 0o644); err != nil {
		t.Errorf("writing through the writable root on the folder of a read-only one: %v", err)
	}
	// And the rest of src may change.
	if err := afero.WriteFile(fsys, "src:/deep/new.txt", []byte("n"), 0o644); err != nil {
		t.Errorf("writing in src: %v", err)
	}
}

// TestMultiReadOnlyRootsRefuseAnUnnamedFile: the several-roots file
// system refuses to make a file without a name (O_TMPFILE, which an
// atomic write links into place once full) in a read-only root, by its
// own name, nested in a writable root, and through a symbolic link, as it
// refuses a named one; in a writable root it makes one.
func TestMultiReadOnlyRootsRefuseAnUnnamedFile(t *testing.T) {
	f := newMultiFixture(t)
	uc, ok := f.sb.Fs().(interface{ Unwrap() afero.Fs }).Unwrap().(interface {
		CreateUnnamed(string, os.FileMode) (*UnnamedFile, error)
	})
	if !ok {
		t.Fatal("the file system of several roots has no CreateUnnamed")
	}
	for _, dir := range []string{"notes:", "vendor:", "src:/vendor", "src:/lnk"} {
		u, err := uc.CreateUnnamed(dir, 0o644)
		if u != nil {
			linkErr := u.Link(".toolserver-0000000000000000.tmp", "planted.txt")
			u.Close()
			t.Errorf("CreateUnnamed(%q) made a file (linked: %v)", dir, linkErr)
		}
		if !isReadOnlyRoot(f.sb.Explain("write", dir, err)) {
			t.Errorf("CreateUnnamed(%q) = %v; want a read-only refusal", dir, err)
		}
	}
	for _, name := range []string{"notes/planted.txt", "src/vendor/planted.txt"} {
		if _, err := os.Lstat(filepath.Join(f.base, name)); err == nil {
			t.Errorf("%s was linked into a read-only root", name)
		}
	}
	u, err := uc.CreateUnnamed("src:/deep", 0o644)
	if errors.Is(err, errors.ErrUnsupported) {
		return // no O_TMPFILE here; the refusals above came first
	}
	if err != nil {
		t.Fatalf("CreateUnnamed in the writable root src: %v", err)
	}
	u.Close()
}

// changeFile makes the change called name to the existing file p.
func changeFile(fsys afero.Fs, name, p string) error {
	switch name {
	case "truncate":
		_, err := fsys.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
		return err
	case "append":
		_, err := fsys.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		return err
	case "remove":
		return fsys.Remove(p)
	case "removeall":
		return fsys.RemoveAll(p)
	case "rename":
		return fsys.Rename(p, p+".moved")
	case "chmod":
		return fsys.Chmod(p, 0o600)
	}
	return nil
}

func TestMultiNestedReadOnlyRootCannotBeRemovedOrMovedWithItsParent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("identity checks are Unix only")
	}
	f := newMultiFixture(t)
	if err := os.MkdirAll(filepath.Join(f.base, "src/deep/inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := f.sb.Fs()
	for _, p := range []string{"src:/vendor", "src:/lnk/.."} {
		if err := fsys.RemoveAll(p); !isReadOnlyRoot(f.sb.Explain("remove", p, err)) {
			t.Errorf("RemoveAll(%s) = %v; want a refusal", p, err)
		}
	}
	if err := fsys.Rename("src:/vendor", "src:/v2"); !isReadOnlyRoot(f.sb.Explain("rename", "src:/vendor", err)) {
		t.Errorf("Rename(src:/vendor) = %v; want a refusal", err)
	}
	if _, err := f.sb.ResolveRemove("src:/vendor"); !isReadOnlyRoot(err) {
		t.Errorf("ResolveRemove(src:/vendor) = %v; want a refusal", err)
	}
	if _, err := f.sb.ResolveWrite("src:/lnk/v.txt"); !isReadOnlyRoot(err) {
		t.Errorf("ResolveWrite(src:/lnk/v.txt) = %v; want a refusal (through a link)", err)
	}
	if _, err := f.sb.ResolveWrite("src:/flink"); !isReadOnlyRoot(err) {
		t.Errorf("ResolveWrite(src:/flink) = %v; want a refusal (a link to a file in the read-only root)", err)
	}
	if _, err := f.sb.ResolveRemove("src:/flink"); err != nil {
		t.Errorf("ResolveRemove(src:/flink) = %v; removing the link itself changes only src", err)
	}
	if rel, err := f.sb.ResolveNew("src:/deep/inner/new.txt"); err != nil || rel != "src:/deep/inner/new.txt" {
		t.Errorf("ResolveNew in src = %q, %v", rel, err)
	}
	if _, err := os.Stat(filepath.Join(f.base, "src/vendor/v.txt")); err != nil {
		t.Errorf("the nested read-only root lost a file: %v", err)
	}
}

func TestMultiHoldingDirectoryOfANestedRootCannotBeRemoved(t *testing.T) {
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "w/a/b/ro"), 0o755); err != nil {
		t.Fatal(err)
	}
	open := func(dir string) afero.Fs {
		r, err := OpenRoot(filepath.Join(base, dir))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	sb, err := NewRoots([]Root{
		{Name: "ww", Fs: open("w"), HostPath: filepath.Join(base, "w")},
		{Name: "ro", Fs: open("w/a/b/ro"), HostPath: filepath.Join(base, "w/a/b/ro"), ReadOnly: true},
	}, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(base, "w/alias")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ww:/a", "ww:/a/b"} {
		if _, err := sb.ResolveRemove(p); !isReadOnlyRoot(err) || !strings.Contains(err.Error(), "holds the read-only root") {
			t.Errorf("ResolveRemove(%s) = %v; want a refusal saying it holds the root", p, err)
		}
		if err := sb.Fs().Rename(p, "ww:/elsewhere"); !isReadOnlyRoot(sb.Explain("rename", p, err)) {
			t.Errorf("Rename(%s) = %v; want a refusal", p, err)
		}
	}
	// Through a link to the holding directory, by identity.
	if err := sb.Fs().RemoveAll("ww:/alias/b"); !isReadOnlyRoot(sb.Explain("remove", "ww:/alias/b", err)) {
		t.Errorf("RemoveAll(w:/alias/b) = %v; want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(base, "w/a/b/ro")); err != nil {
		t.Errorf("the read-only root is gone: %v", err)
	}
	// Removing the link itself is fine.
	if err := sb.Fs().Remove("ww:/alias"); err != nil {
		t.Errorf("Remove(w:/alias) = %v", err)
	}
}

func TestMultiRenameAcrossRootsIsCrossDevice(t *testing.T) {
	f := newMultiFixture(t)
	err := f.sb.Fs().Rename("src:/a.txt", "same:/a.txt")
	if !errors.Is(err, syscall.EXDEV) {
		t.Fatalf("Rename across roots = %v; want EXDEV", err)
	}
	var le *os.LinkError
	if !errors.As(err, &le) || le.Old != "src:/a.txt" || le.New != "same:/a.txt" {
		t.Errorf("Rename across roots = %#v; want the paths with their roots", err)
	}
	if err := f.sb.Fs().Rename("src:/a.txt", "src:/deep/a.txt"); err != nil {
		t.Errorf("Rename within a root: %v", err)
	}
}

func TestMultiErrorsCarryTheRootName(t *testing.T) {
	f := newMultiFixture(t)
	_, err := f.sb.Fs().Stat("notes:/missing")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "notes:/missing" {
		t.Errorf("Stat(notes:/missing) = %v; want the path with its root", err)
	}
	if got := f.sb.Explain("read", "notes:/missing", err).Error(); !strings.Contains(got, `"notes:/missing" does not exist`) {
		t.Errorf("Explain = %q", got)
	}
	if _, err := f.sb.Fs().Stat("."); !errors.Is(err, errNoRoot) {
		t.Errorf("Stat(.) = %v; want the error for a path that names no root", err)
	}
}

func TestMultiWalkTreeGivesPathsWithTheirRoot(t *testing.T) {
	f := newMultiFixture(t)
	tf, ok := f.sb.fs.(*guardFs).Fs.(interface {
		WalkTree(context.Context, string, func(TreeEntry) error) error
	})
	if !ok {
		t.Skip("no WalkTree on this system")
	}
	var got []string
	if err := tf.WalkTree(context.Background(), "src:/deep", func(e TreeEntry) error {
		got = append(got, e.Path())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"src:/deep/inner", "src:/deep/inner/x.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("WalkTree(src:/deep) paths = %q, want %q", got, want)
	}
}

func TestMultiKeys(t *testing.T) {
	f := newMultiFixture(t)
	same := [][]string{
		{"src:/vendor/v.txt", "vendor:/v.txt", f.base + "/src/vendor/v.txt"},
		{"a.txt", "src:/a.txt", "./a.txt", "src:a.txt"},
		{"notes:/todo.md", "same:/todo.md"},
	}
	for _, group := range same {
		k := f.sb.Key(group[0])
		for _, p := range group[1:] {
			if got := f.sb.Key(p); got != k {
				t.Errorf("Key(%q) = %q, Key(%q) = %q; want one key", p, got, group[0], k)
			}
		}
	}
	if k, dir := f.sb.Key("vendor:/v.txt"), f.sb.Key("src:"); !strings.HasPrefix(k, dir+"/") {
		t.Errorf("Key(vendor:/v.txt) = %q does not lie below Key(src:) = %q", k, dir)
	}
	if f.sb.Key("notes:/a") == f.sb.Key("src:/a") {
		t.Error("two files in different roots share a key")
	}
}

func TestMultiRestrictHost(t *testing.T) {
	f := newMultiFixture(t)
	ignored := f.sb.RestrictHost([]string{filepath.Join(f.base, "src/deep"), filepath.Join(f.base, "elsewhere")})
	if len(ignored) != 1 {
		t.Errorf("ignored = %q, want the path outside every root", ignored)
	}
	if got, want := f.sb.Allowed(), []string{"src:/deep", "notes:", "vendor:", "same:"}; !slices.Equal(got, want) {
		t.Errorf("Allowed() = %q, want %q (a client root narrows its own root alone)", got, want)
	}
	if _, err := f.sb.Resolve("a.txt"); err == nil || !strings.Contains(err.Error(), `"src:/deep"`) {
		t.Errorf("Resolve(a.txt) outside the client's root = %v", err)
	}
	if _, err := f.sb.Resolve("notes:/todo.md"); err != nil {
		t.Errorf("Resolve in a root the client did not narrow: %v", err)
	}
	// A client root holding all the roots allows them whole.
	f.sb.RestrictHost([]string{f.base})
	if got := f.sb.Allowed(); !slices.Equal(got, []string{"src:", "notes:", "vendor:", "same:"}) {
		t.Errorf("Allowed() under a client root above every root = %q", got)
	}
	// Client roots that share nothing with any root allow nothing.
	f.sb.RestrictHost([]string{filepath.Join(f.base, "outside")})
	if got := f.sb.Allowed(); len(got) != 0 {
		t.Errorf("Allowed() = %q, want none", got)
	}
	if _, err := f.sb.Resolve("notes:/todo.md"); err == nil || !strings.Contains(err.Error(), `root "notes"`) {
		t.Errorf("Resolve with no client root applying = %v", err)
	}
	f.sb.Restrict(nil)
	f.sb.Restrict([]string{"notes:/sub", "deep"})
	if got := f.sb.Allowed(); !slices.Equal(got, []string{"src:/deep", "notes:/sub", "vendor:", "same:"}) {
		t.Errorf("Allowed() after Restrict = %q", got)
	}
}

func TestNewRootsRefusesBadNames(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for _, names := range [][]string{{"src", "src"}, {"src", "SRC"}, {"a", "bb"}, {"ok", "no:colon"}, {"ok", "-dash"}, {"ok", ""}} {
		var roots []Root
		for _, n := range names {
			roots = append(roots, Root{Name: n, Fs: fsys})
		}
		if _, err := NewRoots(roots, SandboxOptions{}); err == nil {
			t.Errorf("NewRoots(%q) accepted the names", names)
		}
	}
	if _, err := NewRoots(nil, SandboxOptions{}); err == nil {
		t.Error("NewRoots(nil) accepted no roots")
	}
	for _, name := range []string{"ab", "my-notes_2.0", "A1"} {
		if err := CheckRootName(name); err != nil {
			t.Errorf("CheckRootName(%q) = %v", name, err)
		}
	}
}

func TestOneReadOnlyRoot(t *testing.T) {
	fsys := afero.NewMemMapFs()
	if err := afero.WriteFile(fsys, "a.txt", []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb, err := NewRoots([]Root{{Name: "docs", Fs: fsys, ReadOnly: true}}, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := sb.Resolve("a.txt"); err != nil || rel != "a.txt" {
		t.Errorf("Resolve(a.txt) with one root = %q, %v; want no root name", rel, err)
	}
	_, err = sb.ResolveNew("b.txt")
	if !isReadOnlyRoot(err) || !strings.Contains(err.Error(), `read-only root "docs"; nothing can be changed there`) {
		t.Errorf("ResolveNew in a read-only root = %v", err)
	}
	if err := afero.WriteFile(sb.Fs(), "a.txt", []byte("b"), 0o644); !errors.Is(err, syscall.EROFS) {
		t.Errorf("writing in a read-only root = %v; want EROFS", err)
	}
	if b, _ := afero.ReadFile(sb.Fs(), "a.txt"); string(b) != "a" {
		t.Errorf("a.txt = %q after a refused write", b)
	}
}

func TestALinkedRootTakesAbsolutePathsThroughEitherName(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	rfs, err := OpenRoot(link)
	if err != nil {
		t.Fatal(err)
	}
	defer rfs.Close()
	other := afero.NewMemMapFs()
	sb, err := NewRoots([]Root{{Name: "ln", Fs: rfs, HostPath: link}, {Name: "mem", Fs: other}}, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(link, "d/x"), filepath.Join(real, "d/x")} {
		if got, err := sb.Resolve(p); err != nil || got != "ln:/d/x" {
			t.Errorf("Resolve(%q) = %q, %v; want ln:/d/x", p, got, err)
		}
	}
	sb.RestrictHost([]string{filepath.Join(real, "d")})
	if got := sb.Allowed(); !slices.Equal(got, []string{"ln:/d", "mem:"}) {
		t.Errorf("Allowed() after a client root given by the real path = %q", got)
	}
	if sb.Key("ln:/d/x") != filepath.ToSlash(filepath.Join(real, "d/x")) {
		t.Errorf("Key(ln:/d/x) = %q, want the real host path", sb.Key("ln:/d/x"))
	}
}

func TestMultiADanglingLinkIntoANestedRootIsRefusedBeforeAnythingIsDone(t *testing.T) {
	f := newMultiFixture(t)
	if err := os.Symlink("vendor/build", filepath.Join(f.base, "src/build")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("lnk/new", filepath.Join(f.base, "src/chain")); err != nil { // a link to a path through a link
		t.Fatal(err)
	}
	for _, p := range []string{"src:/build/out", "src:/build", "src:/chain/x", "src:/lnk/new/deeper"} {
		if _, err := f.sb.ResolveNew(p); !isReadOnlyRoot(err) {
			t.Errorf("ResolveNew(%s) = %v; want a read-only refusal before anything is made", p, err)
		}
	}
	if err := f.sb.Fs().MkdirAll("src:/build/out", 0o755); !isReadOnlyRoot(f.sb.Explain("mkdir", "src:/build/out", err)) {
		t.Errorf("MkdirAll through the dangling link = %v", err)
	}
	if _, err := os.Lstat(filepath.Join(f.base, "src/vendor/build")); err == nil {
		t.Error("a folder was made in the read-only root")
	}
}
