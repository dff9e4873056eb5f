package fs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/glob"
	"github.com/stdiotools/toolserver/internal/walk"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Long matching lines are shortened to about maxGrepLine bytes around the
// match, keeping up to grepBefore bytes before it.
const (
	maxGrepLine = 240
	grepBefore  = 80
)

// GrepArgs are the arguments of grep.
type GrepArgs struct {
	Path           string `json:"path" chars:"path" default:"." description:"The file, or the directory to search below, relative to the root; \".\" is the root."`
	Query          string `json:"query" chars:"text" minLength:"1" description:"The text to find within single lines; with regex, a regular expression in RE2 syntax (no backreferences or lookaround)."`
	Regex          bool   `json:"regex,omitempty" description:"Treat query as a regular expression instead of plain text."`
	IgnoreCase     bool   `json:"ignore_case,omitempty" description:"Match letters regardless of case."`
	Glob           string `json:"glob,omitempty" chars:"glob" description:"Only search files whose path matches this glob, such as *.go or src/**/*.ts (a pattern without '/' matches names at any depth)."`
	MaxResults     int    `json:"max_results,omitempty" minimum:"1" description:"The most matching lines to return; default and maximum set by the server."`
	IncludeIgnored bool   `json:"include_ignored,omitempty" description:"Also search .git and what .gitignore, .ignore and .git/info/exclude files exclude, which are skipped otherwise (a file named as path is always searched)."`
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path string `json:"path" description:"The file, relative to the root."`
	Line int    `json:"line" description:"The line number, counting from 1."`
	Text string `json:"text" description:"The line, without its line ending; shortened around the match with \"…\" when long."`
}

// GrepResult is the result of grep. The matches are sent as text,
// path:line:text, and as structured content.
type GrepResult struct {
	Path            string         `json:"path" description:"What was searched, relative to the root."`
	Query           string         `json:"query" description:"The query."`
	Matches         []GrepMatch    `json:"matches" description:"The matching lines, by file in sorted order, then by line."`
	FilesSearched   int            `json:"files_searched" description:"How many files were searched."`
	FilesMatched    int            `json:"files_matched" description:"How many files had a match (among those searched before the results were cut)."`
	SkippedBinary   int            `json:"skipped_binary,omitempty" description:"Files skipped as binary: images, audio, and files with a NUL byte near the start."`
	SkippedLarge    int            `json:"skipped_large,omitempty" description:"Files skipped for being larger than the read limit."`
	Unreadable      int            `json:"unreadable,omitempty" description:"Files and directories that could not be read, or whose path could not be used (too deep, or a name the path tools refuse), and were skipped."`
	UnreadablePaths []SkippedEntry `json:"unreadable_paths,omitempty" description:"The first of the entries counted in unreadable, and why each was skipped."`
	Truncated       bool           `json:"truncated" description:"True when the search stopped at max_results; more lines may match."`
	StoppedAt       string         `json:"stopped_at,omitempty" description:"Set when the search stopped at the most one call visits or reads, before it was done: the entry it stopped at."`
	Ignored         int            `json:"ignored,omitempty" description:"Entries skipped as ignored: .git, and what .gitignore, .ignore or .git/info/exclude exclude. An ignored directory counts once; what it holds was not searched."`
	IgnoreUnapplied []SkippedEntry `json:"ignore_files_not_applied,omitempty" description:"Ignore files that were not applied, so what they exclude was searched, and why: too_large, too_many_patterns, read_limit, or why they could not be read."`
	Note            string         `json:"note,omitempty" description:"What was skipped or cut, and how to narrow the search."`

	inLang
}

// Content returns the matches as path:line:text lines, then a summary.
func (r GrepResult) Content() []server.Content {
	var sb strings.Builder
	marked := false
	for _, m := range r.Matches {
		name, escName := displayName(m.Path)
		text, escText := displayText(m.Text)
		sb.WriteString(name)
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(m.Line))
		sb.WriteByte(':')
		sb.WriteString(text)
		if escName || escText {
			sb.WriteString(escapedMark)
			marked = true
		}
		sb.WriteByte('\n')
	}
	if len(r.Matches) == 0 {
		sb.WriteString(say(msgGrepNone, counted(r.FilesSearched, msgFile, msgFiles)).in(r.lang) + "\n")
	} else {
		sb.WriteString(say(msgGrepSummary, counted(len(r.Matches), msgMatchingLine, msgMatchingLines),
			counted(r.FilesMatched, msgFile, msgFiles), counted(r.FilesSearched, msgFile, msgFiles)).in(r.lang) + "\n")
	}
	if r.Note != "" {
		sb.WriteString(r.Note + "\n")
	}
	if marked {
		sb.WriteString(escapedNote(r.lang) + "\n")
	}
	return []server.Content{server.TextContent(sb.String())}
}

func (t *toolset) addGrep(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "grep",
		Schemas: savedSchemas("grep"),
		Title:   "Search inside files",
		Description: "Finds the lines that contain query in one file or in every file below a directory, and returns them as path:line:text, long lines shortened around the match. " +
			"query is plain text unless regex is set (RE2 syntax); ignore_case ignores letter case; glob limits the files searched, such as *.go. " +
			"Binary files and files larger than " + byteSize(t.lim.MaxReadBytes) + " are skipped and counted; symbolic links are not followed. " +
			"Returns at most " + strconv.Itoa(t.lim.MaxResults) + " lines (max_results lowers that). To find files by name use search_files. " + ignoreSentence,
		Level: security.Read,
	}, speak(t.grep))
}

// lineMatcher finds a match in one line: its start and end, or ok false.
type lineMatcher func(line []byte) (start, end int, ok bool)

// grepMatcher returns the matcher for the arguments, and a literal that
// every file with a match must contain ("" when there is none).
func grepMatcher(in GrepArgs) (lineMatcher, []byte, error) {
	if strings.ContainsAny(in.Query, "\n") {
		return nil, nil, fail(msgQueryLineBreak)
	}
	if !in.Regex && !in.IgnoreCase {
		q := []byte(in.Query)
		return func(line []byte) (int, int, bool) {
			i := bytes.Index(line, q)
			return i, i + len(q), i >= 0
		}, q, nil
	}
	expr := in.Query
	if !in.Regex {
		expr = regexp.QuoteMeta(expr)
	}
	if in.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		var what arg = lit(err.Error())
		if se, ok := errors.AsType[*syntax.Error](err); ok {
			what = say(msgRegexpWhere, regexpProblem(se.Code), lit(quoteText(se.Expr)))
		}
		return nil, nil, fail(msgBadRegexp, lit(quoteText(in.Query)), what)
	}
	var must []byte
	if prefix, _ := re.LiteralPrefix(); prefix != "" {
		must = []byte(prefix)
	}
	return func(line []byte) (int, int, bool) {
		loc := re.FindIndex(line)
		if loc == nil {
			return 0, 0, false
		}
		return loc[0], loc[1], true
	}, must, nil
}

func (t *toolset) grep(ctx context.Context, call *server.Call, in GrepArgs) (GrepResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return GrepResult{}, err
	}
	match, must, err := grepMatcher(in)
	if err != nil {
		return GrepResult{}, err
	}
	var only *glob.Glob
	if in.Glob != "" {
		if only, err = newPathGlob(in.Glob); err != nil {
			return GrepResult{}, fail(msgArgPrefix, lit("glob"), cause{err})
		}
	}
	limit := t.lim.MaxResults
	if in.MaxResults > 0 {
		limit = min(limit, in.MaxResults)
	}
	res := GrepResult{Path: rel, Query: in.Query, Matches: []GrepMatch{}}
	g := &grepper{t: t, call: call, match: match, must: must, limit: limit, res: &res}

	var ig *ignorer // a file named as path is searched, ignored or not
	fi, err := t.sb.Fs().Stat(rel)
	if err != nil {
		return GrepResult{}, t.sb.Explain("search", rel, err)
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return GrepResult{}, fail(msgGrepNotRegular, lit(quote(rel)), kind(fi.Mode()))
		}
		if err := g.file(ctx, rel); err != nil {
			return GrepResult{}, err
		}
	} else {
		ig = t.newIgnorer(in.IncludeIgnored)
		err = t.walkIgnoring(ctx, rel, ig, func(p, sub string, d fs.DirEntry, err error) error {
			if err == walk.ErrBudget {
				res.StoppedAt = p
				g.stopped = say(msgGrepStoppedVisit, num(t.lim.MaxWalkEntries), lit(quote(p)))
				return nil
			}
			if err != nil {
				g.skipped.add(p, err)
				return nil
			}
			if !d.Type().IsRegular() || only != nil && !only.Match(sub) {
				return nil
			}
			if err := g.file(ctx, p); err != nil {
				return err
			}
			if res.FilesSearched%progressEvery == 0 {
				progress(call, res.FilesSearched, say(msgGrepProgress, num(res.FilesSearched), num(len(res.Matches))))
			}
			if res.Truncated {
				return fs.SkipAll
			}
			if g.scanned > maxGrepBytes {
				res.StoppedAt = p
				g.stopped = say(msgGrepStoppedRead, size(maxGrepBytes), lit(quote(p)))
				return fs.SkipAll
			}
			return nil
		})
		if err != nil {
			return GrepResult{}, err
		}
	}
	// The walk comes in the file system's order: sort by path, keeping
	// each file's lines in order.
	slices.SortStableFunc(res.Matches, func(a, b GrepMatch) int { return strings.Compare(a.Path, b.Path) })
	res.Unreadable, res.UnreadablePaths = g.skipped.n, g.skipped.first
	res.Ignored, res.IgnoreUnapplied = ig.count(), ig.unused()
	res.Note = sentences{g.stopped, res.note(limit, size(t.lim.MaxReadBytes), g.skipped.sentence()), ig.sentence()}.in(call.Lang())
	return res, nil
}

// note describes what was skipped or cut.
func (r *GrepResult) note(limit int, readLimit size, unreadable message) sentences {
	var notes sentences
	if r.Truncated {
		notes = append(notes, say(msgGrepTruncated, num(limit)))
	}
	var skipped phrases
	if r.SkippedBinary > 0 {
		skipped = append(skipped, counted(r.SkippedBinary, msgBinaryFile, msgBinaryFiles))
	}
	if r.SkippedLarge > 0 {
		skipped = append(skipped, say(msgLargerThan, counted(r.SkippedLarge, msgFile, msgFiles), readLimit))
	}
	if len(skipped) > 0 {
		notes = append(notes, say(msgSkippedList, skipped))
	}
	return append(notes, unreadable)
}

// grepper searches files for grep.
type grepper struct {
	t     *toolset
	call  *server.Call // reserves the memory of buf
	match lineMatcher
	must  []byte
	limit int
	res   *GrepResult
	buf   []byte
	// skipped are the entries that could not be read, or whose path
	// could not be used.
	skipped skipList
	scanned int64   // bytes read from files
	stopped message // why the search stopped before it was done, if it did
}

// maxGrepBytes is the most one grep reads from files.
const maxGrepBytes = 1 << 30

// grepCheckEvery is how many bytes of a file grep scans between checks
// of its context.
const grepCheckEvery = 64 << 10

// file searches the file rel, adding its matching lines. It checks ctx
// before opening the file, between reads and every grepCheckEvery bytes
// it scans, so that a cancel stops it within milliseconds.
func (g *grepper) file(ctx context.Context, rel string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	res := g.res
	f, fi, err := g.t.sb.OpenRead(pathArg(rel), false)
	if err != nil {
		g.skipped.add(rel, err)
		return nil
	}
	size := fi.Size()
	if size > g.t.lim.MaxReadBytes {
		f.Close()
		res.SkippedLarge++
		return nil
	}
	if int64(cap(g.buf)) < size+1 {
		// The buffer grows to the largest file searched; what it grows by
		// comes from the server's memory budget, which many greps at once
		// share.
		if err := g.call.Reserve(ctx, size+1-int64(cap(g.buf))); err != nil {
			f.Close()
			return err
		}
		g.buf = make([]byte, 0, size+1)
	}
	data, err := readInto(ctx, f, g.buf[:0], g.t.lim.MaxReadBytes)
	f.Close()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		g.skipped.add(rel, err)
		return nil
	}
	g.buf = data[:0]
	g.scanned += int64(len(data))
	if int64(len(data)) > g.t.lim.MaxReadBytes {
		res.SkippedLarge++
		return nil
	}
	if kind, _ := sniff(data[:min(len(data), sniffLen)]); kind != kindText {
		res.SkippedBinary++
		return nil
	}
	res.FilesSearched++
	if len(g.must) > 0 && !bytes.Contains(data, g.must) {
		return nil
	}
	matched := false
	for line, rest, check := 1, data, len(data)-grepCheckEvery; len(rest) > 0; line++ {
		if len(rest) <= check {
			if err := ctx.Err(); err != nil {
				return err
			}
			check = len(rest) - grepCheckEvery
		}
		end := bytes.IndexByte(rest, '\n')
		text := rest
		if end >= 0 {
			text, rest = rest[:end], rest[end+1:]
		} else {
			rest = nil
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		start, stop, ok := g.match(text)
		if !ok {
			continue
		}
		if len(res.Matches) == g.limit {
			res.Truncated = true
			break
		}
		matched = true
		res.Matches = append(res.Matches, GrepMatch{Path: rel, Line: line, Text: shortenLine(text, start, stop)})
	}
	if matched {
		res.FilesMatched++
	}
	return nil
}

// readInto reads r to its end into buf, which it grows as needed, reading
// at most one byte more than limit. It checks ctx between reads.
func readInto(ctx context.Context, r io.Reader, buf []byte, limit int64) ([]byte, error) {
	lr := io.LimitReader(r, limit+1)
	for {
		if err := ctx.Err(); err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// shortenLine returns line as valid UTF-8, cut to about maxGrepLine bytes
// around the match line[start:stop] when longer, with "…" where it was
// cut.
func shortenLine(line []byte, start, stop int) string {
	if len(line) <= maxGrepLine {
		s, _ := validUTF8(line)
		return s
	}
	from := max(0, start-grepBefore)
	to := min(len(line), max(stop, from+maxGrepLine))
	if to-from > maxGrepLine {
		to = from + maxGrepLine
	}
	for from > 0 && !utf8.RuneStart(line[from]) {
		from--
	}
	to = runeStart(line, to)
	s, _ := validUTF8(line[from:to])
	if from > 0 {
		s = "…" + s
	}
	if to < len(line) {
		s += "…"
	}
	return s
}

// regexpProblem names the kind of error in a regular expression: Go's
// own phrase in English ("missing closing )"), the catalog's in Chinese.
func regexpProblem(code syntax.ErrorCode) arg {
	id := msgNone
	switch code {
	case syntax.ErrInvalidCharClass:
		id = msgReInvalidCharClass
	case syntax.ErrInvalidCharRange:
		id = msgReInvalidCharRange
	case syntax.ErrInvalidEscape:
		id = msgReInvalidEscape
	case syntax.ErrInvalidNamedCapture:
		id = msgReInvalidNamedCapture
	case syntax.ErrInvalidPerlOp:
		id = msgReInvalidPerlOp
	case syntax.ErrInvalidRepeatOp:
		id = msgReInvalidRepeatOp
	case syntax.ErrInvalidRepeatSize:
		id = msgReInvalidRepeatSize
	case syntax.ErrInvalidUTF8:
		id = msgReInvalidUTF8
	case syntax.ErrMissingBracket:
		id = msgReMissingBracket
	case syntax.ErrMissingParen:
		id = msgReMissingParen
	case syntax.ErrMissingRepeatArgument:
		id = msgReMissingRepeatArgument
	case syntax.ErrTrailingBackslash:
		id = msgReTrailingBackslash
	case syntax.ErrUnexpectedParen:
		id = msgReUnexpectedParen
	case syntax.ErrNestingDepth:
		id = msgReNestingDepth
	case syntax.ErrLarge:
		id = msgReLarge
	}
	if id == msgNone {
		return lit(string(code))
	}
	return say(id)
}
