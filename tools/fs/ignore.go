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
const gitDir = gitignore.GitDir

// ignorer decides, for one call, which entries a walk skips as ignored,
// and counts them: a gitignore.Stack over the sandbox's files, bounded as
// above. A nil *ignorer skips nothing and reads nothing: it is what
// include_ignored asks for.
type ignorer struct {
	t        *toolset
	stack    gitignore.Stack
	skipped  int // entries skipped
	unusable skipList
}

// newIgnorer returns the ignorer of one call, or nil with include set.
func (t *toolset) newIgnorer(include bool) *ignorer {
	if include {
		return nil
	}
	ig := &ignorer{t: t}
	ig.stack = gitignore.Stack{
		Source: ignoreSource{t},
		Join:   joinRel,
		Bounds: gitignore.Bounds{FileBytes: maxIgnoreFileBytes, HeldBytes: maxIgnoreHeldBytes, Lines: maxIgnoreLines, ReadBytes: maxIgnoreReadBytes},
		Unusable: func(p, reason string, err error) {
			if err != nil {
				ig.unusable.add(p, err)
			} else {
				ig.unusable.addReason(p, reason)
			}
		},
	}
	return ig
}

// ignoreSource reads ignore files through the sandbox.
type ignoreSource struct{ t *toolset }

func (s ignoreSource) Lstat(p string) (fs.FileInfo, error) { return lstat(s.t.sb.Fs(), p) }

func (s ignoreSource) Read(ctx context.Context, p string, size, limit int64) ([]byte, error) {
	f, _, err := s.t.sb.OpenRead(pathArg(p), false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readInto(ctx, f, make([]byte, 0, size+1), limit)
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
	if inner == "." || ig.stack.IsTop(rel) {
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
		if ig.stack.IsTop(full) {
			break
		}
	}
	var rules *gitignore.Rules
	for i := len(dirs) - 1; i >= 0; i-- {
		rules, _ = ig.enter(ctx, rules, dirs[i]) // in force for the whole call
	}
	return rules
}

// enter returns the rules in force in the directory dir, whose parent has
// parent (gitignore.Stack.Enter), and what they cost, to be released once
// the walk leaves dir.
func (ig *ignorer) enter(ctx context.Context, parent *gitignore.Rules, dir string) (*gitignore.Rules, gitignore.Cost) {
	if ig == nil {
		return nil, gitignore.Cost{}
	}
	return ig.stack.Enter(ctx, parent, dir)
}

// Enter is enter for a depth-first walk (walk.Filter): the rules in force
// in dir, and what releases their cost once the walk leaves it.
func (ig *ignorer) Enter(ctx context.Context, parent *gitignore.Rules, dir string) (*gitignore.Rules, func()) {
	rules, cost := ig.enter(ctx, parent, dir)
	return rules, func() { ig.stack.Release(cost) }
}

// Skip is skip for a walk (walk.Filter).
func (ig *ignorer) Skip(rules *gitignore.Rules, p string, d fs.DirEntry) bool {
	return ig.skip(rules, p, d)
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
	case gitignore.TooLarge:
		return say(msgIgnoreTooLarge, num(maxIgnoreFileBytes>>20))
	case gitignore.TooManyPatterns:
		return say(msgIgnoreTooMany, num(maxIgnoreLines), num(maxIgnoreHeldBytes>>20))
	case gitignore.ReadLimit:
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
