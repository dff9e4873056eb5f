// Package diff writes the unified diff of two texts, as edit_file shows
// a change: [Unified] with three lines of context ([Context]), hunk
// ranges as GNU diff writes them, and "\ No newline at end of file"
// after a last line without one. [Cut] cuts a diff to a number of bytes
// at a line boundary and says where the old and the new text go on;
// [Stat] counts the lines it adds and removes.
//
// Only the lines between the texts' common start and end, with their
// context, are split and compared, so a small edit of a large file costs
// what the edit costs (BenchmarkDiffOfOneLineInALargeFile: one line of
// 1 MiB, 60 to 72 µs and 1 KiB). The lines in
// between are compared by Myers' O(ND) algorithm, up to an edit distance
// of 1,000; past it, the differing middle shows as removed whole and
// added whole, a longer diff but a correct one, so that a rewrite costs
// time and memory linear in the file (BenchmarkDiffOfARewrite: 1 MiB of
// 8-byte lines in about 60 ms and 47 MB). FuzzDiff applies every diff it
// makes and checks it gives the new text.
//
// The package builds no sentence: a caller that shows a diff escapes the
// name it passes, and says in its own words what Cut left out.
//
// # Why not a library
//
// github.com/aymanbagabas/go-udiff v0.4.2 (the diff gopls uses) was put
// in the place of the Myers search and the hunk writer, on the same
// window, with context 3, its hunks renumbered and written in the same
// form, and measured against this package with go test -bench -count 5
// (medians) in a throwaway module that imports both; this package's
// column is BenchmarkDiffOfARewrite, BenchmarkUnifiedDiff,
// BenchmarkDiffOfOneLineInALargeFile, BenchmarkDiffOfEveryFourthLine and
// BenchmarkDiffOfTextsFarApart here:
//
//	                                   this package        go-udiff
//	rewrite of 1 MiB, 8-byte lines     60 ms, 47 MB        304 ms, 212 MB
//	7 one-line changes, 10,000 lines   103 µs, 84 KB       187 µs, 160 KB
//	one line of 1 MiB                  72 µs, 1 KB         79 µs, 4.5 KB
//	every 4th line of 2,000 changed    9.2 ms, 9.0 MB      2.4 ms, 1.5 MB
//	3,000 lines, all different         8.9 ms, 9.0 MB      2.0 ms, 1.7 MB
//
// The first row (BenchmarkDiffOfARewrite, an edit that rewrites a whole
// file) is 5.1 times the time and 4.5 times the memory: past the 2x that
// would have made the switch worth a dependency. Its search also gives
// up early (at 50 steps from each end): with every fourth line changed
// its diff is 84,456 bytes against 54,150, half as long again and past
// the 64 KiB edit_file shows. Where it is faster, texts far apart, this
// package's cost is the trace it keeps for the way back, up to 1,000
// steps of the search (9 MB); a linear-space Myers would remove it. On
// 19,857 random pairs of short texts every go-udiff diff applied, 74%
// were byte for byte the same as this package's, and all but the two
// above added and removed the same number of lines.
package diff
