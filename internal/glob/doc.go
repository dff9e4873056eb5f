// Package glob matches slash-separated paths against the glob patterns
// the file tools take: path.Match's syntax with "**" for any number of
// directories and "{a,b}" for alternatives (see [Glob] for the whole
// syntax). [CompilePath] compiles a pattern as the tools read it, a
// pattern without '/' matching a base name at any depth; [Compile]
// matches whole paths.
//
// A match costs time linear in the path for a given pattern: each
// alternative runs as a nondeterministic automaton over the byte
// positions of the path, O(tokens × bytes), with no backtracking
// (TestGlobAgreesWithPathMatch and FuzzGlob hold it to path.Match). The
// braces of one pattern may stand for at most [MaxAlternatives]
// patterns. '?' and sets take one character, not one byte
// (TestGlobCountsCharactersNotBytes).
//
// A malformed pattern gives an [*Error] that says what is wrong and at
// which character, and nothing else: the package builds no sentence for
// a person or a model, and a caller phrases the error from its Kind and
// Char in its own words and language (tools/fs does).
//
// # Why not a library
//
// path.Match has neither "**" nor braces. github.com/bmatcuk/doublestar
// (v4.10.4) has both, but matches braces by backtracking: the pattern
// "{a,aa}" repeated n times then "b*", against 2n a's and a "c", takes
// 157 µs at n = 8 (this package: 33 µs, its 256 alternatives being the
// most it expands), 25 ms at n = 16 and 281 ms at n = 20, a pattern of
// 122 bytes, where this package refuses the pattern at once and says
// why. Its only error is "syntax error in pattern", with no position for
// the model to fix. On everyday patterns the two are alike: 134 to 456 ns
// a match for doublestar, 14 to 418 ns here. Measured with go test -bench
// -count 3 in a throwaway module that imports both, on the patterns of
// BenchmarkBothDialects in internal/gitignore.
//
// # Why two glob engines
//
// internal/gitignore has a matcher of its own for ignore files, and the
// two are different dialects, not one engine twice. Of git's 143 cases
// there (each held to git check-ignore), this package refuses 15 (sets
// such as "[]-]" and "[a-]", and unclosed sets, which git takes) and
// answers 21 otherwise than git: git's '?' and sets take a byte, its
// sets negate with '!' and know POSIX classes and reversed ranges, and
// its "**" right after a name's leading text matches across
// directories. The other way, gitignore's matcher answers 6 of this
// package's 66 brace-free cases otherwise (bytes, and "./" anchors
// nothing there), and has no braces. TestTheToolsGlobIsAnotherDialect
// and TestIgnorePatternsAreAnotherDialect hold these counts. One engine
// would need a switch for the unit of a character, the syntax of a set,
// the meaning of "**" and braces in every step, and a mistake in either
// dialect would then change the other. On wildcard patterns both read
// alike, gitignore's component matcher is 3 to 7 times faster (about 50
// against 170 ns for "*.go" on a five-level path, 100 against 670 ns for
// "src/**/thing/*.go"; a plain name 20 ns in both; BenchmarkBothDialects):
// the one figure for building the tools' dialect on its design some day.
package glob
