// Package ranksketch summarizes a stream of items, given one at a
// time, in memory that does not grow with the stream's length but with its
// logarithm, so that afterwards, for any rank r, it names an item that is
// surely at or before rank r and one surely at or after it, with the
// number of items between them bounded. A listing at a large offset finds
// with it, in one pass over a folder, two entries that bracket its page,
// and in a second pass keeps only the entries between them (see tools/fs,
// list.go).
//
// It is the deterministic sketch of Manku, Rajagopalan and Lindsay
// (1998): items fill a buffer of b; a full buffer is sorted, and two
// sorted buffers of the same weight are merged and every other item kept,
// giving one buffer of twice the weight, as a binary counter carries. A
// merge of buffers of weight w moves the count of items at or before any
// given item by at most w, one way or the other depending on whether the
// items kept are the first, third, ... or the second, fourth, ...; the
// sketch alternates and adds up both ways separately, so its bounds are
// exact, not probabilistic. With n items it holds about b·log2(n/b)
// items and its counts are off by at most about n·log2(n/b)/(2b) each way.
//
// (TestRankSketchBracketsEveryRank holds the bounds on streams of every
// size; TestRankSketchHoldsLogarithmicMemory the memory: a million items
// in buffers of 1,000 take no more than log2(1000)+3 buffers.)
//
// # Why not a library
//
// The quantile sketches of libraries, KLL or t-digest, are randomized or
// approximate: they would bracket a page only probably, and a listing
// would need a pass more whenever they missed. The figure that decided
// it is in tools/fs: with this sketch a listing at offset 199,000 of
// 200,000 entries takes two passes and peaks at 47 to 51 MiB for 64 at
// once (BenchmarkListPeakRSS), where holding every entry before its page
// took 1.2 to 1.7 GiB.
package ranksketch
