package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/internal/watch"
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
	fs     afero.Fs  // the roots' file systems, routed and guarded
	roots  []*sbRoot // in the order given; the first takes plain paths
	limits Limits
	lang   i18n.Lang
	locks  *Locks // the write locks (LockWrite)
	// watcher watches for Watch; a process has one sandbox, and so one.
	watcher *watch.Watcher
}

// SandboxOptions configure NewSandbox and NewRoots.
type SandboxOptions struct {
	// HostRoot is the absolute host path of the root of NewSandbox (see
	// Root.HostPath); NewRoots takes each root's own.
	HostRoot string
	// Limits bound what one call may cost; zero fields mean the defaults.
	Limits Limits
	// Lang is the language of PathError messages; English if unknown.
	Lang i18n.Lang
	// Locks are the write locks of LockWrite, which every sandbox of a
	// process should share; nil gives the sandbox locks of its own, which
	// hold within the process (see NewLocks).
	Locks *Locks
}

// NewSandbox returns a sandbox over one root, fsys, which is a *RootFs in
// production and may be afero.NewMemMapFs() in tests. The sandbox starts
// with the whole root allowed. NewRoots makes one over several roots.
//
// Fs returns fsys wrapped so that every name it creates follows the rule
// for new names (see CheckNewName).
func NewSandbox(fsys afero.Fs, opts SandboxOptions) *Sandbox {
	s, err := NewRoots([]Root{{Fs: fsys, HostPath: opts.HostRoot}}, opts)
	if err != nil {
		panic("security: NewSandbox: " + err.Error()) // one root with a file system cannot fail
	}
	return s
}

// Fs returns the file system given to NewSandbox, wrapped so that every
// name it creates (OpenFile with os.O_CREATE, Mkdir, MkdirAll, Rename,
// SymlinkIfPossible) follows the rule for new names (see CheckNewName);
// names that exist already pass through unchecked. The wrapper implements
// afero.Lstater, afero.LinkReader and afero.Linker. Names given to it must
// be Resolve results. With several roots (NewRoots) it routes each name
// to its root.
func (s *Sandbox) Fs() afero.Fs { return s.fs }

// Limits returns the limits, defaults filled in.
func (s *Sandbox) Limits() Limits { return s.limits }

// Lang returns the language of the sandbox's messages.
func (s *Sandbox) Lang() i18n.Lang { return s.lang }

// Restrict narrows the sandbox to the given subtrees, paths such as
// "docs" or "src/app" (with several roots, "notes:/docs"; a plain path
// lies in the first root); nil or empty means every root whole, and so
// does a list containing ".". Each call replaces the previous
// restriction; since a subtree always lies inside a root, a restriction
// can only narrow the roots, never widen them. With several roots, a root
// no subtree lies in stays whole.
//
// A subtree is cleaned (a leading "/" is stripped); one that leaves the
// root or holds characters Resolve refuses is dropped. If every subtree is
// dropped, every root stays whole. Subtrees under another one are merged
// into it.
func (s *Sandbox) Restrict(subtrees []string) {
	per := make([][]string, len(s.roots))
	for _, t := range subtrees {
		i, inner := s.subtreeRoot(t)
		if c, ok := cleanSubtree(inner); ok {
			per[i] = append(per[i], c)
		}
	}
	for i, r := range s.roots {
		r.setAllowed(per[i])
	}
}

// subtreeRoot returns the index of the root a subtree given to Restrict
// lies in, and the subtree relative to it.
func (s *Sandbox) subtreeRoot(t string) (int, string) {
	if len(s.roots) > 1 {
		if name, rest, ok := strings.Cut(t, ":"); ok {
			for i, r := range s.roots {
				if r.name == name {
					if rest = strings.TrimLeft(rest, "/"); rest == "" {
						rest = "."
					}
					return i, rest
				}
			}
		}
	}
	return 0, t
}

// setAllowed stores the clean subtrees, merging nested ones; empty, or
// containing ".", means the whole root.
func (r *sbRoot) setAllowed(subtrees []string) {
	if len(subtrees) == 0 || slices.Contains(subtrees, ".") {
		r.allowed.Store(nil)
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
	r.allowed.Store(&merged)
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
// A host path inside a root's HostPath becomes the subtree it names; the
// root itself, or a folder containing it, allows the whole root. Any
// other path (outside every root, relative, or unusable) is dropped and
// returned in ignored so that the caller can log it.
//
// Each root is restricted to the host paths that apply to it. An empty
// list is a client with no roots to offer, which leaves every root whole,
// as before. With several roots, a root that no host path applies to
// stays whole, as long as one applies to some root: a client root inside
// one root narrows that root alone. If paths were given but none applies
// to any root, nothing is allowed: client roots can only narrow the
// roots, and roots that share nothing with them say the user opened no
// part of them. Resolve then says so in its refusal.
func (s *Sandbox) RestrictHost(hostPaths []string) (ignored []string) {
	if len(hostPaths) == 0 {
		for _, r := range s.roots {
			r.setAllowed(nil)
		}
		return nil
	}
	per := make([][]string, len(s.roots))
	applied := false
	for _, hp := range hostPaths {
		used := false
		if filepath.IsAbs(hp) {
			c := filepath.ToSlash(filepath.Clean(hp))
			for i, r := range s.roots {
				if r.hostRoot == "" {
					continue
				}
				if rel, ok := r.below(c); ok {
					if rel, ok = cleanSubtree(rel); ok {
						per[i] = append(per[i], rel)
						used = true
					}
				} else if c == "/" || strings.HasPrefix(r.hostRoot, c+"/") || strings.HasPrefix(r.hostKey, c+"/") {
					per[i] = append(per[i], ".")
					used = true
				}
			}
		}
		if !used {
			ignored = append(ignored, hp)
		}
		applied = applied || used
	}
	for i, r := range s.roots {
		switch {
		case !applied:
			r.allowed.Store(&[]string{})
		default:
			r.setAllowed(per[i]) // none: the whole root
		}
	}
	return ignored
}

// Deny allows nothing until the next Restrict or RestrictHost: for a
// client that said it has roots but did not say which.
func (s *Sandbox) Deny() {
	for _, r := range s.roots {
		r.allowed.Store(&[]string{})
	}
}

// Allowed returns the subtrees the model may use, sorted within each
// root, or just "." when it may use the whole of a single root; an empty
// list when the client's roots leave nothing. With several roots, each
// subtree carries its root's name ("notes:" for a whole root).
func (s *Sandbox) Allowed() []string {
	var out []string
	for _, info := range s.Roots() {
		out = append(out, info.Allowed...)
	}
	if out == nil {
		out = []string{}
	}
	return out
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
// Lstat to name it), TooManyLinks, ReadOnly (EROFS), NoSpace (ENOSPC, and
// EDQUOT with a sentence of its own), FileTooLarge (EFBIG: past the file
// size limit), TooManyOpen (EMFILE, ENFILE), TooLong (ENAMETOOLONG),
// Special (a pipe without a reader), RootItself (removing or renaming the
// root), and anything else Other, with a generic sentence. Each says what
// happened and what to do. The raw error is kept only in Err, for logs.
func (s *Sandbox) Explain(op, rel string, err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := errors.AsType[*PathError](err); ok {
		return pe
	}
	e := &PathError{Op: op, Path: rel, Err: err, lang: s.lang}
	if ro, ok := errors.AsType[*readOnlyError](err); ok {
		s.readOnlyMsg(e, ro)
		return e
	}
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
	case errors.Is(err, syscall.ENOSPC):
		e.Reason, e.msg = NoSpace, msgNoSpace
	case errors.Is(err, syscall.EDQUOT):
		// A quota is space too: the Reason stays NoSpace, as it always
		// was; the sentence says which limit was met.
		e.Reason, e.msg = NoSpace, msgQuota
	case errors.Is(err, syscall.EFBIG):
		e.Reason, e.msg = FileTooLarge, msgFileTooBig
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		e.Reason, e.msg = TooManyOpen, msgTooManyOpen
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

// readOnlyMsg fills in the reason and sentence of e, a change refused by
// ro.
func (s *Sandbox) readOnlyMsg(e *PathError, ro *readOnlyError) {
	e.Reason, e.a1 = ReadOnlyRoot, ro.root.name
	switch {
	case ro.holds:
		e.msg = msgReadOnlyHolds
	case ro.via != nil:
		e.msg, e.a2 = msgReadOnlyNested, ro.via.name
	default:
		var writable []string
		for _, r := range s.roots {
			if !r.readOnly {
				writable = append(writable, r.qualify("."))
			}
		}
		e.msg, e.a2 = msgReadOnlyAll, ""
		if len(writable) > 0 {
			e.msg, e.a2 = msgReadOnlyRoot, strings.Join(writable, listSep)
		}
	}
}

// ResolveWrite is Resolve for a path whose file is to be changed in
// place (edit_file): it also refuses, with Reason ReadOnlyRoot, a path in
// a read-only root or inside a read-only root nested in a writable one.
func (s *Sandbox) ResolveWrite(p string) (string, error) {
	return s.resolveChange(p, false)
}

// ResolveRemove is ResolveWrite for a path to be removed or moved away
// with what it holds (delete_file, the source of move_file): it also
// refuses a directory that holds a nested read-only root.
func (s *Sandbox) ResolveRemove(p string) (string, error) {
	return s.resolveChange(p, true)
}

// resolveChange resolves p and refuses it if its root may not change
// there.
func (s *Sandbox) resolveChange(p string, whole bool) (string, error) {
	r, inner, err := s.resolve(p, true)
	if err != nil {
		return "", err
	}
	rel := r.qualify(inner)
	if ro := r.refusal(inner, whole); ro != nil {
		return "", s.Explain("write", rel, ro)
	}
	return rel, nil
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
