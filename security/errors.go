package security

import "github.com/stdiotools/toolserver/i18n"

// Reason says why a path was refused or an operation on it failed.
type Reason int

// The reasons. The zero value is Other.
const (
	// Other is any failure without a more precise reason.
	Other Reason = iota
	// Empty is an empty path.
	Empty
	// Control is a path with NUL, another control character, an invisible
	// formatting character or bytes that are not UTF-8.
	Control
	// Backslash is a path with a backslash.
	Backslash
	// WindowsPath is a Windows drive path ("C:\x", "C:/x", "C:") or a UNC
	// path ("\\server\share", "//server/share").
	WindowsPath
	// Tilde is a path starting with "~" or "~user".
	Tilde
	// Escapes is a path that lexically leaves the root: ".." above it or an
	// absolute path outside it.
	Escapes
	// TooLong is a path longer than Limits.MaxPathBytes, or one the file
	// system finds too long (ENAMETOOLONG).
	TooLong
	// NameTooLong is a path with an element longer than Limits.MaxNameBytes.
	NameTooLong
	// NotAllowed is a path inside the root but outside the subtrees set by
	// Restrict.
	NotAllowed
	// LinkOutside is a path through a symbolic link that leaves the root (or
	// is absolute, which the root never follows).
	LinkOutside
	// Special is a named pipe, socket, device or other file that is neither
	// a regular file nor a directory.
	Special
	// NotExist is a path that does not exist.
	NotExist
	// Exists is a path that already exists.
	Exists
	// NotDir is a path that is not a directory, or lies under a file.
	NotDir
	// NotEmpty is a directory that must be empty and is not.
	NotEmpty
	// IsDir is a directory where a file was wanted.
	IsDir
	// Permission is a path the server may not access.
	Permission
	// TooManyLinks is a path with too many levels of symbolic links.
	TooManyLinks
	// ReadOnly is a path on a read-only file system (EROFS).
	ReadOnly
	// NoSpace is a write that found no space left: the disk is full
	// (ENOSPC) or the user's quota is used up (EDQUOT), which have
	// different sentences.
	NoSpace
	// RootItself is an operation that would remove, move or replace the
	// root itself.
	RootItself
	// InvisibleName is a new name with a default-ignorable, format,
	// noncharacter, private-use or filler code point (see
	// Sandbox.CheckNewName).
	InvisibleName
	// NotNormalized is a new name that is not in Unicode Normalization
	// Form C.
	NotNormalized
	// Confusable is a new name that differs from an existing name in the
	// same directory only in case or Unicode normalization.
	Confusable
	// Ambiguous is a path that could name two different things in a
	// sandbox with several roots: "notes:x" when the first root holds an
	// entry of that name, or an absolute path inside two roots on one
	// folder.
	Ambiguous
	// ReadOnlyRoot is a change to something in a read-only root.
	ReadOnlyRoot
	// FileTooLarge is a write past the largest file the server may write:
	// its file size limit (ulimit -f, EFBIG) or the file system's.
	FileTooLarge
	// TooManyOpen is an operation that needed a file descriptor when the
	// server (EMFILE) or the system (ENFILE) had none left.
	TooManyOpen
	// Locked is a change that waited for another writer of the same file
	// until its time ran out (Sandbox.LockWrite).
	Locked
	// Unwatchable is a path whose changes cannot be watched (Sandbox.Watch):
	// its file system's changes are not reported, or the system reports
	// none, or has no room for another watch.
	Unwatchable
)

// reasonNames are the String forms of the reasons, indexed by Reason.
var reasonNames = [...]string{
	Other:        "other",
	Empty:        "empty_path",
	Control:      "control_character",
	Backslash:    "backslash",
	WindowsPath:  "windows_path",
	Tilde:        "tilde",
	Escapes:      "escapes_root",
	TooLong:      "path_too_long",
	NameTooLong:  "name_too_long",
	NotAllowed:   "not_allowed",
	LinkOutside:  "link_outside_root",
	Special:      "special_file",
	NotExist:     "not_exist",
	Exists:       "exists",
	NotDir:       "not_directory",
	NotEmpty:     "not_empty",
	IsDir:        "is_directory",
	Permission:   "permission_denied",
	TooManyLinks: "too_many_links",
	ReadOnly:     "read_only",
	NoSpace:      "no_space",
	RootItself:   "root_itself",

	InvisibleName: "invisible_character_in_name",
	NotNormalized: "name_not_nfc",
	Confusable:    "confusable_name",
	Ambiguous:     "ambiguous_path",
	ReadOnlyRoot:  "read_only_root",
	FileTooLarge:  "file_too_large",
	TooManyOpen:   "too_many_open_files",
	Locked:        "locked",
	Unwatchable:   "unwatchable",
}

// String returns the reason's name in snake case, such as "escapes_root".
func (r Reason) String() string {
	if r >= 0 && int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "other"
}

// PathError is the error every Sandbox method returns for a refused or
// failed path.
type PathError struct {
	Op     string // the operation, such as "resolve", "open" or "write"
	Path   string // the path as the model gave it, or the root-relative path
	Reason Reason // why
	Err    error  // the cause, for logs; nil for a refusal by Resolve

	lang i18n.Lang
	msg  msgID  // which sentence of the catalog
	a1   string // the sentence's arguments: a hint, a rune, a limit
	a2   string
}

// Error returns one sentence in the sandbox's language naming the path
// (shortened) and how to fix it.
func (e *PathError) Error() string {
	return e.msg.format(e.lang, e.Op, e.Path, e.a1, e.a2)
}

// Unwrap returns the cause.
func (e *PathError) Unwrap() error { return e.Err }

// constError is an error that can be a constant.
type constError string

func (e constError) Error() string { return string(e) }

// errLinkTarget is the cause of RootFs.SymlinkIfPossible refusing a target.
const errLinkTarget constError = "symbolic link target leaves the root"
