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
// What os.Root does not stop, named pipes and devices inside the root,
// Sandbox.OpenRead and Sandbox.OpenWrite do: they open without blocking
// and refuse anything but regular files (and, when asked, directories)
// after looking at the opened file.
//
// Every refusal or failure reaches the model as a *PathError: one
// sentence, in the sandbox's language, naming the path relative to the
// root and never the host path, and saying how to fix it. Sandbox.Explain
// turns errors from the file system into such sentences.
package security
