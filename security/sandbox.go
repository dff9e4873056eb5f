package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
)

// Sandbox is what a file tool is given: the file system and the rules for
// the paths a model sends.
//
// A tool passes every path it receives through Resolve, opens files to
// read with OpenRead (and to write with OpenWrite), does everything else
// through Fs with the resolved path, and turns every error from Fs into a
// sentence for the model with Explain.
//
// A Sandbox is safe for concurrent use; Restrict may be called while tools
// run.
type Sandbox struct {
	fs       afero.Fs
	hostRoot string // clean, slash-separated, absolute; "" if none
	limits   Limits
	lang     i18n.Lang
	// allowed holds the subtrees set by Restrict, sorted, none under
	// another; nil means the whole root.
	allowed atomic.Pointer[[]string]
}

// SandboxOptions configure NewSandbox.
type SandboxOptions struct {
	// HostRoot is the absolute host path of the root, used only to accept
	// absolute paths that lie inside it and to convert client roots in
	// RestrictHost. It is never shown to the model. When it is empty,
	// every absolute path is refused. A relative HostRoot is made absolute
	// against the working directory.
	HostRoot string
	// Limits bound what one call may cost; zero fields mean the defaults.
	Limits Limits
	// Lang is the language of PathError messages; English if unknown.
	Lang i18n.Lang
}

// NewSandbox returns a sandbox over fsys, which is a *RootFs in production
// and may be afero.NewMemMapFs() in tests. The sandbox starts with the
// whole root allowed.
//
// Fs returns fsys wrapped so that every name it creates follows the rule
// for new names (see CheckNewName).
func NewSandbox(fsys afero.Fs, opts SandboxOptions) *Sandbox {
	s := &Sandbox{limits: opts.Limits.WithDefaults(), lang: opts.Lang}
	s.fs = &guardFs{Fs: fsys, s: s}
	if h := opts.HostRoot; h != "" {
		if abs, err := filepath.Abs(h); err == nil {
			s.hostRoot = filepath.ToSlash(abs)
		}
	}
	return s
}

// Fs returns the file system given to NewSandbox, wrapped so that every
// name it creates (OpenFile with os.O_CREATE, Mkdir, MkdirAll, Rename,
// SymlinkIfPossible) follows the rule for new names (see CheckNewName);
// names that exist already pass through unchecked. The wrapper implements
// afero.Lstater, afero.LinkReader and afero.Linker. Names given to it must
// be Resolve results.
func (s *Sandbox) Fs() afero.Fs { return s.fs }

// Limits returns the limits, defaults filled in.
func (s *Sandbox) Limits() Limits { return s.limits }

// Lang returns the language of the sandbox's messages.
func (s *Sandbox) Lang() i18n.Lang { return s.lang }

// Restrict narrows the sandbox to the given subtrees, root-relative paths
// such as "docs" or "src/app"; nil or empty means the whole root, and so
// does a list containing ".". Each call replaces the previous restriction;
// since a subtree always lies inside the root, a restriction can only
// narrow the root, never widen it.
//
// A subtree is cleaned (a leading "/" is stripped); one that leaves the
// root or holds characters Resolve refuses is dropped. If every subtree is
// dropped, the whole root stays allowed. Subtrees under another one are
// merged into it.
func (s *Sandbox) Restrict(subtrees []string) {
	var clean []string
	for _, t := range subtrees {
		if c, ok := cleanSubtree(t); ok {
			clean = append(clean, c)
		}
	}
	s.setAllowed(clean)
}

// setAllowed stores the clean subtrees, merging nested ones; empty, or
// containing ".", means the whole root.
func (s *Sandbox) setAllowed(subtrees []string) {
	if len(subtrees) == 0 || slices.Contains(subtrees, ".") {
		s.allowed.Store(nil)
		return
	}
	subtrees = slices.Clone(subtrees)
	slices.Sort(subtrees)
	merged := subtrees[:0]
	for _, t := range subtrees {
		if !within(t, merged) {
			merged = append(merged, t)
		}
	}
	s.allowed.Store(&merged)
}

// cleanSubtree returns the clean form of a subtree given to Restrict, and
// whether it is usable: inside the root, without characters Resolve
// refuses.
func cleanSubtree(t string) (string, bool) {
	if _, _, ok := ClassPath.Check(t); !ok || strings.IndexByte(t, '\\') >= 0 {
		return "", false
	}
	c := path.Clean(strings.TrimLeft(t, "/"))
	if t == "" || escapes(c) {
		return "", false
	}
	return c, true
}

// RestrictHost is Restrict for host paths: the client's file:// roots,
// already turned into absolute paths.
//
// A host path inside HostRoot becomes the subtree it names; the root
// itself, or a folder containing it, allows the whole root. Any other
// path (outside the root, relative, or unusable) is dropped and returned
// in ignored so that the caller can log it.
//
// The sandbox is restricted to the host paths that apply. An empty list is
// a client with no roots to offer, which leaves the whole root allowed, as
// before. If paths were given but none applies (or HostRoot is unset),
// nothing is allowed: client roots can only narrow the root, and roots
// that share nothing with it say the user opened no part of it. Resolve
// then says so in its refusal.
func (s *Sandbox) RestrictHost(hostPaths []string) (ignored []string) {
	if len(hostPaths) == 0 {
		s.setAllowed(nil)
		return nil
	}
	var subtrees []string
	for _, hp := range hostPaths {
		if !filepath.IsAbs(hp) || s.hostRoot == "" {
			ignored = append(ignored, hp)
			continue
		}
		c := filepath.ToSlash(filepath.Clean(hp))
		if rel, ok := s.hostRel(c); ok {
			if rel, ok = cleanSubtree(rel); ok {
				subtrees = append(subtrees, rel)
				continue
			}
		} else if c == "/" || strings.HasPrefix(s.hostRoot, c+"/") {
			subtrees = append(subtrees, ".")
			continue
		}
		ignored = append(ignored, hp)
	}
	if len(subtrees) == 0 {
		s.allowed.Store(&[]string{})
		return ignored
	}
	s.setAllowed(subtrees)
	return ignored
}

// Deny allows nothing until the next Restrict or RestrictHost: for a
// client that said it has roots but did not say which.
func (s *Sandbox) Deny() { s.allowed.Store(&[]string{}) }

// Allowed returns the subtrees the model may use, sorted, or just "." when
// it may use the whole root; an empty list when the client's roots leave
// nothing of it.
func (s *Sandbox) Allowed() []string {
	if a := s.allowed.Load(); a != nil {
		return slices.Clone(*a)
	}
	return []string{"."}
}

// OpenRead opens p for reading without ever blocking. p is a path as a
// model sends it or, normally, a Resolve result escaped with EscapeName
// (whose names may hold any character); OpenRead resolves it again, so a
// raw path is checked as well.
//
// It opens with O_NONBLOCK, then checks the mode of the opened file (never
// stat-then-open, which would race): it refuses named pipes, sockets,
// devices and other special files (Reason Special) and, unless wantDir,
// directories (Reason IsDir). With wantDir both a directory and a regular
// file are returned; the caller tells them apart by the FileInfo's IsDir.
// On success the caller must close the file. Every error is a *PathError.
func (s *Sandbox) OpenRead(p string, wantDir bool) (afero.File, fs.FileInfo, error) {
	rel, err := s.Resolve(p)
	if err != nil {
		return nil, nil, err
	}
	f, err := s.fs.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, s.Explain("read", rel, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, s.Explain("read", rel, err)
	}
	mode := fi.Mode()
	switch {
	case mode.IsRegular():
	case mode.IsDir():
		if !wantDir {
			f.Close()
			return nil, nil, &PathError{Op: "read", Path: rel, Reason: IsDir, lang: s.lang, msg: msgIsDir}
		}
	default:
		f.Close()
		return nil, nil, &PathError{Op: "read", Path: rel, Reason: Special, lang: s.lang, msg: msgSpecialRead, a1: specialKind(mode)}
	}
	return f, fi, nil
}

// OpenWrite opens p for writing with flag (which must include os.O_WRONLY
// or os.O_RDWR, and may include os.O_CREATE, os.O_EXCL, os.O_TRUNC or
// os.O_APPEND) and perm, without ever blocking. p is resolved like in
// OpenRead (so that it may name a file whose name holds escapes, but it
// does not refuse new such names as ResolveNew does).
//
// It opens with O_NONBLOCK, so a named pipe without a reader fails at once
// instead of waiting, then checks the opened file's mode and refuses
// anything but a regular file: directories (Reason IsDir) and special
// files (Reason Special). With os.O_CREATE, a name that does not exist yet
// must follow the rule for new names (see CheckNewName; Reasons
// InvisibleName, NotNormalized and Confusable). On success the caller
// must close the file. Every error is a *PathError.
func (s *Sandbox) OpenWrite(p string, flag int, perm fs.FileMode) (afero.File, error) {
	rel, err := s.Resolve(p)
	if err != nil {
		return nil, err
	}
	f, err := s.fs.OpenFile(rel, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, s.Explain("write", rel, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, s.Explain("write", rel, err)
	}
	switch mode := fi.Mode(); {
	case mode.IsRegular():
		return f, nil
	case mode.IsDir():
		f.Close()
		return nil, &PathError{Op: "write", Path: rel, Reason: IsDir, lang: s.lang, msg: msgIsDir}
	default:
		f.Close()
		return nil, &PathError{Op: "write", Path: rel, Reason: Special, lang: s.lang, msg: msgSpecialWrite, a1: specialKind(mode)}
	}
}

// specialMsg returns the sentence for a special file met by op.
func specialMsg(op string) msgID {
	switch op {
	case "read":
		return msgSpecialRead
	case "write":
		return msgSpecialWrite
	}
	return msgSpecialUse
}

// specialKind returns the kind of special file mode describes.
func specialKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return kindPipe
	case mode&fs.ModeSocket != 0:
		return kindSocket
	case mode&fs.ModeDevice != 0:
		return kindDevice
	}
	return kindSpecial
}

// Explain turns an error from the file system into a *PathError with a
// clear sentence naming rel, the root-relative path (normally a Resolve
// result), and never the host path. op names the operation for logs, such
// as "read" or "rename". A *PathError is returned as it is, and nil as nil.
//
// The reasons: NotExist, Exists, NotEmpty, NotDir, IsDir, Permission,
// LinkOutside (os.Root's "path escapes from parent": a symbolic link on
// the way leaves the root or is absolute; Explain looks up which one with
// Lstat to name it), TooManyLinks, ReadOnly, NoSpace, TooLong, Special (a
// pipe without a reader), RootItself (removing or renaming the root), and
// anything else Other, with a generic sentence. The raw error is kept only
// in Err, for logs.
func (s *Sandbox) Explain(op, rel string, err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := errors.AsType[*PathError](err); ok {
		return pe
	}
	e := &PathError{Op: op, Path: rel, Err: err, lang: s.lang}
	switch {
	case errors.Is(err, errLinkTarget):
		e.Reason, e.msg = LinkOutside, msgLinkTarget
		if le, ok := errors.AsType[*os.LinkError](err); ok {
			e.a1 = le.Old
		}
	case isEscape(err):
		e.Reason = LinkOutside
		e.msg, e.a1 = s.findLink(rel, err)
	case errors.Is(err, syscall.ELOOP):
		e.Reason, e.msg = TooManyLinks, msgLoop
	case errors.Is(err, syscall.ENOTEMPTY):
		e.Reason, e.msg = NotEmpty, msgNotEmpty
	case errors.Is(err, fs.ErrNotExist):
		e.Reason, e.msg = NotExist, msgNotExist
	case errors.Is(err, fs.ErrExist):
		e.Reason, e.msg = Exists, msgExists
	case errors.Is(err, syscall.ENOTDIR):
		e.Reason, e.msg = NotDir, msgNotDir
	case errors.Is(err, syscall.EISDIR):
		e.Reason, e.msg = IsDir, msgIsDir
	case errors.Is(err, syscall.EROFS):
		e.Reason, e.msg = ReadOnly, msgReadOnly
	case errors.Is(err, fs.ErrPermission):
		e.Reason, e.msg = Permission, msgPermission
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		e.Reason, e.msg = NoSpace, msgNoSpace
	case errors.Is(err, syscall.ENAMETOOLONG):
		e.Reason, e.msg = TooLong, msgFsTooLong
	case errors.Is(err, syscall.ENXIO):
		// A named pipe without a reader opened to write, or a socket.
		e.Reason, e.msg, e.a1 = Special, specialMsg(op), kindSpecial
		if fi, err := s.fs.Stat(rel); err == nil {
			e.a1 = specialKind(fi.Mode())
		}
	case rel == "." && (errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EBUSY)):
		e.Reason, e.msg = RootItself, msgRootItself
	default:
		e.Reason, e.msg = Other, msgOther
	}
	return e
}

// escapeText is the text of the error os.Root returns for a name that
// leaves it; the os package does not export the error itself.
const escapeText = "path escapes from parent"

// isEscape reports whether err, or an error it wraps, is os.Root's refusal
// of a name that leaves the root. It compares whole error texts, so a file
// whose name contains the text is not mistaken for one.
func isEscape(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		if err.Error() == escapeText {
			return true
		}
	}
	return false
}

// findLink looks for the symbolic link that made os.Root refuse a path:
// the first element of rel (or, for a rename, of either name) that is a
// link. It returns the sentence to use and the link's root-relative name,
// or rel itself if the file system cannot tell.
func (s *Sandbox) findLink(rel string, err error) (msgID, string) {
	names := []string{rel}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		names = append(names, le.Old, le.New)
	}
	lst, ok := s.fs.(afero.Lstater)
	if !ok {
		return msgLinkOutside, rel
	}
	for _, name := range names {
		name = path.Clean(strings.TrimLeft(name, "/"))
		if escapes(name) {
			continue
		}
		for end := 0; end < len(name); {
			next := strings.IndexByte(name[end+1:], '/')
			if next < 0 {
				end = len(name)
			} else {
				end += 1 + next
			}
			prefix := name[:end]
			fi, _, err := lst.LstatIfPossible(prefix)
			if err != nil {
				break
			}
			if fi.Mode()&fs.ModeSymlink == 0 {
				continue
			}
			if lr, ok := s.fs.(afero.LinkReader); ok {
				if target, err := lr.ReadlinkIfPossible(prefix); err == nil && path.IsAbs(target) {
					return msgLinkAbsolute, prefix
				}
			}
			return msgLinkOutside, prefix
		}
	}
	return msgLinkOutside, rel
}
