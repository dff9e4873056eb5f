// Package walk visits a directory tree depth first in bounded memory:
// [Walker.Walk] holds one directory's read at a time (its ReadDir gives
// entries in batches, as the file system does) and the subdirectories
// still to enter, never a directory's whole list. It enters at most
// [MaxDepth] levels and keeps at most [MaxPending] directories waiting,
// and stops after [Walker.MaxEntries] entries; what it does not enter,
// it tells the walk function with [ErrTooDeep], [ErrTooManyDirs] or
// [ErrBudget], so that a tool can count and name what it skipped. A
// [Filter] leaves entries out by rules each directory adds to (the ignore
// files of tools/fs), entered and left with the walk.
//
// Entries come in the order the file system gives them; subdirectories
// are entered in name order once their parent is read
// (TestWalkReadsEachDirectoryThenEntersItsSubdirectoriesInNameOrder).
// The package reads nothing itself: the caller's ReadDir goes through
// the sandbox, skips the server's temporary files, and explains errors.
//
// # Why not a library
//
// io/fs.WalkDir and path/filepath.WalkDir read each directory whole and
// sort it before the walk function sees an entry, and have no bound on
// depth, on directories waiting or on entries, and no filter that
// follows the walk in and out of directories. On a folder of 50,000
// files, fs.WalkDir took about 85 ms with its heap peaking 7.5 MB above
// where it started, this package about 45 ms and 3.8 MB, garbage
// included (BenchmarkWalkALargeFolder); the gap grows with the folder,
// since one read of this package holds 512 entries, and fs.WalkDir all
// of them. Walkers outside the standard library were not measured: each
// takes host paths, where every read here goes through the sandbox.
package walk
