package fs

import (
	"errors"
	"io/fs"

	"github.com/stdiotools/toolserver/internal/glob"
)

// newPathGlob compiles a pattern of a tool's argument (see
// glob.CompilePath), phrasing what is wrong with a malformed one for the
// model.
func newPathGlob(pattern string) (*glob.Glob, error) {
	g, err := glob.CompilePath(pattern)
	if err != nil {
		return nil, globError(err)
	}
	return g, nil
}

// globKinds are the catalog's words for each way a pattern is malformed.
var globKinds = [...]msgID{
	glob.EndsInBackslash:     msgGlobEndsBackslash,
	glob.OpenBracket:         msgGlobOpenBracket,
	glob.BadClass:            msgGlobBadClass,
	glob.StrayBrace:          msgGlobStrayBrace,
	glob.UnclosedBrace:       msgGlobUnclosedBrace,
	glob.TooManyAlternatives: msgGlobTooMany,
}

// globError phrases a *glob.Error: the pattern, what is wrong with it and
// where ({1} of the kind's message), and for too many alternatives the
// bound ({2}).
func globError(err error) error {
	ge, ok := errors.AsType[*glob.Error](err)
	if !ok || int(ge.Kind) >= len(globKinds) || globKinds[ge.Kind] == msgNone {
		return err
	}
	var at arg = lit("")
	if c := ge.Char(); c > 0 {
		at = say(msgAtChar, num(c))
	}
	args := []arg{at}
	if ge.Kind == glob.TooManyAlternatives {
		args = append(args, num(glob.MaxAlternatives))
	}
	return fail(msgGlobMalformed, lit(quoteText(ge.Pattern)), say(globKinds[ge.Kind], args...))
}

// compileGlobs compiles the patterns of the argument arg.
func compileGlobs(patterns []string, arg string) ([]*glob.Glob, error) {
	globs := make([]*glob.Glob, 0, len(patterns))
	for _, p := range patterns {
		g, err := newPathGlob(p)
		if err != nil {
			return nil, fail(msgArgPrefix, lit(arg), cause{err})
		}
		globs = append(globs, g)
	}
	return globs, nil
}

// matchAny reports whether sub matches one of globs.
func matchAny(globs []*glob.Glob, sub string) bool {
	for _, g := range globs {
		if g.Match(sub) {
			return true
		}
	}
	return false
}

// skipExcluded reports whether a walk leaves out the entry d at sub
// because it matches one of exclude, and what the walk function returns
// for it then: fs.SkipDir for a directory, so that what it holds is left
// out too.
func skipExcluded(exclude []*glob.Glob, sub string, d fs.DirEntry) (skip bool, err error) {
	if !matchAny(exclude, sub) {
		return false, nil
	}
	if d.IsDir() {
		return true, fs.SkipDir
	}
	return true, nil
}
