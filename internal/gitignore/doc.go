// Package gitignore decides which paths a set of ignore files excludes,
// by the rules of gitignore(5). Its matcher is its own, designed from that
// manual, fnmatch(3) and experiments with git check-ignore, and its tests
// hold it to git wherever git is installed:
//
//   - a blank line or one that starts with '#' holds no pattern; "\#" and
//     "\!" start a pattern with a literal '#' or '!';
//   - trailing spaces are dropped unless escaped ("a\ "); "\r\n" line
//     endings and a UTF-8 byte order mark are accepted;
//   - '!' negates: a path the pattern matches is kept again;
//   - a trailing '/' matches directories only;
//   - a pattern without '/' (but a trailing one) matches a name at any
//     depth below its file's directory; one with a '/' at its start or in
//     its middle matches the path relative to that directory;
//   - '*', '?' and "[...]" (with '!' or '^' to negate, ranges and classes
//     such as [:digit:]) never match '/'; a "**" alone between slashes
//     or at the start matches any number of directories, none included,
//     and "/**" at the end everything inside a directory (not the
//     directory itself); any other "**" is a '*';
//   - the last pattern that matches wins, and a deeper directory's
//     patterns win over those above it ([Rules]).
//
// Where the manual is silent, git's behaviour decides, and compile's doc
// says what it is: sets that do not close, unknown class names, reversed
// ranges, "\/", and "**/" right after a pattern's leading text ("a**/b"
// matches "ab" and "a/x/b").
//
// Matching is byte for byte and case-sensitive (git's core.ignoreCase
// unset). [Parse] takes an ignore file's content. A [Stack] follows a walk
// and decides which files apply where, as git does: .git/info/exclude at
// the top of a repository (a directory holding .git, where the rules above
// stop), then each directory's .gitignore and .ignore, within [Bounds] on
// what one walk reads and holds. It reads them through the caller's
// [Source], so that the caller's sandbox decides what may be read. That a
// path below an ignored directory is ignored too is for the walk: it does
// not enter one (git never looks inside one, so no pattern can bring back
// what it holds).
//
// A pattern is compiled once, when parsed, and a match neither recurses
// nor backtracks: it takes at most about P×N component comparisons for a
// pattern of P components and a path of N, never exponentially many. One
// bound git does not have: a line longer
// than [MaxPatternBytes] is dropped, which holds the worst match to tens
// of milliseconds (BenchmarkHostilePattern).
//
// # Why not a library
//
// github.com/go-git/go-git/v5/plumbing/format/gitignore, measured at
// v5.19.3, still matches each component with filepath.Match (it has no
// port of git's wildmatch), and its Matcher matches a path when a pattern
// matches any of its leading directories. So "[[:digit:]]*.num" matches
// nothing, "[!a]x.tmp" is a set with '!' in it, "!important/" brings back
// important/x.log that "*.log" ignores, "!build/keep.txt" brings back a
// file below the ignored build/, "logs/**" ignores logs itself (so
// "!logs/.gitkeep" cannot work), and "*", "!*/", "!*.go" keeps b.txt in a
// directory. On the 124 paths of the test tree in tools/fs
// (ignoretree_test.go), built as a repository and asked of git check-ignore
// (git 2.39.5), its Matcher disagrees on 7, asked path by path and as a
// walk uses it (a path below an ignored directory ignored); this package
// agrees on all 124, and tools/fs holds it to git wherever git is
// installed (TestIgnoredEntriesAgreeWithGitCheckIgnore). Measured with a
// throwaway program outside this module that imports go-git v5.19.3 and
// this package. github.com/sabhiram/go-gitignore has no notion of
// directories and turns '?' into a literal (12 of the 124 when last
// measured).
//
// # Why a matcher of its own beside internal/glob
//
// The tools' globs (internal/glob) are another dialect: they count
// characters where git counts bytes, negate sets with '^' only, know no
// POSIX classes, and have braces. Of this package's 143 cases, each held
// to git check-ignore, the tools' glob refuses 15 and answers 21
// otherwise; this matcher answers 6 of the tools' 66 brace-free cases
// otherwise (TestTheToolsGlobIsAnotherDialect,
// TestIgnorePatternsAreAnotherDialect). On patterns both read alike this
// matcher is the faster, 3 to 7 times on wildcard patterns
// (BenchmarkBothDialects).
package gitignore
