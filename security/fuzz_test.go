package security

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
)

func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"", ".", "./", "a", "notes/a.txt", "./notes/../a.txt", "notes//a.txt/", "..", "../x", "a/../../x",
		"/", "/etc/passwd", testHostRoot, testHostRoot + "/a", testHostRoot + "_secret", testHostRoot + "/../x",
		"~", "~/x", "~root", `C:\x`, "C:/x", "C:", "c:", `\\server\share`, "//server/share", "///x", `a\b`,
		"a\x00b", "a\nb", "a\x7f", "a\u202eb", "a\xff", "docs", "docs/x", "docsX", "src/app/../../docs/a",
		"笔记/a.txt", strings.Repeat("a/", 2049), strings.Repeat("n", 256), "...", "..a", ".../..", "./~", "./C:", "a/../C:/x",
	} {
		f.Add(seed)
	}
	whole := newTestSandbox(i18n.English)
	narrow := newTestSandbox(i18n.Chinese)
	narrow.Restrict([]string{"docs", "src/app"})
	f.Fuzz(func(t *testing.T, p string) {
		for _, s := range []*Sandbox{whole, narrow} {
			r, err := s.Resolve(p)
			if err != nil {
				pe, ok := errors.AsType[*PathError](err)
				if !ok {
					t.Fatalf("Resolve(%q) error %T is not a *PathError", p, err)
				}
				if r != "" || pe.Error() == "" {
					t.Fatalf("Resolve(%q) = %q, %q", p, r, pe.Error())
				}
				continue
			}
			if path.Clean(r) != r {
				t.Fatalf("Resolve(%q) = %q, which is not clean", p, r)
			}
			if path.IsAbs(r) || r == ".." || strings.HasPrefix(r, "../") {
				t.Fatalf("Resolve(%q) = %q, which is absolute or leaves the root", p, r)
			}
			if strings.ContainsAny(r, "\x00\\") {
				t.Fatalf("Resolve(%q) = %q, which holds NUL or a backslash", p, r)
			}
			if bad, _, ok := ClassPath.Check(r); !ok {
				t.Fatalf("Resolve(%q) = %q, which holds %U", p, r, bad)
			}
			if !within(r, s.Allowed()) {
				t.Fatalf("Resolve(%q) = %q, outside the allowed %q", p, r, s.Allowed())
			}
			if again, err := s.Resolve(r); err != nil || again != r {
				t.Fatalf("Resolve(%q) = %q, but resolving that again gives %q, %v", p, r, again, err)
			}
		}
	})
}
