package security_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
)

// fuzzTree is a real folder tree for FuzzResolve, in one temporary
// directory base:
//
//	base/outside.txt
//	base/out/secret.txt
//	base/r2/secret.txt             a sibling whose name starts like the root's
//	base/r_secret/secret.txt       and another
//	base/r/                        the root
//	    a.txt  notes/a.txt  docs/x.txt  src/app/y.txt  src/lib.txt
//	    in       -> notes              relative, inside
//	    up       -> notes/..           relative, the root itself
//	    docs/ln  -> ../notes/a.txt     relative, inside (outside docs)
//	    out      -> ../out             relative, outside
//	    sib      -> ../r2              relative, to the sibling
//	    outnew   -> ../out/new.txt     dangling, outside
//	    dangling -> missing            dangling, inside
//	    inabs    -> base/r/notes       absolute, inside (os.Root never follows these)
//	    outabs   -> base/out           absolute, outside
//	    loop     -> loop
//
// Everything outside the root, and the root's folders, get a modification
// time in 2001, so that any change (a new entry in a folder, a write to a
// file) shows as a new one even within the file system's clock tick.
type fuzzTree struct {
	base, root string
	outside    []string        // every file and folder in base but the root and its contents
	rootDirs   []string        // the root's folders
	fixture    map[string]bool // root-relative names of everything the root starts with
	outsideFIs []os.FileInfo
}

var fuzzEpoch = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

func newFuzzTree(f *testing.F) *fuzzTree {
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	tr := &fuzzTree{base: base, root: filepath.Join(base, "r"), fixture: map[string]bool{}}
	for _, name := range []string{"outside.txt", "out/secret.txt", "r2/secret.txt", "r_secret/secret.txt",
		"r/a.txt", "r/notes/a.txt", "r/docs/x.txt", "r/src/app/y.txt", "r/src/lib.txt"} {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"in": "notes", "up": "notes/..", "docs/ln": "../notes/a.txt", "out": "../out", "sib": "../r2",
		"outnew": "../out/new.txt", "dangling": "missing", "inabs": filepath.Join(base, "r/notes"),
		"outabs": filepath.Join(base, "out"), "loop": "loop",
	} {
		if err := os.Symlink(target, filepath.Join(tr.root, name)); err != nil {
			f.Fatal(err)
		}
	}
	err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if tr.inside(p) {
			rel, _ := filepath.Rel(tr.root, p)
			tr.fixture[rel] = true
			if d.IsDir() {
				tr.rootDirs = append(tr.rootDirs, p)
			}
			return nil
		}
		tr.outside = append(tr.outside, p)
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range append(slices.Clone(tr.outside), tr.rootDirs...) {
		if err := os.Chtimes(p, fuzzEpoch, fuzzEpoch); err != nil {
			f.Fatal(err)
		}
	}
	for _, p := range tr.outside {
		fi, err := os.Lstat(p)
		if err != nil {
			f.Fatal(err)
		}
		tr.outsideFIs = append(tr.outsideFIs, fi)
	}
	return tr
}

// inside reports whether the clean absolute host path p is the root or
// lies under it.
func (tr *fuzzTree) inside(p string) bool {
	return p == tr.root || strings.HasPrefix(p, tr.root+string(filepath.Separator))
}

// walk resolves the clean root-relative path rel on the host, one element
// at a time as the kernel does, and returns the host path it ends at, and
// whether it went through an absolute symbolic link on the way. err is
// the first failure (missing, not a directory, a loop).
func (tr *fuzzTree) walk(rel string) (host string, absLink bool, err error) {
	cur := tr.root
	if rel == "." {
		return cur, false, nil
	}
	for _, elem := range strings.Split(rel, "/") {
		next := filepath.Join(cur, elem)
		fi, err := os.Lstat(next)
		if err != nil {
			return "", absLink, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(next)
			if err != nil {
				return "", absLink, err
			}
			absLink = absLink || filepath.IsAbs(target)
			if next, err = filepath.EvalSymlinks(next); err != nil {
				return "", absLink, err
			}
		}
		cur = next
	}
	return cur, absLink, nil
}

// checkIdentity checks that the file fi, which the sandbox opened for p,
// is none of the files and folders outside the root, and is the one the
// host reaches by following rel, inside the root.
func (tr *fuzzTree) checkIdentity(t *testing.T, op, p, rel string, fi os.FileInfo) {
	t.Helper()
	for i, ofi := range tr.outsideFIs {
		if os.SameFile(fi, ofi) {
			t.Fatalf("%s(%q) opened %s, outside the root", op, p, tr.outside[i])
		}
	}
	host, absLink, err := tr.walk(rel)
	if err != nil || !tr.inside(host) || absLink {
		t.Fatalf("%s(%q) opened a file, but the host says %q (inside the root %v, through an absolute link %v), %v",
			op, p, host, tr.inside(host), absLink, err)
	}
	if hfi, err := os.Stat(host); err != nil || !os.SameFile(hfi, fi) {
		t.Fatalf("%s(%q) opened another file than the host's %s (%v)", op, p, host, err)
	}
}

// snapshotOutside describes everything outside the root: mode, size and
// modification time of each file and folder.
func (tr *fuzzTree) snapshotOutside() string {
	var b strings.Builder
	for _, p := range tr.outside {
		if fi, err := os.Lstat(p); err != nil {
			fmt.Fprintf(&b, "%s: %v\n", p, err)
		} else {
			fmt.Fprintf(&b, "%s %v %d %s\n", p, fi.Mode(), fi.Size(), fi.ModTime().Format(time.RFC3339Nano))
		}
	}
	return b.String()
}

// rootTimes returns the modification times of the root's folders, which
// change when an entry is created in them.
func (tr *fuzzTree) rootTimes() []time.Time {
	ts := make([]time.Time, len(tr.rootDirs))
	for i, p := range tr.rootDirs {
		if fi, err := os.Lstat(p); err == nil {
			ts[i] = fi.ModTime()
		}
	}
	return ts
}

// reset removes from the root whatever the fixture did not have, if
// anything was created.
func (tr *fuzzTree) reset(t *testing.T) {
	if !slices.ContainsFunc(tr.rootTimes(), func(m time.Time) bool { return !m.Equal(fuzzEpoch) }) {
		return
	}
	var extra []string
	_ = filepath.WalkDir(tr.root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(tr.root, p)
		if !tr.fixture[rel] {
			extra = append(extra, p)
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	for _, p := range extra {
		if !tr.inside(p) {
			t.Fatalf("reset would remove %s", p)
		}
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range tr.rootDirs {
		if err := os.Chtimes(p, fuzzEpoch, fuzzEpoch); err != nil {
			t.Fatal(err)
		}
	}
}

// fuzzHostRoot stands for the root's host path in fuzz inputs: a path
// starting with it is given to the sandbox with the real host root
// instead, so that "/srv/r2/secret.txt" names the real sibling r2.
const fuzzHostRoot = "/srv/r"

// resolveReasons are the reasons Resolve's documentation gives, and
// openReasons those of Explain that a path in fuzzTree can meet.
var (
	resolveReasons = []security.Reason{security.Empty, security.Control, security.Backslash, security.WindowsPath,
		security.Tilde, security.Escapes, security.TooLong, security.NameTooLong, security.NotAllowed}
	openReasons = []security.Reason{security.NotExist, security.NotDir, security.TooManyLinks, security.LinkOutside}
	// nameReasons are the refusals of a new name (Sandbox.CheckNewName),
	// which OpenWrite can meet when it creates the file.
	nameReasons = []security.Reason{security.InvisibleName, security.NotNormalized, security.Confusable}
)

// The subtrees the narrow sandbox allows.
var fuzzAllowed = []string{"docs", "src/app"}

// FuzzResolve checks Resolve, OpenRead and OpenWrite of sandboxes over a
// real tree (fuzzTree) against an oracle of its own: the rules of
// Resolve's documentation, written again with path/filepath, and the host
// file system itself, asked with Lstat, Readlink, EvalSymlinks and
// os.SameFile.
//
//   - Resolve refuses exactly the paths its documentation says, each with
//     a reason that applies to it (the empty path, too long, control
//     characters, Windows and UNC paths, backslashes, "~", ".." above the
//     root, absolute paths outside the host root, overlong elements, and
//     for the narrow sandbox paths outside docs and src/app), and returns
//     the clean root-relative form of every other one, which resolves to
//     itself.
//   - OpenRead refuses what Resolve refuses, for the same reason; any file
//     it opens is, by identity, a file or folder physically inside the
//     root and the one the host reaches by following the path's links;
//     every path that the host resolves inside the root without an
//     absolute link opens; one it resolves outside fails with
//     LinkOutside; other failures are NotExist, NotDir, TooManyLinks or
//     LinkOutside.
//   - Writes never change anything outside the root: OpenWrite with the
//     path (and a byte written), and the sandbox's Fs given the raw path
//     to OpenFile and MkdirAll, leave the rest of base exactly as it was;
//     a file OpenWrite opens is physically inside the root.
//
// Planted bugs this caught (each reverted):
//   - relBelow (once hostRel) without its check for the '/' after the host root, so that
//     the sibling ".../r2/secret.txt" counted as inside ".../r": the seed
//     corpus fails (Resolve = "/secret.txt", "which lies outside the root
//     or breaks its rules").
//   - RootFs.OpenFile opening by host path (os.OpenFile of
//     root.Name()+"/"+name) instead of through os.Root: the seed corpus
//     fails, writing "../x" changed the folder above the root,
//     OpenRead("out/secret.txt") and OpenRead("sib/secret.txt") opened
//     files outside it, OpenWrite("outnew") created out/new.txt.
//   - escapes reporting only ".." itself, not "../x": the seed corpus
//     fails (Resolve("../r2/secret.txt") accepted).
//   - ClassPath letting U+2064 through: not found by 60 s of fuzzing (one
//     rune among a million to guess), so the seeds now hold the first and
//     last rune of every range the documentation refuses, and fail.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"", ".", "./", "a", "notes/a.txt", "./notes/../a.txt", "notes//a.txt/", "..", "../x", "a/../../x",
		"/", "/etc/passwd", fuzzHostRoot, fuzzHostRoot + "/a.txt", fuzzHostRoot + "_secret/secret.txt", fuzzHostRoot + "/../x",
		fuzzHostRoot + "2/secret.txt", fuzzHostRoot + "/../r2/secret.txt", fuzzHostRoot + "/notes/a.txt/",
		"~", "~/x", "~root", `C:\x`, "C:/x", "C:", "c:", `\\server\share`, "//server/share", "///x", `a\b`,
		"a\x00b", "a\nb", "a\x7f", "a\u202eb", "a\xff", "docs", "docs/x.txt", "docsX", "src/app/../../docs/x.txt",
		"笔记/a.txt", strings.Repeat("a/", 2049), strings.Repeat("n", 256), "...", "..a", ".../..", "./~", "./C:", "a/../C:/x",
		"in/a.txt", "up/notes/a.txt", "up/up/a.txt", "docs/ln", "out/secret.txt", "out", "sib/secret.txt", "outnew",
		"dangling", "inabs/a.txt", "outabs/secret.txt", "loop", "loop/x", "a.txt/x", "../r/a.txt", "../r2/secret.txt",
		"src/app/y.txt", "src/lib.txt", "new.txt", "notes/new/x",
		`\u{6E}otes/a.txt`, `a\u{A}b`, `a\x{FF}`, `\u{2E}\u{2E}/x`, `\u{2F}etc/passwd`, `a\u{0}`, `a\u{D800}`, `a\u{110000}`,
		`\u{5C}\u{5C}server`, `\u{7E}/x`, `\u{43}:`, `a\u{5C}b`, `a\u{}`, `a\u{1234567}`, `a\x{F}`, `a\u{41}\b`,
	} {
		f.Add(seed)
	}
	for _, r := range []rune{0x1f, 0x7f, 0x80, 0x9f, 0x061c, 0x200b, 0x200e, 0x200f, 0x2028, 0x202e, 0x2060, 0x2064,
		0x2066, 0x2069, 0xfeff, 0x200d, 0x2065, 0x202f, 0xa0} {
		f.Add("a" + string(r) + "b")
	}
	tr := newFuzzTree(f)
	rfs, err := security.OpenRoot(tr.root)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { rfs.Close() })
	whole := security.NewSandbox(rfs, security.SandboxOptions{HostRoot: tr.root, Lang: i18n.English})
	narrow := security.NewSandbox(rfs, security.SandboxOptions{HostRoot: tr.root, Lang: i18n.Chinese})
	narrow.Restrict(fuzzAllowed)

	f.Fuzz(func(t *testing.T, p string) {
		if rest, ok := strings.CutPrefix(p, fuzzHostRoot); ok {
			p = tr.root + rest
		}
		want, reasons := tr.expectResolve(p)
		rel := checkResolve(t, whole, p, want, reasons)
		var narrowReasons []security.Reason
		narrowWant := want
		if want != "" && !underAny(tr.root, want, fuzzAllowed) {
			narrowWant, narrowReasons = "", []security.Reason{security.NotAllowed}
		}
		checkResolve(t, narrow, p, narrowWant, append(reasons, narrowReasons...))
		for _, s := range []*security.Sandbox{whole, narrow} {
			tr.checkOpenRead(t, s, p)
		}
		tr.checkWrites(t, whole, p, rel)
	})
}

// expectResolve computes from the documentation what Resolve must return
// for p: the clean root-relative path, or "" and every reason that applies.
func (tr *fuzzTree) expectResolve(p string) (string, []security.Reason) {
	var reasons []security.Reason
	if p == "" {
		return "", []security.Reason{security.Empty}
	}
	if typed := fuzzEscape.ReplaceAllString(p, ""); !utf8.ValidString(typed) || strings.ContainsFunc(typed, refusedRune) {
		reasons = append(reasons, security.Control)
	}
	if strings.HasPrefix(p, `\\`) || len(p) > 2 && p[:2] == "//" && p[2] != '/' {
		reasons = append(reasons, security.WindowsPath)
	}
	// Well-formed escapes are decoded; any other backslash is refused.
	badEscape := false
	dec := fuzzEscape.ReplaceAllStringFunc(p, func(e string) string {
		v, _ := strconv.ParseUint(e[3:len(e)-1], 16, 32)
		switch {
		case v == 0 || v == '/':
		case e[1] == 'x':
			return string([]byte{byte(v)})
		case v <= utf8.MaxRune && (v < 0xd800 || v > 0xdfff):
			return string(rune(v))
		}
		badEscape = true
		return ""
	})
	// The limit is on the decoded path; typed with escapes, a path may be
	// six times as long.
	if len(dec) > security.DefaultMaxPathBytes || len(p) > security.DefaultMaxPathBytes && (!strings.Contains(p, `\`) || len(p) > 6*security.DefaultMaxPathBytes) {
		reasons = append(reasons, security.TooLong)
	}
	if strings.Contains(fuzzEscape.ReplaceAllString(p, ""), `\`) {
		reasons = append(reasons, security.Backslash)
	} else if badEscape {
		reasons = append(reasons, security.Control)
	}
	var rel string
	if filepath.IsAbs(p) {
		c := filepath.Clean(dec)
		if !tr.inside(c) {
			reasons = append(reasons, security.Escapes)
		} else {
			rel, _ = filepath.Rel(tr.root, c)
		}
	} else {
		rel = path.Clean(dec)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			reasons = append(reasons, security.Escapes)
			rel = ""
		}
	}
	for _, s := range []string{p, rel} {
		if drive(s) {
			reasons = append(reasons, security.WindowsPath)
		}
		if strings.HasPrefix(s, "~") {
			reasons = append(reasons, security.Tilde)
		}
	}
	for _, elem := range strings.Split(rel, "/") {
		if len(elem) > security.DefaultMaxNameBytes {
			reasons = append(reasons, security.NameTooLong)
		}
	}
	if len(reasons) > 0 {
		return "", reasons
	}
	return rel, nil
}

// fuzzEscape matches a well-formed escape of a name (see EscapeName).
var fuzzEscape = regexp.MustCompile(`\\u\{[0-9A-Fa-f]{1,6}\}|\\x\{[0-9A-Fa-f]{2}\}`)

// refusedRune reports whether r is one of the characters ClassPath's
// documentation refuses.
func refusedRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069, r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff:
		return true
	}
	return false
}

// drive reports whether s starts with a Windows drive: a letter and a
// colon, alone or followed by a separator.
func drive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') &&
		(len(s) == 2 || s[2] == '/' || s[2] == '\\')
}

// underAny reports whether the root-relative rel lies in one of the
// subtrees, asked of filepath.Rel on host paths.
func underAny(root, rel string, subtrees []string) bool {
	for _, t := range subtrees {
		r, err := filepath.Rel(filepath.Join(root, t), filepath.Join(root, rel))
		if err == nil && r != ".." && !strings.HasPrefix(r, "../") {
			return true
		}
	}
	return false
}

// checkResolve checks s.Resolve(p) against want, or, when want is "",
// against a refusal for one of reasons. It returns the result.
func checkResolve(t *testing.T, s *security.Sandbox, p, want string, reasons []security.Reason) string {
	t.Helper()
	r, err := s.Resolve(p)
	if err != nil {
		pe, ok := errors.AsType[*security.PathError](err)
		switch {
		case !ok:
			t.Fatalf("Resolve(%q) error %T is not a *PathError", p, err)
		case r != "" || pe.Error() == "":
			t.Fatalf("Resolve(%q) = %q, %q", p, r, pe.Error())
		case want != "":
			t.Fatalf("Resolve(%q) refused (%v: %s), want %q", p, pe.Reason, pe.Error(), want)
		case !slices.Contains(reasons, pe.Reason):
			t.Fatalf("Resolve(%q) refused for %v (%s), want one of %v", p, pe.Reason, pe.Error(), reasons)
		}
		return ""
	}
	if want == "" {
		t.Fatalf("Resolve(%q) = %q, which lies outside the root or breaks its rules: want a refusal for one of %v", p, r, reasons)
	}
	if r != want {
		t.Fatalf("Resolve(%q) = %q, want %q", p, r, want)
	}
	shown, _ := security.EscapeName(r)
	if again, err := s.Resolve(shown); err != nil || again != r {
		t.Fatalf("Resolve(%q) = %q, but resolving that again (as %q) gives %q, %v", p, r, shown, again, err)
	}
	return r
}

// checkOpenRead checks s.OpenRead(p, true) against the host's view.
func (tr *fuzzTree) checkOpenRead(t *testing.T, s *security.Sandbox, p string) {
	t.Helper()
	rel, rerr := s.Resolve(p)
	file, fi, err := s.OpenRead(p, true)
	if rerr != nil {
		re, _ := errors.AsType[*security.PathError](rerr)
		if pe, ok := errors.AsType[*security.PathError](err); err == nil || !ok || pe.Reason != re.Reason {
			t.Fatalf("OpenRead(%q) = %v, but Resolve refused it for %v", p, err, re.Reason)
		}
		return
	}
	host, absLink, werr := tr.walk(rel)
	if err != nil {
		pe, ok := errors.AsType[*security.PathError](err)
		if !ok {
			t.Fatalf("OpenRead(%q) error %T is not a *PathError", p, err)
		}
		switch {
		case werr == nil && tr.inside(host) && !absLink:
			t.Fatalf("OpenRead(%q) failed (%v: %v), but the host reaches %s inside the root", p, pe.Reason, err, host)
		case werr == nil && pe.Reason != security.LinkOutside:
			t.Fatalf("OpenRead(%q) failed for %v (%v), want LinkOutside: the host reaches %s (absolute link %v)",
				p, pe.Reason, err, host, absLink)
		case !slices.Contains(openReasons, pe.Reason):
			t.Fatalf("OpenRead(%q) failed for %v (%v); the host says %v", p, pe.Reason, err, werr)
		}
		return
	}
	defer file.Close()
	ffi, serr := file.Stat()
	if serr != nil {
		t.Fatalf("OpenRead(%q): Stat: %v", p, serr)
	}
	if !os.SameFile(ffi, fi) {
		t.Fatalf("OpenRead(%q) returned the FileInfo of another file", p)
	}
	tr.checkIdentity(t, "OpenRead", p, rel, ffi)
}

// checkWrites writes to p, through OpenWrite and through the raw Fs, and
// checks that nothing outside the root changed. rel is Resolve's result
// for p, "" if it refused.
func (tr *fuzzTree) checkWrites(t *testing.T, s *security.Sandbox, p, rel string) {
	t.Helper()
	defer tr.reset(t)
	before := tr.snapshotOutside()

	file, err := s.OpenWrite(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err == nil {
		fi, serr := file.Stat()
		_, werr := file.Write([]byte("w"))
		file.Close()
		if serr != nil || werr != nil {
			t.Fatalf("OpenWrite(%q): %v, %v", p, serr, werr)
		}
		if rel == "" {
			t.Fatalf("OpenWrite(%q) opened a file Resolve refuses", p)
		}
		tr.checkIdentity(t, "OpenWrite", p, rel, fi)
	} else if pe, ok := errors.AsType[*security.PathError](err); !ok {
		t.Fatalf("OpenWrite(%q) error %T is not a *PathError", p, err)
	} else if !slices.Contains(resolveReasons, pe.Reason) && !slices.Contains(openReasons, pe.Reason) &&
		!slices.Contains(nameReasons, pe.Reason) && pe.Reason != security.IsDir {
		t.Fatalf("OpenWrite(%q) failed for %v: %v", p, pe.Reason, err)
	}

	// The raw path, unresolved, straight to the file system: RootFs alone
	// must keep it inside.
	if f, err := s.Fs().OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err == nil {
		_, _ = f.Write([]byte("raw"))
		f.Close()
	}
	if strings.Count(p, "/") <= 8 { // keep each iteration cheap
		_ = s.Fs().MkdirAll(p, 0o755)
	}

	if after := tr.snapshotOutside(); after != before {
		t.Fatalf("writing %q changed what lies outside the root:\nbefore:\n%s\nafter:\n%s", p, before, after)
	}
}
