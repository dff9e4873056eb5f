package security

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
)

// testHostRoot is the HostRoot of the sandboxes in the Resolve tests.
const testHostRoot = "/srv/root"

// newTestSandbox returns a sandbox over an empty MemMapFs with the host
// root testHostRoot.
func newTestSandbox(lang i18n.Lang) *Sandbox {
	return NewSandbox(afero.NewMemMapFs(), SandboxOptions{HostRoot: testHostRoot, Lang: lang})
}

// resolveCase is one path through Resolve: either the wanted result, or
// the wanted Reason and exact message.
type resolveCase struct {
	name   string
	in     string
	want   string
	reason Reason
	msg    string
}

// checkResolve runs c through s.Resolve.
func checkResolve(t *testing.T, s *Sandbox, c resolveCase) {
	t.Helper()
	got, err := s.Resolve(c.in)
	if c.msg == "" {
		if err != nil || got != c.want {
			t.Fatalf("Resolve(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		return
	}
	if err == nil {
		t.Fatalf("Resolve(%q) = %q; want the error %q", c.in, got, c.msg)
	}
	if got != "" {
		t.Errorf("Resolve(%q) returned %q with its error; want \"\"", c.in, got)
	}
	pe, ok := errors.AsType[*PathError](err)
	if !ok {
		t.Fatalf("Resolve(%q) error %T is not a *PathError", c.in, err)
	}
	if pe.Reason != c.reason {
		t.Errorf("Resolve(%q) reason = %v, want %v", c.in, pe.Reason, c.reason)
	}
	if pe.Path != c.in {
		t.Errorf("Resolve(%q) PathError.Path = %q, want the path as given", c.in, pe.Path)
	}
	if err.Error() != c.msg {
		t.Errorf("Resolve(%q) message\n got %s\nwant %s", c.in, err.Error(), c.msg)
	}
}

func TestResolveAccepts(t *testing.T) {
	tests := []resolveCase{
		{name: "a relative path is returned as it is", in: "notes/a.txt", want: "notes/a.txt"},
		{name: "a single name is returned as it is", in: "a.txt", want: "a.txt"},
		{name: "a leading ./ is dropped", in: "./notes/a.txt", want: "notes/a.txt"},
		{name: "an inner .. that stays inside is cleaned away", in: "./notes/../a.txt", want: "a.txt"},
		{name: "a .. back to the root gives the root", in: "notes/..", want: "."},
		{name: "a dot is the root", in: ".", want: "."},
		{name: "a dot and slash is the root", in: "./", want: "."},
		{name: "a trailing slash is dropped", in: "notes/", want: "notes"},
		{name: "repeated slashes are merged", in: "notes//sub///a.txt", want: "notes/sub/a.txt"},
		{name: "inner dots are dropped", in: "notes/./a.txt", want: "notes/a.txt"},
		{name: "unicode names are kept", in: "笔记/résumé ✓.txt", want: "笔记/résumé ✓.txt"},
		{name: "emoji with joiners are kept", in: "👩‍💻/a.txt", want: "👩‍💻/a.txt"},
		{name: "spaces are kept", in: "my notes/a b.txt", want: "my notes/a b.txt"},
		{name: "a name starting with dots is a name", in: "...", want: "..."},
		{name: "a name starting with two dots is a name", in: "..a/b", want: "..a/b"},
		{name: "a tilde inside a name is a name", in: "notes/~backup", want: "notes/~backup"},
		{name: "a colon after a longer name is a name", in: "ab:c", want: "ab:c"},
		{name: "a letter and colon before a name is a name", in: "a:b", want: "a:b"},
		{name: "the absolute host root is the root", in: testHostRoot, want: "."},
		{name: "the absolute host root with a slash is the root", in: testHostRoot + "/", want: "."},
		{name: "an absolute path inside the host root is made relative", in: testHostRoot + "/notes/a.txt", want: "notes/a.txt"},
		{name: "an absolute path with a .. that stays inside is cleaned", in: testHostRoot + "/notes/../a.txt", want: "a.txt"},
		{name: "an absolute path with repeated slashes is cleaned", in: "///srv//root/a.txt", want: "a.txt"},
		{name: "proc-like names are just names inside the root", in: "proc/self/root", want: "proc/self/root"},
		{name: "dev-like names are just names inside the root", in: "dev/null", want: "dev/null"},
		{name: "a path of exactly the maximum length is accepted", in: strings.Repeat("a/", 2047) + "bb", want: strings.Repeat("a/", 2047) + "bb"},
		{name: "a name of exactly the maximum length is accepted", in: strings.Repeat("n", 255), want: strings.Repeat("n", 255)},
		{name: "a long name removed by .. does not count", in: strings.Repeat("n", 300) + "/../a", want: "a"},
	}
	s := newTestSandbox(i18n.English)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkResolve(t, s, tt) })
	}
}

func TestResolveRefuses(t *testing.T) {
	long := strings.Repeat("a", 4097)
	longName := strings.Repeat("b", 256)
	tests := []resolveCase{
		{name: "the empty path is refused", in: "", reason: Empty,
			msg: `the path is empty; use "." for the root or a path relative to it`},
		{name: "a NUL byte is refused", in: "a\x00b", reason: Control,
			msg: `path "a\u{0}b" contains the control or invisible character U+0000; remove it`},
		{name: "a newline is refused", in: "notes\n.txt", reason: Control,
			msg: `path "notes\u{A}.txt" contains the control or invisible character U+000A; remove it`},
		{name: "a DEL is refused", in: "a\x7f", reason: Control,
			msg: `path "a\u{7F}" contains the control or invisible character U+007F; remove it`},
		{name: "a C1 control is refused", in: "a\u0085b", reason: Control,
			msg: `path "a\u{85}b" contains the control or invisible character U+0085; remove it`},
		{name: "a right-to-left override is refused", in: "invoice\u202etxt.exe", reason: Control,
			msg: `path "invoice\u{202E}txt.exe" contains the control or invisible character U+202E; remove it`},
		{name: "a zero-width space is refused", in: "a\u200bb", reason: Control,
			msg: `path "a\u{200B}b" contains the control or invisible character U+200B; remove it`},
		{name: "invalid UTF-8 is refused", in: "a\xffb", reason: Control,
			msg: `path "a\x{FF}b" is not valid UTF-8; send the path as UTF-8 text`},
		{name: "a control character is reported before a backslash", in: `a\b` + "\x01", reason: Control,
			msg: `path "a\b\u{1}" contains the control or invisible character U+0001; remove it`},
		{name: "a backslash separator is refused", in: `notes\a.txt`, reason: Backslash,
			msg: `path "notes\a.txt" contains a backslash; use / as the separator, such as "notes/a.txt"`},
		{name: "a relative Windows path is a backslash path", in: `..\x`, reason: Backslash,
			msg: `path "..\x" contains a backslash; use / as the separator, such as "../x"`},
		{name: "a drive with a backslash is a Windows path", in: `C:\x`, reason: WindowsPath,
			msg: `path "C:\x" is a Windows path; use a path relative to the root with / separators`},
		{name: "a drive with a slash is a Windows path", in: "C:/x", reason: WindowsPath,
			msg: `path "C:/x" is a Windows path; use a path relative to the root with / separators`},
		{name: "a drive alone is a Windows path", in: "C:", reason: WindowsPath,
			msg: `path "C:" is a Windows path; use a path relative to the root with / separators`},
		{name: "a lower-case drive is a Windows path", in: `d:\`, reason: WindowsPath,
			msg: `path "d:\" is a Windows path; use a path relative to the root with / separators`},
		{name: "a UNC path with backslashes is refused", in: `\\server\share`, reason: WindowsPath,
			msg: `path "\\server\share" is a network (UNC) path; use a path relative to the root`},
		{name: "a UNC path with slashes is refused", in: "//server/share", reason: WindowsPath,
			msg: `path "//server/share" is a network (UNC) path; use a path relative to the root`},
		{name: "a device namespace path is refused", in: `\\?\C:\x`, reason: WindowsPath,
			msg: `path "\\?\C:\x" is a network (UNC) path; use a path relative to the root`},
		{name: "a lone tilde is refused", in: "~", reason: Tilde,
			msg: `path "~" starts with ~; paths are relative to the root; ~ is not expanded`},
		{name: "a tilde home path is refused", in: "~/notes", reason: Tilde,
			msg: `path "~/notes" starts with ~; paths are relative to the root; ~ is not expanded`},
		{name: "a tilde user path is refused", in: "~root/.ssh", reason: Tilde,
			msg: `path "~root/.ssh" starts with ~; paths are relative to the root; ~ is not expanded`},
		{name: "a tilde brought forward by cleaning is refused", in: "./~", reason: Tilde,
			msg: `path "./~" starts with ~; paths are relative to the root; ~ is not expanded`},
		{name: "a tilde brought forward by dot-dot is refused", in: "a/../~x", reason: Tilde,
			msg: `path "a/../~x" starts with ~; paths are relative to the root; ~ is not expanded`},
		{name: "a drive brought forward by cleaning is refused", in: "./C:/x", reason: WindowsPath,
			msg: `path "./C:/x" is a Windows path; use a path relative to the root with / separators`},
		{name: "a dot-dot is refused", in: "..", reason: Escapes,
			msg: `path ".." leaves the root; use a path inside it, such as "."`},
		{name: "a dot-dot path is refused", in: "../x", reason: Escapes,
			msg: `path "../x" leaves the root; use a path inside it, such as "x"`},
		{name: "a dot-dot chain is refused", in: "../../../../etc/passwd", reason: Escapes,
			msg: `path "../../../../etc/passwd" leaves the root; use a path inside it, such as "etc/passwd"`},
		{name: "an inner dot-dot that climbs too far is refused", in: "notes/../../x", reason: Escapes,
			msg: `path "notes/../../x" leaves the root; use a path inside it, such as "x"`},
		{name: "a dot-dot after the root name is refused", in: "./..", reason: Escapes,
			msg: `path "./.." leaves the root; use a path inside it, such as "."`},
		{name: "an absolute system path is refused", in: "/etc/passwd", reason: Escapes,
			msg: `path "/etc/passwd" is outside the root; use a path relative to the root`},
		{name: "the slash alone is refused", in: "/", reason: Escapes,
			msg: `path "/" is outside the root; use a path relative to the root`},
		{name: "the sibling with the root as prefix is refused (CVE-2025-53110)", in: testHostRoot + "_secret", reason: Escapes,
			msg: `path "/srv/root_secret" is outside the root; use a path relative to the root`},
		{name: "a file in the sibling with the root as prefix is refused", in: testHostRoot + "_secret/key", reason: Escapes,
			msg: `path "/srv/root_secret/key" is outside the root; use a path relative to the root`},
		{name: "an absolute path climbing out of the root is refused", in: testHostRoot + "/../etc", reason: Escapes,
			msg: `path "/srv/root/../etc" is outside the root; use a path relative to the root`},
		{name: "the parent of the root is refused", in: "/srv", reason: Escapes,
			msg: `path "/srv" is outside the root; use a path relative to the root`},
		{name: "absolute proc paths are refused", in: "/proc/self/root/etc/passwd", reason: Escapes,
			msg: `path "/proc/self/root/etc/passwd" is outside the root; use a path relative to the root`},
		{name: "a path over the maximum length is refused", in: long, reason: TooLong,
			msg: `path "aaaaaaaaaaaaaaaaaaaa…aaaaaaaaaaaaaaaaaaa" is 4097 bytes long; use at most 4096 bytes`},
		{name: "a name over the maximum length is refused", in: "notes/" + longName + "/x", reason: NameTooLong,
			msg: `path "notes/bbbbbbbbbbbbbb…bbbbbbbbbbbbbbbbb/x" has a name of 256 bytes; names may have at most 255 bytes`},
	}
	s := newTestSandbox(i18n.English)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkResolve(t, s, tt) })
	}
}

func TestResolveSpeaksChinese(t *testing.T) {
	tests := []resolveCase{
		{name: "a dot-dot path is refused in Chinese", in: "../x", reason: Escapes,
			msg: `路径 "../x" 超出了根目录；请使用根目录内的路径，例如 "x"`},
		{name: "a Windows path is refused in Chinese", in: `C:\x`, reason: WindowsPath,
			msg: `路径 "C:\x" 是 Windows 路径；请使用相对于根目录、以 / 分隔的路径`},
		{name: "a tilde is refused in Chinese", in: "~", reason: Tilde,
			msg: `路径 "~" 以 ~ 开头；路径相对于根目录，~ 不会被展开`},
		{name: "an absolute path outside is refused in Chinese", in: "/etc/passwd", reason: Escapes,
			msg: `路径 "/etc/passwd" 在根目录之外；请使用相对于根目录的路径`},
	}
	s := newTestSandbox(i18n.Chinese)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkResolve(t, s, tt) })
	}
}

func TestResolveWithoutHostRoot(t *testing.T) {
	s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{})
	tests := []resolveCase{
		{name: "a relative path is accepted", in: "a/b", want: "a/b"},
		{name: "every absolute path is refused", in: "/a/b", reason: Escapes,
			msg: `path "/a/b" is outside the root; use a path relative to the root`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkResolve(t, s, tt) })
	}
}

func TestResolveWithHostRootSlash(t *testing.T) {
	s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{HostRoot: "/"})
	tests := []resolveCase{
		{name: "the slash is the root", in: "/", want: "."},
		{name: "an absolute path is made relative", in: "/etc/hosts", want: "etc/hosts"},
		{name: "an absolute dot-dot cannot climb above the slash", in: "/../x", want: "x"},
		{name: "a relative dot-dot is still refused", in: "../x", reason: Escapes,
			msg: `path "../x" leaves the root; use a path inside it, such as "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkResolve(t, s, tt) })
	}
}

func TestResolveHonoursLimits(t *testing.T) {
	s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{Limits: Limits{MaxPathBytes: 10, MaxNameBytes: 4}})
	tests := []resolveCase{
		{name: "a path at the limits is accepted", in: "abcd/efgh", want: "abcd/efgh"},
		{name: "a path over the byte limit is refused", in: "abcd/efgh/i", reason: TooLong,
			msg: `path "abcd/efgh/i" is 11 bytes long; use at most 10 bytes`},
		{name: "a name over the name limit is refused", in: "abcde", reason: NameTooLong,
			msg: `path "abcde" has a name of 5 bytes; names may have at most 4 bytes`},
		{name: "a multibyte name counts bytes", in: "日本", reason: NameTooLong,
			msg: `path "日本" has a name of 6 bytes; names may have at most 4 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkResolve(t, s, tt) })
	}
}
