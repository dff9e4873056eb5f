// Package security decides what a tool may touch: the tool levels, the
// character classes that string arguments are whitelisted by, and the
// sandbox a file tool works in. It knows nothing about JSON-RPC or MCP, so
// its rules can be tested, and reused, on their own.
//
// # The sandbox
//
// File tools must never read, create, change or delete anything outside
// one folder, the root. Two layers see to it:
//
//   - Sandbox.Resolve checks every path a model sends, lexically and
//     without touching the file system: it refuses empty paths, control
//     characters, backslashes, Windows and UNC paths, "~", paths leading
//     above the root, absolute paths outside it (including siblings such
//     as "/srv/root_secret" of "/srv/root"), overlong paths and paths
//     outside the subtrees the client allowed (Sandbox.Restrict). It
//     returns a clean path relative to the root.
//   - RootFs, an afero.Fs over os.Root, does every operation relative to
//     an open directory, so the kernel (openat) keeps it inside the root:
//     symbolic links leading out, and absolute symbolic links, are never
//     followed, whatever happens to the tree between check and use.
//
// # Several roots
//
// NewRoots makes a sandbox over several roots, each its own RootFs, each
// named (CheckRootName) and each writable or read-only (Root.ReadOnly).
// Paths then name their root, "notes:/todo.md", and a plain relative
// path lies in the first root; Resolve returns every path in the named
// form, Fs routes it to its root, and a rename across roots fails like
// one across file systems (EXDEV). A read-only root refuses every change
// (Reason ReadOnlyRoot), and so does a read-only root nested in a
// writable one when reached through the writable one, by path and, on
// Unix, by the identity of the directories on the way. Sandbox.Key gives
// each path a key, its host path, so that callers can tell two spellings
// of one file apart from two files.
//
// What os.Root does not stop, named pipes and devices inside the root,
// Sandbox.OpenRead and Sandbox.OpenWrite do: they open without blocking
// and refuse anything but regular files (and, when asked, directories)
// after looking at the opened file.
//
// # New names
//
// A name the sandbox creates (Fs's OpenFile with os.O_CREATE, Mkdir,
// MkdirAll, Rename and SymlinkIfPossible, and so OpenWrite and every tool)
// follows one rule, taken from Unicode's data (Go's unicode tables and
// golang.org/x/text): it is refused when it contains a default-ignorable
// code point (Default_Ignorable_Code_Point, derived as Unicode derives
// it; this covers the zero-width joiners, variation selectors and tag
// characters), another format character (Cf), a noncharacter, a
// private-use character or a filler (Reason InvisibleName); when it is not
// in Normalization Form C (NotNormalized, and the sentence gives the NFC
// form); or when it equals the name of an entry in the same directory
// under canonical caseless matching while differing from it (Confusable,
// and the sentence names that entry). A name that exists already is never
// refused, so entries someone else made stay readable, listable, writable,
// movable and deletable. Sandbox.CheckNewName applies the rule without
// creating anything.
//
// Every refusal or failure reaches the model as a *PathError: one
// sentence, in the sandbox's language, naming the path relative to the
// root and never the host path, and saying how to fix it. Sandbox.Explain
// turns errors from the file system into such sentences.
//
// # Escaped names
//
// A file name may hold any byte but '/' and NUL, so a name in a folder
// nobody vetted can hold line breaks, ANSI escapes, bidirectional
// overrides or bytes that are not UTF-8. Such a name must never reach the
// model's text as it is: it could forge lines of a listing or hide text.
// EscapeName rewrites it in one way, used by every tool and every message:
//
//   - a character that is not safe to show is written \u{X}, X its code
//     point in upper-case hexadecimal without leading zeros: \u{A} for a
//     line feed, \u{1B} for ESC, \u{202E} for RIGHT-TO-LEFT OVERRIDE;
//   - a byte that is not part of valid UTF-8 is written \x{XX}, two
//     upper-case hexadecimal digits: \x{FF};
//   - the backslash itself is written \u{5C}, so that every backslash in
//     an escaped name starts an escape.
//
// Not safe to show are the control characters (Unicode category Cc: C0,
// DEL, C1 with U+0085), the format characters (Cf: bidirectional marks,
// embeddings, overrides and isolates, zero-width characters, the byte
// order mark, soft hyphen, tag characters) and the line and paragraph
// separators (U+2028, U+2029).
//
// The escapes are chosen so that they cannot be mistaken for a Windows
// path ("docs\notes.txt" holds no "\u{" or "\x{"), and Resolve accepts
// them back: a path whose every backslash starts a well-formed escape is
// decoded before the usual checks, so the model can name every entry it
// was shown. What an escape decodes to may be any character but NUL and
// '/'; ResolveNew refuses the characters ClassPath refuses in a name that
// does not exist yet, so escapes reach existing entries but never create
// new names that could not be typed.
package security
