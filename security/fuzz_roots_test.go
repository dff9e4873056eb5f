package security

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolveRoots checks Resolve on several roots against the host: a
// path it accepts names a known root, resolves again to itself, keys as
// its result does, lies lexically inside its root's folder, and, when it
// exists, is physically inside that folder; a path typed "NAME:/…" for a
// root NAME lands in NAME or is refused; a plain path without a colon in
// its first element lands in the first root; ResolveNew accepts only
// paths where the root may change; and no refusal shows the host path of
// a root the path did not name. The roots are those of newMultiFixture:
// src, notes (read-only), vendor (read-only, inside src) and same (on
// the folder of notes).
//
// Planted bugs the seeds catch (each reverted): named splitting at the
// last ':' of the first element instead of the first ("notes:a:b" landing
// in the first root); relBelow without its '/' check (the sibling
// "/ROOT/src2/x" counted as inside "src").
func FuzzResolveRoots(f *testing.F) {
	for _, seed := range []string{
		"a.txt", ".", "src:", "src:/", "src:a.txt", "src:/a.txt", "notes:/todo.md", "notes:todo.md", "notes://x",
		"vendor:/v.txt", "src:/vendor/v.txt", "src:/lnk/v.txt", "same:/todo.md", "nope:/x", "nope:", "nope:x",
		"a:b", "notes:a:b", "c:/x", "src:/../x", "notes:..", "notes:/a/../../x", "src:/a:b", "src:/notes:/x", "~", "src:/~",
		"/ROOT/src/a.txt", "/ROOT/src", "/ROOT/notes/todo.md", "/ROOT/src/vendor/v.txt", "/ROOT/src2/x", "/ROOT/outside/secret",
		`notes:/\u{41}`, `src\u{3A}/a.txt`, "SRC:/a.txt", "src :/a", "src:/./deep//inner/",
	} {
		f.Add(seed)
	}
	fx := newMultiFixture(f)
	if err := os.MkdirAll(filepath.Join(fx.base, "src2"), 0o755); err != nil {
		f.Fatal(err)
	}
	hosts := map[string]string{}
	for _, r := range fx.sb.roots {
		hosts[r.name] = filepath.FromSlash(r.hostRoot)
	}
	f.Fuzz(func(t *testing.T, p string) {
		p = strings.ReplaceAll(p, "/ROOT", fx.base)
		rel, err := fx.sb.Resolve(p)
		if err != nil {
			var pe *PathError
			if !errors.As(err, &pe) || err.Error() == "" {
				t.Fatalf("Resolve(%q) = %v, not a *PathError with a sentence", p, err)
			}
			if !strings.Contains(p, fx.base) && strings.Contains(err.Error(), fx.base) {
				t.Fatalf("Resolve(%q) shows a host path: %q", p, err)
			}
			return
		}
		r, inner := fx.sb.split(rel)
		if r == nil || rel != r.qualify(inner) {
			t.Fatalf("Resolve(%q) = %q, which names no root", p, rel)
		}
		escaped, _ := EscapeName(rel)
		if again, err := fx.sb.Resolve(escaped); err != nil || again != rel {
			t.Fatalf("Resolve(%q) = %q, and Resolve of that, escaped, = %q, %v", p, rel, again, err)
		}
		if fx.sb.Key(p) != fx.sb.Key(escaped) {
			t.Fatalf("Key(%q) = %q, Key(%q) = %q", p, fx.sb.Key(p), escaped, fx.sb.Key(escaped))
		}
		if inner != "." && (path.IsAbs(inner) || escapes(inner) || path.Clean(inner) != inner) {
			t.Fatalf("Resolve(%q) = %q, whose path in the root %q is not clean and inside", p, rel, inner)
		}
		if name, _, ok := strings.Cut(p, ":"); ok && !strings.Contains(name, "/") && !strings.Contains(name, `\`) {
			if fx.sb.rootNamed(name) != nil && r.name != name {
				t.Fatalf("Resolve(%q) = %q, not in the root %q it names", p, rel, name)
			}
		}
		if first, _, _ := strings.Cut(p, "/"); !strings.HasPrefix(p, "/") && !strings.ContainsAny(first, `:\`) && r.name != "src" {
			t.Fatalf("Resolve(%q) = %q: a plain path must lie in the first root", p, rel)
		}
		host := filepath.Join(hosts[r.name], filepath.FromSlash(inner))
		if fi, err := fx.sb.Fs().Stat(rel); err == nil {
			real, err := filepath.EvalSymlinks(host)
			if err != nil {
				t.Fatalf("Stat(%q) found a file the host cannot: %v", rel, err)
			}
			if _, ok := relBelow(filepath.ToSlash(r.hostKey), filepath.ToSlash(real)); !ok {
				t.Fatalf("Stat(%q) found %s, outside the root %s", rel, real, r.hostKey)
			}
			if hfi, err := os.Stat(real); err != nil || !os.SameFile(fi, hfi) {
				t.Fatalf("Stat(%q) is not the host's %s", rel, real)
			}
		}
		if _, err := fx.sb.ResolveNew(p); err == nil {
			if r.readOnly || r.name == "src" && within(inner, []string{"vendor"}) {
				t.Fatalf("ResolveNew(%q) accepted a path in a read-only root", p)
			}
		}
	})
}
