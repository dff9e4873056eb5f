package security

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
)

func TestLimitsWithDefaults(t *testing.T) {
	want := Limits{MaxReadBytes: 4 << 20, MaxListEntries: 1000, MaxDepth: 10, MaxResults: 1000, MaxPathBytes: 4096, MaxNameBytes: 255, MaxWriteBytes: 256 << 20, MaxWalkEntries: 200_000, MaxEditBytes: 16 << 20}
	if got := (Limits{}).WithDefaults(); got != want {
		t.Errorf("zero Limits with defaults = %+v, want %+v", got, want)
	}
	if got := (Limits{MaxDepth: -1}).WithDefaults(); got != want {
		t.Errorf("negative Limits with defaults = %+v, want %+v", got, want)
	}
	set := Limits{MaxReadBytes: 1, MaxListEntries: 2, MaxDepth: 3, MaxResults: 4, MaxPathBytes: 5, MaxNameBytes: 6, MaxWriteBytes: 7, MaxWalkEntries: 8, MaxEditBytes: 9}
	if got := set.WithDefaults(); got != set {
		t.Errorf("set Limits with defaults = %+v, want them kept", got)
	}
	s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{Limits: Limits{MaxDepth: 3}})
	if got := s.Limits(); got.MaxDepth != 3 || got.MaxReadBytes != 4<<20 {
		t.Errorf("Sandbox.Limits() = %+v, want MaxDepth 3 and the other defaults", got)
	}
}

func TestSandboxAccessors(t *testing.T) {
	fsys := afero.NewMemMapFs()
	s := NewSandbox(fsys, SandboxOptions{Lang: i18n.Chinese})
	if err := s.Fs().Mkdir("made", 0o755); err != nil {
		t.Fatalf("Fs().Mkdir: %v", err)
	}
	if fi, err := fsys.Stat("made"); err != nil || !fi.IsDir() {
		t.Error("Fs() does not work on the file system given to NewSandbox")
	}
	if s.Lang() != i18n.Chinese {
		t.Errorf("Lang() = %q, want %q", s.Lang(), i18n.Chinese)
	}
}

func TestRestrict(t *testing.T) {
	tests := []struct {
		name     string
		subtrees []string
		allowed  []string
		accept   []string
		refuse   []string
	}{
		{name: "nil allows the whole root", subtrees: nil, allowed: []string{"."},
			accept: []string{".", "a", "docs/x"}},
		{name: "an empty list allows the whole root", subtrees: []string{}, allowed: []string{"."},
			accept: []string{".", "a"}},
		{name: "a dot allows the whole root", subtrees: []string{"docs", "."}, allowed: []string{"."},
			accept: []string{".", "a"}},
		{name: "subtrees narrow the root", subtrees: []string{"src/app", "docs"}, allowed: []string{"docs", "src/app"},
			accept: []string{"docs", "docs/a.txt", "./docs/../docs/x", "src/app/main.go"},
			refuse: []string{".", "a.txt", "src", "src/other", "docsX", "docs_secret/x"}},
		{name: "nested subtrees are merged", subtrees: []string{"docs/sub", "docs", "docs/sub/deeper"}, allowed: []string{"docs"},
			accept: []string{"docs/sub/x", "docs/y"}, refuse: []string{"x"}},
		{name: "subtrees are cleaned", subtrees: []string{"/docs/", "./src//app"}, allowed: []string{"docs", "src/app"},
			accept: []string{"docs/a"}, refuse: []string{"src/b"}},
		{name: "subtrees leaving the root are dropped", subtrees: []string{"../x", "docs"}, allowed: []string{"docs"},
			accept: []string{"docs/a"}, refuse: []string{"x"}},
		{name: "a list of only unusable subtrees allows the whole root", subtrees: []string{"../x", "a\x00b", ""}, allowed: []string{"."},
			accept: []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSandbox(i18n.English)
			s.Restrict(tt.subtrees)
			if got := s.Allowed(); !slices.Equal(got, tt.allowed) {
				t.Errorf("Allowed() = %q, want %q", got, tt.allowed)
			}
			for _, p := range tt.accept {
				if _, err := s.Resolve(p); err != nil {
					t.Errorf("Resolve(%q) = %v, want it accepted", p, err)
				}
			}
			for _, p := range tt.refuse {
				_, err := s.Resolve(p)
				if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != NotAllowed {
					t.Errorf("Resolve(%q) = %v, want Reason NotAllowed", p, err)
				}
			}
		})
	}
}

func TestRestrictMessages(t *testing.T) {
	s := newTestSandbox(i18n.English)
	s.Restrict([]string{"docs", "src/app"})
	checkResolve(t, s, resolveCase{in: "other/x", reason: NotAllowed,
		msg: `path "other/x" is outside the folders the client allowed; use a path under "docs" or "src/app"`})
	s.Restrict([]string{"a", "b", "c", "d"})
	checkResolve(t, s, resolveCase{in: "x", reason: NotAllowed,
		msg: `path "x" is outside the folders the client allowed; use a path under "a", "b", "c" or …`})
	s.Restrict([]string{"docs"})
	checkResolve(t, s, resolveCase{in: "x", reason: NotAllowed,
		msg: `path "x" is outside the folders the client allowed; use a path under "docs"`})
	zh := newTestSandbox(i18n.Chinese)
	zh.Restrict([]string{"docs", "src"})
	checkResolve(t, zh, resolveCase{in: "x", reason: NotAllowed,
		msg: `路径 "x" 不在客户端允许的文件夹内；请使用 "docs" 或 "src" 下的路径`})
}

func TestRestrictReplacesThePreviousRestriction(t *testing.T) {
	s := newTestSandbox(i18n.English)
	s.Restrict([]string{"docs"})
	s.Restrict([]string{"src"})
	if got := s.Allowed(); !slices.Equal(got, []string{"src"}) {
		t.Fatalf("Allowed() = %q, want [src]", got)
	}
	s.Restrict(nil)
	if got := s.Allowed(); !slices.Equal(got, []string{"."}) {
		t.Fatalf("Allowed() after Restrict(nil) = %q, want [.]", got)
	}
}

func TestAllowedReturnsACopy(t *testing.T) {
	s := newTestSandbox(i18n.English)
	s.Restrict([]string{"docs"})
	s.Allowed()[0] = "."
	if _, err := s.Resolve("x"); err == nil {
		t.Fatal("changing the slice Allowed returned widened the sandbox")
	}
}

func TestRestrictHost(t *testing.T) {
	tests := []struct {
		name     string
		hostRoot string
		paths    []string
		ignored  []string
		allowed  []string
	}{
		{name: "an empty list of client roots keeps the whole root", hostRoot: testHostRoot,
			paths: nil, ignored: nil, allowed: []string{"."}},
		{name: "a client root inside the root narrows it", hostRoot: testHostRoot,
			paths: []string{testHostRoot + "/docs"}, ignored: nil, allowed: []string{"docs"}},
		{name: "a client root outside the root is ignored and the inside one applies", hostRoot: testHostRoot,
			paths: []string{"/home/user/other", testHostRoot + "/docs"}, ignored: []string{"/home/user/other"}, allowed: []string{"docs"}},
		{name: "only client roots outside the root allow nothing", hostRoot: testHostRoot,
			paths: []string{"/home/user/other", "/tmp"}, ignored: []string{"/home/user/other", "/tmp"}, allowed: []string{}},
		{name: "the sibling with the root as prefix is outside", hostRoot: testHostRoot,
			paths: []string{testHostRoot + "_secret", testHostRoot + "/a"}, ignored: []string{testHostRoot + "_secret"}, allowed: []string{"a"}},
		{name: "the root itself allows the whole root", hostRoot: testHostRoot,
			paths: []string{testHostRoot + "/", testHostRoot + "/docs"}, ignored: nil, allowed: []string{"."}},
		{name: "a folder containing the root allows the whole root", hostRoot: testHostRoot,
			paths: []string{"/srv"}, ignored: nil, allowed: []string{"."}},
		{name: "the slash contains every root", hostRoot: testHostRoot,
			paths: []string{"/"}, ignored: nil, allowed: []string{"."}},
		{name: "a relative client root is ignored", hostRoot: testHostRoot,
			paths: []string{"docs", testHostRoot + "/src"}, ignored: []string{"docs"}, allowed: []string{"src"}},
		{name: "a client root that climbs out is outside", hostRoot: testHostRoot,
			paths: []string{testHostRoot + "/../etc"}, ignored: []string{testHostRoot + "/../etc"}, allowed: []string{}},
		{name: "a client root with a control character is ignored", hostRoot: testHostRoot,
			paths: []string{testHostRoot + "/a\nb"}, ignored: []string{testHostRoot + "/a\nb"}, allowed: []string{}},
		{name: "without a host root every client root is ignored", hostRoot: "",
			paths: []string{"/srv/root/docs"}, ignored: []string{"/srv/root/docs"}, allowed: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{HostRoot: tt.hostRoot})
			s.Restrict([]string{"previous"})
			ignored := s.RestrictHost(tt.paths)
			if !slices.Equal(ignored, tt.ignored) {
				t.Errorf("RestrictHost(%q) ignored %q, want %q", tt.paths, ignored, tt.ignored)
			}
			if got := s.Allowed(); !slices.Equal(got, tt.allowed) {
				t.Errorf("Allowed() = %q, want %q", got, tt.allowed)
			}
		})
	}
}

func TestRootsThatShareNothingWithTheRootAllowNothing(t *testing.T) {
	s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{HostRoot: testHostRoot})
	s.RestrictHost([]string{"/home/user/elsewhere"})
	_, err := s.Resolve("docs/a.txt")
	want := `path "docs/a.txt" cannot be used: the client's roots include no part of the root`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	s.RestrictHost([]string{testHostRoot + "/docs"})
	if _, err := s.Resolve("docs/a.txt"); err != nil {
		t.Fatalf("a later list that includes docs must allow it again: %v", err)
	}
	s.Deny()
	if got := s.Allowed(); len(got) != 0 {
		t.Fatalf("after Deny, Allowed() = %q", got)
	}
	if _, err := s.Resolve("docs/a.txt"); err == nil {
		t.Fatal("Deny allowed a path")
	}
}

func TestRestrictHostNarrowsAbsolutePaths(t *testing.T) {
	s := newTestSandbox(i18n.English)
	s.RestrictHost([]string{testHostRoot + "/docs"})
	if got, err := s.Resolve(testHostRoot + "/docs/a.txt"); err != nil || got != "docs/a.txt" {
		t.Errorf("Resolve inside the client root = %q, %v; want docs/a.txt", got, err)
	}
	_, err := s.Resolve(testHostRoot + "/src/a.txt")
	if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != NotAllowed {
		t.Errorf("Resolve outside the client root = %v, want Reason NotAllowed", err)
	}
}

// memSandbox returns a sandbox over a MemMapFs holding notes/a.txt and the
// empty directory empty.
func memSandbox(t *testing.T, lang i18n.Lang) *Sandbox {
	t.Helper()
	fsys := afero.NewMemMapFs()
	if err := afero.WriteFile(fsys, "notes/a.txt", []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Mkdir("empty", 0o755); err != nil {
		t.Fatal(err)
	}
	return NewSandbox(fsys, SandboxOptions{Lang: lang})
}

func TestOpenRead(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		wantDir bool
		isDir   bool
		reason  Reason
		msg     string
	}{
		{name: "a regular file opens", path: "notes/a.txt"},
		{name: "a raw path is resolved first", path: "./notes/../notes/a.txt"},
		{name: "a directory opens when a directory is wanted", path: "notes", wantDir: true, isDir: true},
		{name: "a regular file also opens when a directory is wanted", path: "notes/a.txt", wantDir: true},
		{name: "a directory is refused when a file is wanted", path: "notes", reason: IsDir,
			msg: `"notes" is a directory, not a file; list_directory shows what it contains`},
		{name: "a missing file is refused", path: "notes/todo", reason: NotExist,
			msg: `"notes/todo" does not exist; list_directory shows what does`},
		{name: "a bad path is refused before opening", path: "../x", reason: Escapes,
			msg: `path "../x" leaves the root; use a path inside it, such as "x"`},
	}
	s := memSandbox(t, i18n.English)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, fi, err := s.OpenRead(tt.path, tt.wantDir)
			if tt.msg != "" {
				pe, ok := errors.AsType[*PathError](err)
				if !ok {
					t.Fatalf("OpenRead(%q) = %v, want a *PathError", tt.path, err)
				}
				if pe.Reason != tt.reason || err.Error() != tt.msg {
					t.Errorf("OpenRead(%q) = %v (%v), want %q (%v)", tt.path, err, pe.Reason, tt.msg, tt.reason)
				}
				if f != nil || fi != nil {
					t.Errorf("OpenRead(%q) returned a file with its error", tt.path)
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenRead(%q) = %v", tt.path, err)
			}
			defer f.Close()
			if fi.IsDir() != tt.isDir {
				t.Errorf("OpenRead(%q) IsDir = %v, want %v", tt.path, fi.IsDir(), tt.isDir)
			}
		})
	}
}

func TestOpenWrite(t *testing.T) {
	s := memSandbox(t, i18n.English)
	f, err := s.OpenWrite("notes/b.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatalf("OpenWrite of a new file = %v", err)
	}
	if _, err := f.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = s.OpenWrite("notes/b.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != Exists ||
		err.Error() != `"notes/b.txt" already exists; choose another name` {
		t.Errorf("OpenWrite with O_EXCL of an existing file = %v, want Reason Exists", err)
	}
	_, err = s.OpenWrite("~/x", os.O_WRONLY|os.O_CREATE, 0o644)
	if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != Tilde {
		t.Errorf("OpenWrite of a tilde path = %v, want Reason Tilde", err)
	}
}

// errnoError wraps an errno the way the os package does.
func errnoError(errno syscall.Errno) error {
	return &fs.PathError{Op: "openat", Path: "x", Err: errno}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		name   string
		op     string
		rel    string
		err    error
		reason Reason
		msg    string
	}{
		{name: "a missing file does not exist", rel: "notes/todo", err: errnoError(syscall.ENOENT), reason: NotExist,
			msg: `"notes/todo" does not exist; list_directory shows what does`},
		{name: "afero's not found does not exist", rel: "a", err: &fs.PathError{Op: "open", Path: "a", Err: afero.ErrFileNotFound}, reason: NotExist,
			msg: `"a" does not exist; list_directory shows what does`},
		{name: "an existing file exists", rel: "a", err: errnoError(syscall.EEXIST), reason: Exists,
			msg: `"a" already exists; choose another name`},
		{name: "a full directory is not empty", rel: "d", err: errnoError(syscall.ENOTEMPTY), reason: NotEmpty,
			msg: `"d" is a directory that is not empty; remove what it contains first`},
		{name: "a file on the way is not a directory", rel: "a.txt/b", err: errnoError(syscall.ENOTDIR), reason: NotDir,
			msg: `"a.txt/b" is not a directory, or lies under a file; check the path`},
		{name: "a directory is a directory", rel: "d", err: errnoError(syscall.EISDIR), reason: IsDir,
			msg: `"d" is a directory, not a file; list_directory shows what it contains`},
		{name: "access denied is a permission error", rel: "a", err: errnoError(syscall.EACCES), reason: Permission,
			msg: `permission denied for "a"; the server may not access it`},
		{name: "operation not permitted is a permission error", rel: "a", err: errnoError(syscall.EPERM), reason: Permission,
			msg: `permission denied for "a"; the server may not access it`},
		{name: "a link loop has too many links", rel: "loop", err: errnoError(syscall.ELOOP), reason: TooManyLinks,
			msg: `"loop" has too many levels of symbolic links (a loop?); it cannot be followed`},
		{name: "a read-only file system is read-only", rel: "a", err: errnoError(syscall.EROFS), reason: ReadOnly,
			msg: `"a" is on a read-only file system, so it cannot be changed; write somewhere else`},
		{name: "a full disk has no space", rel: "a", err: errnoError(syscall.ENOSPC), reason: NoSpace,
			msg: `no space is left on the disk to write "a"; free some space or write less`},
		{name: "a full quota has no space, said as a quota", rel: "a", err: errnoError(syscall.EDQUOT), reason: NoSpace,
			msg: `cannot write "a": the server's disk quota is used up; free some of its space or write less`},
		{name: "a file past the size limit is too large", op: "write", rel: "a", err: errnoError(syscall.EFBIG), reason: FileTooLarge,
			msg: `"a" would exceed the largest file size the server may write (a ulimit); write less`},
		{name: "no descriptor left is too many open files", op: "read", rel: "a", err: errnoError(syscall.EMFILE), reason: TooManyOpen,
			msg: `cannot read "a": the server has too many files open; try again once other calls finish`},
		{name: "a full system file table is too many open files", op: "read", rel: "a", err: errnoError(syscall.ENFILE), reason: TooManyOpen,
			msg: `cannot read "a": the server has too many files open; try again once other calls finish`},
		{name: "a name the kernel finds too long is too long", rel: "a", err: errnoError(syscall.ENAMETOOLONG), reason: TooLong,
			msg: `"a", or a name in it, is longer than the file system allows; use shorter names`},
		{name: "an escape refused by os.Root names the link", rel: "x",
			err: &fs.PathError{Op: "openat", Path: "x", Err: errors.New("path escapes from parent")}, reason: LinkOutside,
			msg: `"x" is a symbolic link that points outside the root; it cannot be followed`},
		{name: "a missing file named like the escape error does not exist", rel: "path escapes from parent",
			err: &fs.PathError{Op: "openat", Path: "path escapes from parent", Err: syscall.ENOENT}, reason: NotExist,
			msg: `"path escapes from parent" does not exist; list_directory shows what does`},
		{name: "a pipe without reader is special", op: "write", rel: "p", err: errnoError(syscall.ENXIO), reason: Special,
			msg: `"p" is a special file, not a regular file; only regular files can be written`},
		{name: "removing the root is refused", op: "remove", rel: ".", err: errnoError(syscall.EINVAL), reason: RootItself,
			msg: `the root itself cannot be changed this way; name a path inside it`},
		{name: "renaming the root is refused", op: "rename", rel: ".", err: errnoError(syscall.EBUSY), reason: RootItself,
			msg: `the root itself cannot be changed this way; name a path inside it`},
		{name: "anything else is a generic failure without the raw text", op: "read", rel: "a",
			err: &fs.PathError{Op: "read", Path: "/srv/root/a", Err: errors.New("input/output error")}, reason: Other,
			msg: `cannot read "a"; the file system reported an unexpected error`},
	}
	s := memSandbox(t, i18n.English)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := tt.op
			if op == "" {
				op = "open"
			}
			err := s.Explain(op, tt.rel, tt.err)
			pe, ok := errors.AsType[*PathError](err)
			if !ok {
				t.Fatalf("Explain = %T %v, want a *PathError", err, err)
			}
			if pe.Reason != tt.reason || err.Error() != tt.msg {
				t.Errorf("Explain = %q (%v), want %q (%v)", err.Error(), pe.Reason, tt.msg, tt.reason)
			}
			if !errors.Is(err, tt.err) || pe.Unwrap() != tt.err {
				t.Error("Explain does not wrap the cause")
			}
			if pe.Op != op || pe.Path != tt.rel {
				t.Errorf("Explain Op, Path = %q, %q; want %q, %q", pe.Op, pe.Path, op, tt.rel)
			}
		})
	}
}

func TestExplainPassesThrough(t *testing.T) {
	s := memSandbox(t, i18n.English)
	if err := s.Explain("read", "a", nil); err != nil {
		t.Errorf("Explain of nil = %v, want nil", err)
	}
	_, refused := s.Resolve("../x")
	if err := s.Explain("read", "a", refused); err != refused {
		t.Errorf("Explain of a *PathError = %v, want it unchanged", err)
	}
}

func TestExplainSpeaksChinese(t *testing.T) {
	s := memSandbox(t, i18n.Chinese)
	err := s.Explain("read", "notes/todo", errnoError(syscall.ENOENT))
	if want := `"notes/todo" 不存在；list_directory 可列出已有的内容`; err.Error() != want {
		t.Errorf("Explain in Chinese = %q, want %q", err.Error(), want)
	}
}

func TestEveryReasonHasAName(t *testing.T) {
	seen := map[string]Reason{}
	for r := Other; int(r) < len(reasonNames); r++ {
		name := r.String()
		if name == "" || strings.ContainsAny(name, " -") {
			t.Errorf("Reason(%d).String() = %q, want snake case", int(r), name)
		}
		if prev, dup := seen[name]; dup && r != Other {
			t.Errorf("Reason(%d) and Reason(%d) share the name %q", int(prev), int(r), name)
		}
		seen[name] = r
	}
	if Escapes.String() != "escapes_root" {
		t.Errorf("Escapes.String() = %q, want escapes_root", Escapes.String())
	}
	if Reason(999).String() != "other" {
		t.Errorf("an unknown Reason is %q, want other", Reason(999).String())
	}
}

func TestEveryMessageIsOneShortSentenceInBothLanguages(t *testing.T) {
	if err := catalog.Check(numMsgs); err != nil {
		t.Error(err)
	}
	for m := msgOther; m < numMsgs; m++ {
		for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
			text := m.format(lang, "read", "notes/a.txt", "pipe", "255")
			if text == "" || strings.ContainsAny(text, "{}\n") {
				t.Errorf("message %d in %s = %q: empty, or a placeholder is left", m, lang, text)
			}
			if n := len([]rune(text)); n > 100 {
				t.Errorf("message %d in %s has %d characters, want at most 100: %s", m, lang, n, text)
			}
		}
	}
}

func TestQuoteShortensLongPaths(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "a short path is only quoted", in: "a/b", want: `"a/b"`},
		{name: "a path of forty runes is kept", in: strings.Repeat("x", 40), want: `"` + strings.Repeat("x", 40) + `"`},
		{name: "a longer path keeps its head and tail", in: strings.Repeat("h", 30) + strings.Repeat("t", 30),
			want: `"` + strings.Repeat("h", 20) + "…" + strings.Repeat("t", 19) + `"`},
		{name: "multibyte runes are never cut", in: strings.Repeat("日", 50), want: `"` + strings.Repeat("日", 20) + "…" + strings.Repeat("日", 19) + `"`},
		{name: "control characters are escaped", in: "a\x00\n", want: `"a\u{0}\u{A}"`},
		{name: "a backslash in a name is escaped", in: `a\b`, want: `"a\u{5C}b"`},
		{name: "invalid bytes and bidi overrides are escaped", in: "a\xff\u202e", want: `"a\x{FF}\u{202E}"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quote(tt.in); got != tt.want {
				t.Errorf("quote(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestRestrictWhileResolving(t *testing.T) {
	s := newTestSandbox(i18n.English)
	s.Restrict([]string{"docs"})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 1000 {
			if i%2 == 0 {
				s.Restrict([]string{"docs"})
			} else {
				s.RestrictHost([]string{testHostRoot + "/src"})
			}
		}
	}()
	for range 1000 {
		// Neither restriction ever allows other/x.
		if r, err := s.Resolve("other/x"); err == nil {
			t.Fatalf("Resolve(other/x) = %q while the sandbox is restricted", r)
		}
		if r, err := s.Resolve("docs/a"); err == nil && r != "docs/a" {
			t.Fatalf("Resolve(docs/a) = %q", r)
		}
	}
	<-done
}
