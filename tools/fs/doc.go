// Package fs provides the file tools of toolserver: read_file,
// read_multiple_files, list_directory, directory_tree, search_files, grep,
// get_file_info and list_allowed_directories, which only read;
// write_file, edit_file, create_directory, copy_file and move_file, which
// write; and delete_file, which destroys.
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
// # Writes
//
// write_file, edit_file and copy_file write atomically: a temporary file
// named .toolserver-<random>.tmp in the target's directory is written,
// synced, closed, given the mode of the file it replaces (0644 for a new
// one) and renamed over the target, so that readers see the old content or
// the new, never a mix. Every tool that changes something validates its
// arguments and checks the file system first, then asks
// [server.Call.Confirm] with a sentence that names the paths, whether
// something is created or replaced and how many bytes, and only then acts.
// With dry_run it stops before asking and reports what it would do.
//
// # Patterns
//
// search_files, grep, directory_tree and the exclude arguments take glob
// patterns: those of path.Match, plus "**" for any number of directories
// and "{a,b}" for alternatives. A pattern without '/' matches names at any
// depth. Malformed patterns are errors that say what is wrong and where.
package fs
