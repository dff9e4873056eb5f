// Package topk keeps the k smallest of a stream of items in memory
// bounded by k: a listing's page, the first results of a search, the
// first entries of a tree's level, whatever the size of what is read.
//
//	first := topk.New(10, strings.Compare)
//	for _, name := range names {
//		first.Add(name)
//	}
//	page := first.Sorted() // the 10 smallest, in order
//
// n items cost O(n log k) comparisons and at most 2k items held at once
// (TestTopKKeepsTheSmallestInOrder); [TopK.Bytes] says how much that is,
// for a caller that reserves memory as it reads.
//
// # Why not a library
//
// The standard library's container/heap keeps the k smallest too, but in
// order at every item: several comparisons and swaps an item, and a sort
// at the end all the same. This package appends, and sorts and halves
// once it holds 2k, so that an item past the largest kept costs one
// comparison; with a sort of its own ([TopK.Sort]: namesort.Sort by name)
// the sort is the faster one. No figure was taken against a heap: the
// listing benchmarks of tools/fs (BenchmarkServeListBigFolder,
// BenchmarkListPeakRSS) measure what a page costs with this package.
package topk
