package fs

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
)

// maxQuotedRunes is how much of a path or pattern a message shows; longer
// ones lose their middle.
const maxQuotedRunes = 60

// quote returns the name or root-relative path s quoted for a message,
// escaped by displayName, its middle replaced by "…" past maxQuotedRunes
// runes.
func quote(s string) string {
	s, _ = displayName(shorten(s))
	return `"` + s + `"`
}

// quoteText is quote for a pattern or query the model typed: escaped by
// displayText, so that its backslashes stay as typed.
func quoteText(s string) string {
	s, _ = displayText(shorten(s))
	return `"` + s + `"`
}

// shorten returns s with its middle replaced by "…" past maxQuotedRunes
// runes.
func shorten(s string) string {
	if utf8.RuneCountInString(s) > maxQuotedRunes {
		head, tail := 0, len(s)
		for range maxQuotedRunes / 2 {
			_, size := utf8.DecodeRuneInString(s[head:])
			head += size
		}
		for range maxQuotedRunes/2 - 1 {
			_, size := utf8.DecodeLastRuneInString(s[:tail])
			tail -= size
		}
		s = s[:head] + "…" + s[tail:]
	}
	return s
}

// The entry types the tools report.
const (
	typeFile    = "file"
	typeDir     = "dir"
	typeSymlink = "symlink"
	typeOther   = "other"
)

// entryType returns the type the tools report for mode: file, dir,
// symlink or other (a named pipe, socket or device).
func entryType(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return typeFile
	case mode.IsDir():
		return typeDir
	case mode&fs.ModeSymlink != 0:
		return typeSymlink
	}
	return typeOther
}

// specialName names the kind of a file that is neither regular, a
// directory nor a symbolic link: "named pipe", "socket", "device" or
// "special file".
func specialName(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "named pipe"
	case mode&fs.ModeSocket != 0:
		return "socket"
	case mode&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// lstat describes rel without following it if it is a symbolic link, when
// fsys can tell; otherwise it follows it.
func lstat(fsys afero.Fs, rel string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(rel)
		return fi, err
	}
	return fsys.Stat(rel)
}

// isMissing reports whether err says that a path does not exist, or that
// a file stands where one of its directories should be.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// joinRel joins a root-relative directory and a relative path below it;
// "." is the root.
func joinRel(dir, sub string) string {
	switch {
	case dir == ".":
		return sub
	case sub == "" || sub == ".":
		return dir
	}
	return dir + "/" + sub
}

// within reports whether the clean root-relative path p is dir or lies
// below it.
func within(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// linkTarget reads the symbolic link rel and returns its target as a
// root-relative path, and whether it points inside the root. A target
// outside the root is never returned, so that no host path leaks; an
// absolute target counts as outside, since the root never follows one.
func linkTarget(sb *security.Sandbox, rel string) (target string, inside bool, err error) {
	lr, ok := sb.Fs().(afero.LinkReader)
	if !ok {
		return "", false, afero.ErrNoReadlink
	}
	raw, err := lr.ReadlinkIfPossible(rel)
	if err != nil {
		return "", false, err
	}
	if raw == "" || path.IsAbs(raw) || strings.Contains(raw, `\`) {
		return "", false, nil
	}
	root, inner := sb.SplitRoot(rel)
	t := path.Join(path.Dir(inner), raw)
	if t == ".." || strings.HasPrefix(t, "../") {
		return "", false, nil
	}
	return sb.JoinRoot(root, t), true, nil
}

// byteSize returns n bytes in English words, for the tools'
// descriptions: "1 byte", "512 bytes", or "1234567 bytes (1.2 MiB)".
func byteSize(n int64) string { return size(n).In(i18n.English) }
