// Package fs provides the file tools of toolserver: read_file,
// read_multiple_files, list_directory, directory_tree, search_files, grep,
// get_file_info and list_allowed_directories, which only read;
// write_file, edit_file, append_file, create_directory, copy_file and
// move_file, which write; and delete_file, which destroys.
//
// [Register] adds them to a server. They are written as any user of the
// server package writes tools: plain argument and result structs whose
// tags give the JSON Schemas, and handlers that return sentences a model
// can act on as errors.
//
// # The sandbox
//
// Every tool works inside a [security.Sandbox]. Every path argument goes
// through its Resolve, which refuses what leaves the root, and every
// error of its file system through its Explain, so that messages name
// root-relative paths only, never a host path. Results show root-relative
// paths. The sandbox's limits bound each call: the bytes read_file
// returns, the entries of a listing, the depth of a tree, the results of
// search_files and grep.
//
// A sandbox may hold several roots (security.NewRoots). Paths then name
// their root, "notes:/todo.md", results show them so, and the tools need
// nothing more: Resolve, Fs and Explain do the routing. Tools that change
// something resolve with ResolveWrite, ResolveRemove (delete_file and a
// move's source) or ResolveNew, which refuse a read-only root before any
// work is done, so a dry run says so too; the sandbox's file system
// refuses such changes again, whatever the path. A move between roots
// meets EXDEV and becomes a copy and a removal, as across file systems.
// list_allowed_directories lists each root and how its paths are written.
//
// # Names
//
// Names are data, never text the model takes as structure. Every name or
// path a tool writes into the text the model reads goes through
// displayName, which escapes it as security.EscapeName documents: a
// control character (C0, DEL, C1 with U+0085), a format character (Cf:
// bidirectional marks, embeddings, overrides and isolates, zero-width
// characters, the byte order mark, tag characters) or a line or paragraph
// separator becomes \u{X}, X its code point in upper-case hexadecimal
// (\u{A} for a line feed, \u{1B} for ESC, \u{202E}); a byte that is not
// UTF-8 becomes \x{XX}; a backslash becomes \u{5C}, so that every
// backslash shown starts an escape. This holds in list_directory,
// directory_tree, search_files, grep (whose matched text is escaped the
// same way, tabs and backslashes kept), the read_multiple_files headers,
// get_file_info's text, delete_file's dry-run list, edit_file's diff
// header and every sentence that quotes a path (quote). A line of a
// listing that shows an escaped name (or, for grep, escaped text) ends in
// "  [escaped]" (escapedMark), and the listing ends with a note that says
// how to read escapes (escapedNote); get_file_info sets escaped and says
// so in its note. Patterns and queries are quoted with quoteText, which
// escapes the same characters but keeps backslashes as typed.
//
// Structured content carries the exact names (JSON cannot carry bytes
// that are not UTF-8, which it shows as U+FFFD). To refer back, the model
// gives the path exactly as shown: Sandbox.Resolve decodes the escapes,
// so read_file, get_file_info, list_directory, delete_file and the
// sources of move_file and copy_file reach the entry. Tools that create a
// name (write_file, create_directory, the destinations of move_file and
// copy_file) use Sandbox.ResolveNew, which refuses escaped characters in
// names that do not exist yet. Internally, a resolved path is handed back
// to Sandbox.OpenRead and OpenWrite escaped (pathArg).
//
// # Writes
//
// write_file, edit_file and copy_file (and move_file between file
// systems) write atomically: a new file in the target's directory is
// written, synced, given the mode of the file it replaces (0644 for a new
// one) and renamed over the target, so that readers see the old content or
// the new, never a mix. On Linux the new file is created without a name
// (O_TMPFILE) and linked into place only when complete, so a killed server
// leaves nothing; elsewhere it is a temporary file named
// .toolserver-<random>.tmp, which a kill leaves behind (see Temporary
// files).
//
// What a tool reports done survives a power loss: after the rename the
// directory is synced too (fsync), as databases do, since until then the
// rename itself may be lost. So are both directories of a move, the
// directory holding a copied directory and every directory in it (once,
// when full, not after each file), and the parent of each directory
// create_directory makes. On the ext4 disk it was measured on, that added
// about half a millisecond to a write_file of 1 KiB and nothing that
// stood out of the noise to one of 1 MiB, whose own sync costs more: see
// BenchmarkWriteFileDirSync.
//
// One call writes at most the sandbox's MaxWriteBytes (a copied file counts
// with its logical size, holes included; an append, the size of the file
// after it), and only if the target's file system has the bytes to write
// plus a reserve of 1% of its size, at most 64 MiB, available. Copies keep
// the holes of sparse files.
//
// append_file is the one write that is not atomic to readers: it adds its
// text in place (O_APPEND) and syncs the file, so that it costs the bytes
// it adds rather than a copy of the file, and a reader at the same moment
// may see part of the text at the end. A write or sync that fails cuts the
// file back to its former length (Truncate), so that the file keeps all of
// the text or none of it, short of a crash during the append. A missing
// file is created as write_file creates one, atomically. It changes text
// files only, as edit_file does.
//
// # Moves between file systems
//
// rename cannot cross file systems (a mount point inside the root, or two
// roots of the sandbox), and fails with EXDEV; move_file then copies and
// deletes, in an order that a killed server cannot turn into a loss. A
// file is written atomically beside its destination, as above; a
// directory is copied into a temporary directory beside its destination,
// named .toolserver-<random>.tmp as the temporary files are, and renamed
// into place once every file and directory in it is synced; a symbolic
// link is made under a temporary name and renamed into place. The
// destination's directory is synced, and only then is the original
// deleted. A kill before that rename leaves the original whole (and
// perhaps a .toolserver-*.tmp holding part of the copy, hidden and
// removed once stale, see Temporary files); a kill
// after it leaves the whole copy and all or part of the original: never a
// partial entry under the destination's name.
//
// The deletion takes only what was copied: a file that changed after it
// was copied, or an entry that appeared meanwhile, stays, and the error
// says so, as it does when the deletion fails. Such a move is held to the
// write cap, the free space and, for a directory, MaxResults entries; when
// the devices (Stat) already tell the paths apart, the copy is planned and
// its limits checked before the dry run and the confirmation, which say
// that the move will be a copy. It keeps contents (holes too),
// permissions, the modification times of files and directories and links
// as stored; not owners, access times, extended attributes or hard links
// between files. A directory holding a named pipe, socket or device, or a
// link the sandbox would not make at the new place (absolute, or leading
// out of the root), is refused before anything is done.
//
// # One change at a time
//
// Every tool that changes something validates its arguments and checks
// the file system first, then asks [server.Call.Confirm] with a sentence
// that names the paths, whether something is created or replaced and how
// many bytes, and only then acts. With dry_run it stops before asking and
// reports what it would do.
//
// Every change is decided under the write lock of the file it changes
// (security.Sandbox.LockWrite, keyed by the identity of the file's folder
// and its name), held from the read the change decides on to the rename
// that puts it in place: write_file, edit_file and append_file take it on
// their file, copy_file on its destination (a file or a directory),
// move_file on its source and its destination, delete_file on what it
// deletes. Holding it, the tool checks again everything it decided: that
// the file exists and is a regular file, its size, the permissions it
// keeps, whether it is created or replaced, its directory, the limits,
// the free space and expected_version. So edits of different lines of one
// file at once all land (TestEditsOfDifferentLinesAtOnceAllLand), and an
// edit whose old_text another change took away is refused with the usual
// sentence and changes nothing. A wait for the lock ends before the
// call's deadline with a sentence that names the file; the change is not
// made.
//
// A confirmation may keep the user minutes, and is asked without the
// lock (the tool knows from [server.Call.Confirms] that it will ask): the
// tool plans the change and asks first, then takes the lock, reads the
// file again and makes the change on what it holds then; an edit is
// applied again to the text read under the lock. A call that asks nothing
// plans and acts once, under the lock, on one read. A dry run takes no
// lock.
//
// # Versions
//
// read_file, read_multiple_files and get_file_info give each file's
// version: 16 lower-case hexadecimal digits, in the text the model reads
// ("[version 3f9a0c1e22b4d5e6]", after read_file's note, apart from the
// text, which stays exactly as stored) and in structured content
// (version). write_file, edit_file, append_file and copy_file give the
// version of the file they leave, so that a model can chain changes
// without reading again. write_file, edit_file and append_file take it
// back as expected_version: checked under the lock, a file at another
// version is not changed, and the model reads that it changed since it
// was read, its version now, and to read it again; a file that no longer
// exists is refused the same way. Without expected_version a write goes
// ahead as it always did.
//
// A version is the first 8 bytes of a SHA-256 of the file's inode, size,
// modification and change times in nanoseconds and, for a file of at most
// 64 KiB, its content (version.go). Two processes on one file system give
// one version for one state of a file, and every change, through the
// tools or from outside, changes it: an atomic write makes a new inode, a
// change in place new times. The device is left out, since NFS clients
// see one file under different devices. A file system in memory has no
// inode or change time; there the size, the modification time and the
// content make the version.
//
// Why the content: file systems take times from a clock read coarsely (1
// to 4 ms on Linux), so two changes in place within one tick that keep the
// size keep the times too, as a test that flips one byte right after a
// read does; the content tells them apart. Why only up to 64 KiB: a
// version must be cheap, and reading the tail of a 1 GiB file or
// get_file_info must not read it whole. On the shared 2-core machine it
// was measured on, a version cost about 6 µs for a file of 1 KiB, 25 µs
// for 16 KiB, 93 µs for 64 KiB and 1.4 µs for a sparse file of 1 GiB
// (metadata alone), next to 0.8 µs for the stat alone (BenchmarkVersion,
// best of 7 runs): hashing takes about 1.4 ns a byte, some half of what
// read_file spends on each byte of text, so a version adds up to half to
// the time of reading a small file (read_file of 64 KiB took 162 µs of CPU
// before, 261 µs after, BenchmarkServeReadFile) and nothing past the
// threshold. 64 KiB bounds that to about 0.1 ms a read and keeps the
// content in the versions of 97% of the Go standard library's files (86%
// at 16 KiB), the files agents edit most. A write adds a version of the
// file it leaves and its lock, each some 10 µs (BenchmarkWhatAChangeAdds),
// to a write that syncs for milliseconds.
//
// The residual risk: a file larger than 64 KiB, changed in place twice
// within one tick of the clock with its size kept, between a read and a
// write that passes the version read, is taken for unchanged. Kernels
// with multigrain timestamps (Linux 6.13 and later, on ext4, xfs, btrfs
// and tmpfs) give a change that follows a stat a fine-grained time, which
// closes even that: on the Linux 6.18 and ext4 measured, 1,000 changes of
// one byte right after a stat all got a new time. Older kernels and other
// file systems keep the risk.
//
// A version is taken from the stat of the open file and the bytes read
// through it: read_file takes it before it reads the text, so that a
// change while the text is read makes it stale rather than pass for what
// the model was shown; edit_file hashes the text it edits, get_file_info
// the bytes it counts. The lock makes the check of expected_version and
// the change one step for the tools of the server; a writer outside it
// takes no lock.
//
// # Temporary files
//
// An entry named exactly .toolserver-<16 lower-case hex digits>.tmp is
// the server's: a write's or a move's work under way, or what a kill left
// of one. Every listing, search, grep and tree skips it and counts it
// nowhere, and so do get_file_info's count of a directory's entries, the
// copies of directories and delete_file's count (a directory holding
// only such entries counts as empty, and they go with it). No tool makes
// a new entry of that name. One reached by its path (read_file,
// get_file_info) is shown as any file. A name that merely looks like
// one, with upper-case digits or a different length, is the user's.
//
// Where a tool meets one in a directory it reads, and where a write or a
// move goes into a directory (at most once an hour per directory), one
// left unchanged for an hour is removed: it has no writer left, since no
// call runs that long, and a temporary file's time moves with every
// write. Should a writer remain, removing its file loses nothing: that
// call fails, and its target is as it was. Nothing scans a root for them.
// A server that serves only the tools that read removes nothing.
//
// # Ignored entries
//
// search_files, grep and directory_tree skip what a repository ignores,
// as git and ripgrep do: .git itself, and what the .gitignore files,
// .git/info/exclude and .ignore files exclude, by git's rules (see
// internal/gitignore: negation, directory-only patterns, anchoring, "**",
// a nested file's patterns relative to its directory, later and deeper
// patterns winning, nothing brought back below an ignored directory). An
// ignored directory is not entered, and counts as one entry. The result
// says how many entries were skipped (ignored), and include_ignored: true
// turns the skipping off.
//
// The rules in force where a walk starts are those of the nearest
// directory above it, up to the root, that holds a .git (a directory, or
// the file of a worktree or submodule): its .git/info/exclude, then the
// .gitignore and .ignore files of each directory from there down. Without
// a repository, the .gitignore and .ignore files of every directory from
// the root down still apply, since a project copied without its .git
// still says there what is generated (ripgrep applies .gitignore only in a
// repository). A directory below that holds a .git starts afresh with its
// own rules, as a repository inside another does in git. Within a
// directory a .ignore file's patterns win over its .gitignore's (ripgrep
// lets every .ignore win over every .gitignore; here the deeper file
// wins, as between .gitignore files). The directory the call names, and
// the file grep is given, are searched even when a rule ignores them; the
// rules apply to what lies below. Where the sandbox is restricted to
// subtrees, the walk looks for rules no higher than the subtree.
//
// The user's git configuration (core.excludesFile, ~/.config/git/ignore)
// is never read: the server does not depend on the home directory of the
// host it runs on. Nor are ignore files followed when they are symbolic
// links (git does not follow them either), nor the .git/info/exclude of a
// repository whose .git is a file (it names a directory elsewhere).
//
// Ignore files are read through the sandbox like any file, and bounded:
// one over 1 MiB, or one that would bring the ignore files in force at
// once past 10,000 lines or 4 MiB, is not applied, and neither is one met
// after a call has read 64 MiB of them; the result names each
// (ignore_files_not_applied) and the note says that what they exclude was
// not skipped. A depth-first walk holds only the files of the directories
// it is in, so that a hostile tree of many large ignore files costs a few
// MiB.
//
// # Language
//
// Every sentence the tools write for the model (an error, a note, a dry
// run's or a result's summary, a progress message) and the confirmation
// they ask the user comes from the catalog in catalog.go, in English and
// Chinese, and is written out in the call's language ([server.Call.Lang]):
// a handler builds messages, not strings, and the wrapper each tool is
// registered with (speak) puts its error and its result's text into that
// language. Paths, names, tool and argument names and numbers are shown
// as they are in both; so are the reason codes of structured results
// (permission_denied, too_deep), which the notes put in words. The
// tools' descriptions stay in English.
//
// # Patterns
//
// search_files, grep, directory_tree and the exclude arguments take glob
// patterns: those of path.Match, plus "**" for any number of directories
// and "{a,b}" for alternatives. A pattern without '/' matches names at any
// depth. Malformed patterns are errors that say what is wrong and where.
//
// # Engines
//
// What the tools do that is not about tools lives in packages of its own
// under internal/, each with its tests and the reason it is not a
// library: internal/glob (patterns), internal/gitignore (ignore files),
// internal/walk (the bounded walk), internal/diff (edit_file's diff),
// internal/atomicfile (atomic writes and temporary names),
// internal/sparsecopy (copies that keep holes), internal/namesort,
// internal/topk and internal/ranksketch (a listing's order and pages in
// bounded memory). They return facts, never sentences: this package
// reads them through the sandbox and phrases what the model reads.
package fs
