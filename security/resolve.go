package security

import (
	"io/fs"

	"fmt"
	"github.com/spf13/afero"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Resolve checks a path a model sent and returns its clean form relative to
// the root, "." for the root itself.
//
// It accepts relative paths ("notes/a.txt", "./notes/../a.txt" as long as
// it never goes above the root), with repeated or trailing slashes, and
// absolute paths that lie inside SandboxOptions.HostRoot, which it strips
// to relative ones.
//
// A path may name entries whose names hold characters it may not: every
// backslash that starts a well-formed escape, \u{X} or \x{XX}, is decoded
// (see EscapeName), and the checks below apply to the decoded path.
//
// It refuses, each with its own Reason: the empty path (Empty); NUL, other
// control characters, invisible formatting characters and invalid UTF-8
// typed as they are, and escapes that stand for NUL, '/' or no character
// (Control); Windows drive paths ("C:\x", "C:/x", "C:") and UNC paths
// ("\\server\share", "//server/share") (WindowsPath); other backslashes
// (Backslash); paths starting with "~" (Tilde); paths that leave the root
// lexically, by ".." above it or by being absolute and outside HostRoot
// (Escapes), which includes a sibling such as "/srv/root_secret" of the
// root "/srv/root" and every absolute path when HostRoot is empty; paths
// longer than Limits.MaxPathBytes once decoded (TooLong) or with an element longer than
// Limits.MaxNameBytes (NameTooLong); and paths outside the subtrees set by
// Restrict (NotAllowed). The error is always a *PathError.
//
// The "~" and drive checks also apply to the first element after
// cleaning, so "./~" and "./C:" are refused as well: a result of Resolve,
// escaped with EscapeName, always resolves to itself.
//
// Resolve does not touch the file system. Symbolic links are the file
// system's business: a RootFs refuses those that leave the root, and
// Explain turns that refusal into a clear sentence.
func (s *Sandbox) Resolve(p string) (string, error) {
	r, inner, err := s.resolve(p, true)
	if err != nil {
		return "", err
	}
	return r.qualify(inner), nil
}

// resolve is Resolve, returning the root and the path relative to it;
// the subtrees set by Restrict are checked only if checkAllowed.
func (s *Sandbox) resolve(p string, checkAllowed bool) (*sbRoot, string, error) {
	if p == "" {
		return nil, "", s.refuse(p, Empty, msgEmpty, "", "")
	}
	// The limit is on the path the escapes stand for (checked once they
	// are decoded, below); EscapeName writes at most six characters for a
	// byte, so a path it escaped is at most six times as long typed.
	//
	// With several roots, a path may carry its root's name ("notes:/") on
	// top of the path inside the root, which is what the limit bounds
	// (checked below, once the root is known): the tools resolve Resolve's
	// results again, and those always carry the name.
	maxBytes := s.limits.MaxPathBytes
	if len(s.roots) > 1 {
		maxBytes += MaxRootNameBytes + len(":/")
	}
	if len(p) > maxBytes && (strings.IndexByte(p, '\\') < 0 || len(p) > maxEscapedLen*maxBytes) {
		return nil, "", s.refuse(p, TooLong, msgTooLong, strconv.Itoa(len(p)), strconv.Itoa(s.limits.MaxPathBytes))
	}
	backslash := false
	for rest := p; ; {
		bad, i, ok := ClassPath.Check(rest)
		if ok {
			break
		}
		if bad == '\\' {
			backslash = true
			rest = rest[i+1:]
			continue
		}
		if bad == utf8.RuneError {
			return nil, "", s.refuse(p, Control, msgInvalidUTF8, "", "")
		}
		return nil, "", s.refuse(p, Control, msgControl, fmt.Sprintf("U+%04X", bad), "")
	}
	switch {
	case strings.HasPrefix(p, `\\`) || len(p) > 2 && p[0] == '/' && p[1] == '/' && p[2] != '/':
		return nil, "", s.refuse(p, WindowsPath, msgUNC, "", "")
	case isDrive(p):
		return nil, "", s.refuse(p, WindowsPath, msgDrive, "", "")
	case backslash:
		return nil, "", s.refuse(p, Backslash, msgBackslash, strings.ReplaceAll(p, `\`, "/"), "")
	case p[0] == '~':
		return nil, "", s.refuse(p, Tilde, msgTilde, "", "")
	}

	// Every backslash left starts an escape (see EscapeName); the checks
	// below see the names it stands for.
	dec, bad := unescape(p)
	if bad != "" {
		return nil, "", s.refuse(p, Control, msgBadEscape, bad, "")
	}
	if len(dec) > maxBytes {
		return nil, "", s.refuse(p, TooLong, msgTooLong, strconv.Itoa(len(dec)), strconv.Itoa(s.limits.MaxPathBytes))
	}

	r, rel := s.roots[0], ""
	switch {
	case p[0] == '/':
		var err error
		if r, rel, err = s.absolute(p, path.Clean(dec)); err != nil {
			return nil, "", err
		}
	case len(s.roots) > 1:
		var err error
		if r, rel, err = s.named(p, dec); err != nil {
			return nil, "", err
		}
		if escapes(rel) {
			return nil, "", s.refuse(p, Escapes, msgDotDot, r.qualify(insideHint(rel)), "")
		}
	default:
		rel = path.Clean(dec)
		if escapes(rel) {
			return nil, "", s.refuse(p, Escapes, msgDotDot, insideHint(rel), "")
		}
	}

	if len(rel) > s.limits.MaxPathBytes { // the path inside its root
		return nil, "", s.refuse(p, TooLong, msgTooLong, strconv.Itoa(len(rel)), strconv.Itoa(s.limits.MaxPathBytes))
	}

	// Cleaning can bring a first element forward that the checks above
	// refuse ("./~", "./C:"); refuse it too, so that a result resolves to
	// itself.
	if rel[0] == '~' {
		return nil, "", s.refuse(p, Tilde, msgTilde, "", "")
	}
	if isDrive(rel) {
		return nil, "", s.refuse(p, WindowsPath, msgDrive, "", "")
	}

	for elem := rel; elem != ""; {
		name := elem
		if i := strings.IndexByte(elem, '/'); i >= 0 {
			name, elem = elem[:i], elem[i+1:]
		} else {
			elem = ""
		}
		if len(name) > s.limits.MaxNameBytes {
			return nil, "", s.refuse(p, NameTooLong, msgNameTooLong, strconv.Itoa(len(name)), strconv.Itoa(s.limits.MaxNameBytes))
		}
	}

	if !checkAllowed {
		return r, rel, nil
	}
	if allowed := r.allowed.Load(); allowed != nil && len(*allowed) == 0 {
		if len(s.roots) > 1 {
			return nil, "", s.refuse(p, NotAllowed, msgNoRootsIn, r.name, "")
		}
		return nil, "", s.refuse(p, NotAllowed, msgNoRoots, "", "")
	} else if allowed != nil && !within(rel, *allowed) {
		shown := make([]string, len(*allowed))
		for i, t := range *allowed {
			shown[i] = r.qualify(t)
		}
		return nil, "", s.refuse(p, NotAllowed, msgNotAllowed, strings.Join(shown, listSep), "")
	}
	return r, rel, nil
}

// absolute returns the root an absolute path lies in, c being its clean
// decoded form, and the path relative to that root: the innermost root
// when they nest. A path inside two roots on one folder is refused with
// both readings.
func (s *Sandbox) absolute(p, c string) (*sbRoot, string, error) {
	var best *sbRoot
	var bestRel string
	bestLen := -1
	for _, r := range s.roots {
		rel, ok := r.below(c)
		if !ok {
			continue
		}
		n := len(c) - len(rel) // the length of the root's folder in c
		if rel == "." {
			n = len(c)
		}
		switch {
		case n > bestLen:
			best, bestRel, bestLen = r, rel, n
		case n == bestLen:
			return nil, "", s.refuse(p, Ambiguous, msgAmbiguous, best.qualify(bestRel), r.qualify(rel))
		}
	}
	if best == nil {
		if len(s.roots) > 1 {
			return nil, "", s.refuse(p, Escapes, msgAbsoluteRoots, s.rootList(), "")
		}
		return nil, "", s.refuse(p, Escapes, msgAbsolute, "", "")
	}
	return best, bestRel, nil
}

// named returns the root a relative path names, dec being its decoded
// form, and the path relative to that root, not yet checked for "..".
//
// "name:/rest" and "name:" always name the root called name: that is the
// form Resolve returns and the tools show, so what they show can always
// be given back, and no entry of the first root can stand in for a root.
// "name:rest" names the root too, unless the first root holds an entry
// named like its first element, "name:rest"; then it could mean either,
// and it is refused with both readings, each written so that it resolves
// (the first root's entry with the first root's name before it). A first
// element that looks like "name:/…" for a name no root has, and that does
// not exist in the first root, is refused with the list of roots. Any
// other path lies in the first root.
func (s *Sandbox) named(p, dec string) (*sbRoot, string, error) {
	first := s.roots[0]
	name, rest, ok := strings.Cut(dec, ":")
	if !ok || CheckRootName(name) != nil {
		return first, path.Clean(dec), nil
	}
	canonical := rest == "" || rest[0] == '/'
	r := s.rootNamed(name)
	exists := func() bool {
		head, _, _ := strings.Cut(dec, "/")
		_, _, err := lstatFs(first.fs, head)
		return err == nil
	}
	switch {
	case r == nil && canonical && !exists():
		return nil, "", s.refuse(p, NotExist, msgUnknownRoot, name, s.rootList())
	case r == nil:
		return first, path.Clean(dec), nil
	}
	inner := "."
	if rest = strings.TrimLeft(rest, "/"); rest != "" {
		inner = path.Clean(rest)
	}
	if !canonical && exists() {
		return nil, "", s.refuse(p, Ambiguous, msgAmbiguous, r.qualify(inner), first.qualify(path.Clean(dec)))
	}
	return r, inner, nil
}

// rootList returns the roots' own paths ("notes:"), joined for a message.
func (s *Sandbox) rootList() string {
	names := make([]string, len(s.roots))
	for i, r := range s.roots {
		names[i] = r.qualify(".")
	}
	return strings.Join(names, listSep)
}

// lstatFs describes name in fsys without following a final symbolic link
// where fsys can tell.
func lstatFs(fsys afero.Fs, name string) (fs.FileInfo, bool, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := fsys.Stat(name)
	return fi, false, err
}

// maxEscapedLen is how many times longer than the path it stands for a
// path escaped by EscapeName can be: six characters (\x{XX}, \u{1F})
// for one byte.
const maxEscapedLen = 6

// refuse returns the PathError for a path Resolve refuses.
func (s *Sandbox) refuse(p string, r Reason, m msgID, a1, a2 string) *PathError {
	return &PathError{Op: "resolve", Path: p, Reason: r, lang: s.lang, msg: m, a1: a1, a2: a2}
}

// isDrive reports whether p starts with a Windows drive: a letter and a
// colon, alone or followed by a separator. "a:b" is an ordinary name.
func isDrive(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	if c := p[0] | 0x20; c < 'a' || c > 'z' {
		return false
	}
	return len(p) == 2 || p[2] == '/' || p[2] == '\\'
}

// insideHint returns rel, a clean path leading above the root, without its
// leading ".." elements: a path inside the root the model may have meant.
func insideHint(rel string) string {
	for escapes(rel) {
		if rel == ".." {
			return "."
		}
		rel = rel[3:]
	}
	return rel
}

// within reports whether the clean relative path rel is one of subtrees or
// lies under one of them.
func within(rel string, subtrees []string) bool {
	for _, t := range subtrees {
		if rel == t || t == "." || len(rel) > len(t) && rel[len(t)] == '/' && rel[:len(t)] == t {
			return true
		}
	}
	return false
}
