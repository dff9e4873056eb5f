package fs

import (
	"context"
	"io/fs"
	"path"

	"github.com/stdiotools/toolserver/internal/gitignore"
)

// The bounds of the ignore files one call applies (see "Ignored entries"
// in the package doc). An ignore file over maxIgnoreFileBytes is not
// applied; nor is one that would bring the ignore files in force at once
// past maxIgnoreHeldBytes or maxIgnoreLines lines, nor one read after the
// call has read maxIgnoreReadBytes of them. Each is named in the result.
// In force at once are the files of the directories from the top of the
// repository down to the one a depth-first walk is in; directory_tree,
// which reads level by level, counts every file it applied.
const (
	maxIgnoreFileBytes = 1 << 20
	maxIgnoreHeldBytes = 4 << 20
	maxIgnoreLines     = 10_000
	maxIgnoreReadBytes = 64 << 20
)

// gitDir is the name of a repository's own directory, which is always
// skipped, and which marks the top of a repository.
const gitDir = ".git"

// ignoreFiles are the files a directory's rules come from, in the order
// they apply: a .ignore file's patterns win over the .gitignore's beside
// it.
var ignoreFiles = [...]string{".gitignore", ".ignore"}

// ignorer decides, for one call, which entries a walk skips as ignored,
// and counts them. A nil *ignorer skips nothing and reads nothing: it is
// what include_ignored asks for.
type ignorer struct {
	t        *toolset
	held     int   // bytes of the ignore files in force
	lines    int   // their lines
	read     int64 // bytes of ignore files read
	skipped  int   // entries skipped
	unusable skipList
}

// ignoreCost is what one directory's ignore files add to those in force.
type ignoreCost struct{ bytes, lines int }

// newIgnorer returns the ignorer of one call, or nil with include set.
func (t *toolset) newIgnorer(include bool) *ignorer {
	if include {
		return nil
	}
	return &ignorer{t: t}
}

// above returns the rules in force in the directory that holds rel: those
// of the directories from the top of the repository that holds rel (the
// nearest directory with a .git) down to rel's parent. When no repository
// holds rel, they are those of every directory above it, up to the root
// or to the top of the subtree the sandbox allows. rel itself, and the
// directories above it, are never skipped: the directory a call names is
// searched, even when a rule ignores it.
func (ig *ignorer) above(ctx context.Context, rel string) *gitignore.Rules {
	if ig == nil {
		return nil
	}
	root, inner := ig.t.sb.SplitRoot(rel) // with several roots, stay in rel's
	if inner == "." || ig.isTop(rel) {
		return nil
	}
	var dirs []string // nearest first
	for d := inner; d != "."; {
		d = path.Dir(d)
		full := ig.t.sb.JoinRoot(root, d)
		if _, err := ig.t.sb.Resolve(pathArg(full)); err != nil {
			break
		}
		dirs = append(dirs, full)
		if ig.isTop(full) {
			break
		}
	}
	var rules *gitignore.Rules
	for i := len(dirs) - 1; i >= 0; i-- {
		rules, _ = ig.enter(ctx, rules, dirs[i]) // in force for the whole call
	}
	return rules
}

// isTop reports whether dir is the top of a repository: whether it holds
// a .git, a directory or (in a worktree or a submodule) a file.
func (ig *ignorer) isTop(dir string) bool {
	_, err := lstat(ig.t.sb.Fs(), joinRel(dir, gitDir))
	return err == nil
}

// enter returns the rules in force in the directory dir, whose parent has
// parent: those, then the patterns of dir's .gitignore and .ignore. At the
// top of a repository, the rules above no longer apply (as in git, a
// repository inside another follows its own), and .git/info/exclude comes
// first. The cost is to be released once the walk leaves dir.
func (ig *ignorer) enter(ctx context.Context, parent *gitignore.Rules, dir string) (*gitignore.Rules, ignoreCost) {
	if ig == nil {
		return nil, ignoreCost{}
	}
	var patterns []gitignore.Pattern
	var cost ignoreCost
	add := func(p string) {
		if data, lines, ok := ig.load(ctx, p, cost); ok {
			patterns = append(patterns, gitignore.Parse(data)...)
			cost.bytes += len(data)
			cost.lines += lines
		}
	}
	if fi, err := lstat(ig.t.sb.Fs(), joinRel(dir, gitDir)); err == nil {
		parent = nil
		if fi.IsDir() {
			add(joinRel(dir, gitDir+"/info/exclude"))
		}
	}
	for _, name := range ignoreFiles {
		add(joinRel(dir, name))
	}
	ig.held += cost.bytes
	ig.lines += cost.lines
	if dir == "." {
		dir = ""
	}
	return parent.With(dir, patterns), cost
}

// Enter is enter for a depth-first walk (walk.Filter): the rules in force
// in dir, and what releases their cost once the walk leaves it.
func (ig *ignorer) Enter(ctx context.Context, parent *gitignore.Rules, dir string) (*gitignore.Rules, func()) {
	rules, cost := ig.enter(ctx, parent, dir)
	return rules, func() { ig.release(cost) }
}

// Skip is skip for a walk (walk.Filter).
func (ig *ignorer) Skip(rules *gitignore.Rules, p string, d fs.DirEntry) bool {
	return ig.skip(rules, p, d)
}

// release takes what a directory's ignore files cost off those in force.
func (ig *ignorer) release(c ignoreCost) {
	if ig != nil {
		ig.held -= c.bytes
		ig.lines -= c.lines
	}
}

// load returns the content of the ignore file p and its lines, and
// whether there is one to apply; pending is what the directory's files read so far add. A
// missing file is none; so is a symbolic link, which git does not follow
// either, or anything else that is not a regular file. A file that cannot
// be read or is over a bound is noted, and not applied.
func (ig *ignorer) load(ctx context.Context, p string, pending ignoreCost) (data string, lines int, ok bool) {
	fi, err := lstat(ig.t.sb.Fs(), p)
	switch {
	case isMissing(err):
		return "", 0, false
	case err != nil:
		ig.unusable.add(p, err)
		return "", 0, false
	case !fi.Mode().IsRegular():
		return "", 0, false
	}
	size := fi.Size()
	if reason := ig.overBound(size, pending); reason != "" {
		ig.unusable.addReason(p, reason)
		return "", 0, false
	}
	f, _, err := ig.t.sb.OpenRead(pathArg(p), false)
	if err != nil {
		if !isMissing(err) {
			ig.unusable.add(p, err)
		}
		return "", 0, false
	}
	buf, err := readInto(ctx, f, make([]byte, 0, size+1), maxIgnoreFileBytes)
	f.Close()
	ig.read += int64(len(buf))
	switch {
	case ctx.Err() != nil:
		return "", 0, false // the walk stops at its next check
	case err != nil:
		ig.unusable.add(p, err)
		return "", 0, false
	}
	if reason := ig.overBound(int64(len(buf)), pending); reason != "" { // it grew
		ig.unusable.addReason(p, reason)
		return "", 0, false
	}
	data = string(buf)
	if lines = gitignore.Lines(data); ig.lines+pending.lines+lines > maxIgnoreLines {
		ig.unusable.addReason(p, "too_many_patterns")
		return "", 0, false
	}
	return data, lines, true
}

// overBound returns why an ignore file of size bytes cannot be applied on
// top of those in force and pending, or "".
func (ig *ignorer) overBound(size int64, pending ignoreCost) string {
	switch {
	case size > maxIgnoreFileBytes:
		return "too_large"
	case int64(ig.held+pending.bytes)+size > maxIgnoreHeldBytes:
		return "too_many_patterns"
	case ig.read+size > maxIgnoreReadBytes:
		return "read_limit"
	}
	return ""
}

// skip reports whether a walk leaves out the entry d at the root-relative
// path p, in a directory whose rules are rules, and counts it if so: .git
// always, and what the rules ignore. A directory skipped is not entered.
func (ig *ignorer) skip(rules *gitignore.Rules, p string, d fs.DirEntry) bool {
	if ig == nil || d.Name() != gitDir && !rules.Ignored(p, d.IsDir()) {
		return false
	}
	ig.skipped++
	return true
}

// sentence says how many entries were skipped as ignored and how to
// include them, then names the ignore files that were not applied; ""
// when there is nothing to say.
func (ig *ignorer) sentence() sentences {
	if ig == nil {
		return nil
	}
	var s sentences
	if ig.skipped > 0 {
		s = append(s, counted(ig.skipped, msgIgnoredOne, msgIgnoredMany))
	}
	return append(s, ig.unusedSentence())
}

// unusedSentence names the ignore files that were not applied; "" when
// every one was.
func (ig *ignorer) unusedSentence() message {
	if ig == nil || ig.unusable.n == 0 {
		return message{}
	}
	u := &ig.unusable
	if u.n == 1 {
		return say(msgUnusedOne, u.list(ignoreReasonPhrase))
	}
	return say(msgUnusedMany, num(u.n), u.list(ignoreReasonPhrase))
}

// ignoreReasonPhrase says why an ignore file was not applied.
func ignoreReasonPhrase(reason string) arg {
	switch reason {
	case "too_large":
		return say(msgIgnoreTooLarge, num(maxIgnoreFileBytes>>20))
	case "too_many_patterns":
		return say(msgIgnoreTooMany, num(maxIgnoreLines), num(maxIgnoreHeldBytes>>20))
	case "read_limit":
		return say(msgIgnoreReadLimit, num(maxIgnoreReadBytes>>20))
	}
	return reasonPhrase(reason)
}

// unused returns the ignore files not applied, for a result.
func (ig *ignorer) unused() []SkippedEntry {
	if ig == nil {
		return nil
	}
	return ig.unusable.first
}

// count returns how many entries were skipped as ignored.
func (ig *ignorer) count() int {
	if ig == nil {
		return 0
	}
	return ig.skipped
}

// ignoreSentence is what the description of a tool that skips ignored
// entries says about it.
const ignoreSentence = "Skips .git and what .gitignore, .ignore and .git/info/exclude exclude, and says how many; include_ignored: true includes them."
