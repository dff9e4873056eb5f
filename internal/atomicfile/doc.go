// Package atomicfile writes a file so that a reader sees the old one or
// the new one, never a mix, and so that what it reports written survives
// a crash: [Writer.Write] fills a new file beside the target, syncs it,
// gives it its mode and renames it over the target, then syncs the
// directory. Where the file system can (Linux's O_TMPFILE, through
// [Writer.CreateUnnamed]), the new file has no name until it is complete,
// so a killed process leaves nothing behind; elsewhere it is a temporary
// file named by [TempName], which a caller recognizes with [IsTempName]
// to hide it and to remove it once stale.
//
// The package works on an afero.Fs, so that every open, rename and sync
// goes through the caller's file system: the sandbox's, which refuses
// read-only roots and names that may not be created, or one in memory in
// tests. Its errors are facts, not sentences: a [*CreateError] when no
// temporary file could be made, a [*DirSyncError] when the file is in
// place but its directory could not be synced, and otherwise the error of
// the step that failed, the target left as it was
// (TestAFailedWriteLeavesTheFileAsItWas). A caller phrases them.
//
// # Why not a library
//
// github.com/google/renameio/v2 (v2.0.2) writes a temporary file and
// renames it, and can do so inside an *os.Root, but it does not sync the
// directory after the rename, so a write it reports done can be undone by
// a power loss; it makes no unnamed file, so a kill always leaves its
// temporary file, under a name ("name" and a random number) nothing can
// tell from a user's; and it works on an *os.Root or host paths, not an
// afero.Fs, so the sandbox's checks of read-only roots and new names,
// which sit in its afero.Fs, would be skipped
// (TestMultiReadOnlyRootsRefuseAnUnnamedFile in security holds the one
// for unnamed files). The sync it leaves out is the cost that decided:
// about half a millisecond on a write_file of 1 KiB on ext4, and nothing
// out of the noise on one of 1 MiB (tools/fs, BenchmarkWriteFileDirSync),
// a price worth paying for a write that stays done.
package atomicfile
