package gitignore

import "strings"

// MaxPatternBytes is the longest pattern Parse keeps; longer lines are
// dropped. git has no such limit. It bounds the time one match may take,
// which grows with the pattern's components times the path's
// (BenchmarkHostilePattern); no path a sandbox allows is that long, so
// only a pattern of stars that long could match anything.
const MaxPatternBytes = 4096

// Pattern is one pattern of an ignore file.
type Pattern struct {
	// glob is the pattern without its '!', its trailing '/' and, for a
	// pathname pattern, one leading '/'.
	glob string
	// negated: the line started with '!', so the paths it matches are
	// kept, not ignored.
	negated bool
	// dirOnly: the line ended in '/', so it matches directories only.
	dirOnly bool
	// basename: the pattern holds no '/' (but the trailing one), so it
	// is matched against the last name of a path, at any depth below its
	// file's directory; otherwise against the path relative to it.
	basename bool
	// m is glob compiled.
	m matcher
}

// ParsePattern parses one line of an ignore file, after Parse has taken
// off its line ending: a line that is empty or starts with '#' holds no
// pattern (ok is false); a NUL byte ends the line, as it does for git;
// unescaped trailing spaces are dropped; a leading '!' negates; "\#" and
// "\!" stand for a leading '#' or '!'; a trailing '/' restricts the
// pattern to directories; a '/' anywhere else anchors it to the directory
// of its file.
func ParsePattern(line string) (p Pattern, ok bool) {
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	if line == "" || line[0] == '#' {
		return Pattern{}, false
	}
	line = trimTrailingSpaces(line)
	if line == "" || len(line) > MaxPatternBytes {
		return Pattern{}, false
	}
	if line[0] == '!' {
		p.negated = true
		line = line[1:]
	}
	if n := len(line); n > 0 && line[n-1] == '/' {
		p.dirOnly = true
		line = line[:n-1]
	}
	p.basename = strings.IndexByte(line, '/') < 0
	if !p.basename && line[0] == '/' {
		line = line[1:]
	}
	p.glob = line
	p.m = compile(line)
	return p, true
}

// trimTrailingSpaces drops the spaces at the end of line that no
// backslash escapes (spaces only: git keeps trailing tabs).
func trimTrailingSpaces(line string) string {
	cut := -1
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			if cut < 0 {
				cut = i
			}
		case '\\':
			if i++; i == len(line) {
				return line
			}
			cut = -1
		default:
			cut = -1
		}
	}
	if cut >= 0 {
		return line[:cut]
	}
	return line
}

// Parse returns the patterns of an ignore file's content, in order: a
// UTF-8 byte order mark at its start is skipped, lines end at "\n" or
// "\r\n", and each line is parsed by ParsePattern. The patterns refer to
// the content, so that they share its memory.
func Parse(data string) []Pattern {
	data = strings.TrimPrefix(data, "\uFEFF")
	var ps []Pattern
	for data != "" {
		line := data
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if p, ok := ParsePattern(line); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// Lines returns how many lines data holds, a bound on how many patterns
// Parse returns, without parsing it.
func Lines(data string) int {
	n := strings.Count(data, "\n")
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// Negated reports whether p keeps what it matches rather than ignore it:
// its line started with '!'.
func (p *Pattern) Negated() bool { return p.negated }

// Matches reports whether p matches the path rel, given relative to the
// directory of p's ignore file ("a/b.txt"), with isDir telling whether it
// is a directory. It judges rel alone: that a directory above rel is
// ignored is for the caller to know (see [Rules]).
func (p *Pattern) Matches(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.basename {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	return p.m.match(rel)
}
