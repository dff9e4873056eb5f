package gitignore

// Rules are the patterns in force in one directory: those of its own
// ignore files, over those of the directories above it. Paths are
// slash-separated and relative to one base, "" for the base itself; each
// directory's patterns are matched against the path relative to that
// directory.
//
// Rules are immutable: [Rules.With] returns new ones that share their
// parent's, so that a walk may keep the rules of many directories at
// once (a breadth-first walk does) at the cost of what each adds.
type Rules struct {
	parent   *Rules
	dir      string // "" for the base
	patterns []Pattern
}

// With returns the rules of the directory dir, a directory below (or at)
// the one of r: r's, then patterns, which are relative to dir and win over
// r's. A nil r stands for no rules, which is how the top of a repository
// starts afresh. With patterns empty it returns r.
func (r *Rules) With(dir string, patterns []Pattern) *Rules {
	if len(patterns) == 0 {
		return r
	}
	return &Rules{parent: r, dir: dir, patterns: patterns}
}

// Ignored reports whether the path, below the directories of every part
// of r, is ignored: whether the last pattern that matches it, looking at
// the deepest directory's patterns first and at each directory's from the
// last line up, is one that does not start with '!'. As in git, a later
// pattern wins over an earlier one of the same file, and a deeper file's
// over a shallower one's.
//
// Ignored judges path alone. That a path below an ignored directory is
// ignored too, whatever its own patterns say, is for the caller: a walk
// that does not enter ignored directories, as git does not, gets git's
// answer for every path it reaches.
func (r *Rules) Ignored(path string, isDir bool) bool {
	for ; r != nil; r = r.parent {
		rel, ok := below(path, r.dir)
		if !ok {
			continue
		}
		for i := len(r.patterns) - 1; i >= 0; i-- {
			if p := &r.patterns[i]; p.Matches(rel, isDir) {
				return !p.negated
			}
		}
	}
	return false
}

// below returns path relative to dir, and whether it lies below it.
func below(path, dir string) (string, bool) {
	switch {
	case dir == "":
		return path, true
	case len(path) > len(dir) && path[len(dir)] == '/' && path[:len(dir)] == dir:
		return path[len(dir)+1:], true
	}
	return "", false
}
