package fs

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"io/fs"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/glob"
	"github.com/stdiotools/toolserver/internal/topk"
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
	Path           string `json:"path" chars:"path" default:"." description:"A file or a directory, relative to the root."`
	Query          string `json:"query" chars:"text" minLength:"1" description:"Text to find in a line; with regex, RE2 (no backreferences or lookaround)."`
	Regex          bool   `json:"regex,omitempty" description:"Treat query as a regular expression."`
	IgnoreCase     bool   `json:"ignore_case,omitempty" description:"Ignore letter case."`
	Glob           string `json:"glob,omitempty" chars:"glob" description:"Only files whose path matches, such as *.go."`
	MaxResults     int    `json:"max_results,omitempty" minimum:"1" description:"Most lines (or files) to return, context lines included."`
	IncludeIgnored bool   `json:"include_ignored,omitempty" description:"Also search .git and ignored files."`
	Context        int    `json:"context,omitempty" minimum:"0" maximum:"10" description:"Lines to show around each match, as grep -C."`
	Output         string `json:"output" enum:"lines,files,counts" default:"lines" description:"files: files with a match; counts: matching lines per file."`
	Cursor         string `json:"cursor,omitempty" maxLength:"8000" description:"next_cursor of an earlier grep with the same arguments."`
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path   string   `json:"path" description:"The file, relative to the root."`
	Line   int      `json:"line" description:"The line number, counting from 1."`
	Text   string   `json:"text" description:"The line, without its line ending; shortened around the match with \"…\" when long."`
	Before []string `json:"before,omitempty" description:"With context: the lines just before it that no earlier match showed, in order."`
	After  []string `json:"after,omitempty" description:"With context: the lines just after it, up to the next match."`
}

// GrepFile is a file with a match, for output files and counts.
type GrepFile struct {
	Path  string `json:"path" description:"The file, relative to the root."`
	Count int    `json:"count,omitempty" description:"With output counts: how many of its lines match."`
}

// GrepResult is the result of grep. The matches are sent as text,
// path:line:text, and as structured content.
type GrepResult struct {
	Path            string         `json:"path" description:"What was searched, relative to the root."`
	Query           string         `json:"query" description:"The query."`
	Matches         []GrepMatch    `json:"matches" description:"The matching lines, by file in sorted order, then by line; empty with output files or counts."`
	Files           []GrepFile     `json:"files,omitempty" description:"With output files or counts: the files with a match, in sorted order."`
	NextCursor      string         `json:"next_cursor,omitempty" description:"Set when more results may follow: pass it as cursor, with the same arguments, to read on."`
	FilesSearched   int            `json:"files_searched" description:"How many files were searched."`
	FilesMatched    int            `json:"files_matched" description:"How many files had a match, among those read (once max_results is reached, a file that sorts after every result kept is not read)."`
	SkippedBinary   int            `json:"skipped_binary,omitempty" description:"Files skipped as binary: images, audio, and files with a NUL byte near the start."`
	SkippedLarge    int            `json:"skipped_large,omitempty" description:"Files skipped for being larger than the read limit."`
	Unreadable      int            `json:"unreadable,omitempty" description:"Files and directories skipped because they could not be read or their path could not be used."`
	UnreadablePaths []SkippedEntry `json:"unreadable_paths,omitempty" description:"The first of the entries counted in unreadable, and why each was skipped."`
	Truncated       bool           `json:"truncated" description:"True when more results may follow than were returned; next_cursor reads on, unless the search stopped early (stopped_at)."`
	StoppedAt       string         `json:"stopped_at,omitempty" description:"The entry the search stopped at, when it reached the most one call visits or reads."`
	Ignored         int            `json:"ignored,omitempty" description:"Entries skipped as ignored (.git, and what ignore files exclude); a directory counts once."`
	IgnoreUnapplied []SkippedEntry `json:"ignore_files_not_applied,omitempty" description:"Ignore files not applied, so what they exclude was searched, and why."`
	Note            string         `json:"note,omitempty" description:"What was skipped or cut, and how to narrow the search."`

	context int // the lines of context asked for: groups apart are set off by "--"
	inLang
}

// Content returns the matches as path:line:text lines, context lines as
// path-line-text with "--" between groups that do not touch, or the files
// (with their counts), then a summary.
func (r GrepResult) Content() []server.Content {
	var sb strings.Builder
	marked := false
	line := func(path string, n int, sep byte, text string) {
		name, escName := displayName(path)
		shown, escText := displayText(text)
		sb.WriteString(name)
		sb.WriteByte(sep)
		sb.WriteString(strconv.Itoa(n))
		sb.WriteByte(sep)
		sb.WriteString(shown)
		if escName || escText {
			sb.WriteString(escapedMark)
			marked = true
		}
		sb.WriteByte('\n')
	}
	lastPath, lastLine := "", 0
	for _, m := range r.Matches {
		first := m.Line - len(m.Before)
		if r.context > 0 && sb.Len() > 0 && (m.Path != lastPath || first > lastLine+1) {
			sb.WriteString("--\n")
		}
		for i, b := range m.Before {
			line(m.Path, first+i, '-', b)
		}
		line(m.Path, m.Line, ':', m.Text)
		for i, a := range m.After {
			line(m.Path, m.Line+1+i, '-', a)
		}
		lastPath, lastLine = m.Path, m.Line+len(m.After)
	}
	matched := 0
	for _, f := range r.Files {
		name, esc := displayName(f.Path)
		sb.WriteString(name)
		if f.Count > 0 {
			sb.WriteByte(':')
			sb.WriteString(strconv.Itoa(f.Count))
		}
		if esc {
			sb.WriteString(escapedMark)
			marked = true
		}
		sb.WriteByte('\n')
		matched += f.Count
	}
	switch {
	case len(r.Matches) == 0 && len(r.Files) == 0:
		sb.WriteString(say(msgGrepNone, counted(r.FilesSearched, msgFile, msgFiles)).In(r.lang) + "\n")
	case len(r.Files) > 0 && matched == 0:
		sb.WriteString(say(msgGrepFilesSummary, counted(len(r.Files), msgFile, msgFiles), counted(r.FilesSearched, msgFile, msgFiles)).In(r.lang) + "\n")
	case len(r.Files) > 0:
		sb.WriteString(say(msgGrepSummary, counted(matched, msgMatchingLine, msgMatchingLines),
			counted(len(r.Files), msgFile, msgFiles), counted(r.FilesSearched, msgFile, msgFiles)).In(r.lang) + "\n")
	default:
		files := 0
		for i, m := range r.Matches {
			if i == 0 || m.Path != r.Matches[i-1].Path {
				files++
			}
		}
		sb.WriteString(say(msgGrepSummary, counted(len(r.Matches), msgMatchingLine, msgMatchingLines),
			counted(files, msgFile, msgFiles), counted(r.FilesSearched, msgFile, msgFiles)).In(r.lang) + "\n")
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
		Description: "Finds the lines matching query in a file or the files below a directory; returns path:line:text (or files or counts, by output), " +
			"at most " + strconv.Itoa(t.lim.MaxResults) + " in path order, with next_cursor for more. " + mention(s, "search_files", "To find files by name use search_files. ") +
			"Skips binary files and files over " + descSize(t.lim.MaxReadBytes) + ". " + ignoreSentence,
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
	output := cmp.Or(in.Output, grepLines)
	var after grepPos
	if in.Cursor != "" {
		var ok bool
		if after, ok = decodeGrepCursor(in.Cursor, output); !ok {
			return GrepResult{}, fail(msgBadGrepCursor, lit(quoteText(in.Cursor)), lit(output))
		}
	}
	limit := t.lim.MaxResults
	if in.MaxResults > 0 {
		limit = min(limit, in.MaxResults)
	}
	if output == grepLines && in.Context > 0 {
		// max_results bounds the lines shown, context included, so that
		// context cannot multiply what the model reads (or the server
		// holds) by up to 21.
		limit = max(1, limit/(2*in.Context+1))
	}
	res := GrepResult{Path: rel, Query: in.Query, Matches: []GrepMatch{}, context: in.Context}
	g := &grepper{t: t, call: call, match: match, must: must, limit: limit, res: &res,
		output: output, context: in.Context, after: after}
	if output == grepLines {
		g.lines = topk.New(limit, func(a, b GrepMatch) int { return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line)) })
	} else {
		g.files = topk.New(limit, func(a, b GrepFile) int { return strings.Compare(a.Path, b.Path) })
	}

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
		err = t.walkPruning(ctx, rel, ig, g.prune, func(p, sub string, d fs.DirEntry, err error) error {
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
				progress(call, res.FilesSearched, say(msgGrepProgress, num(res.FilesSearched), num(g.found)))
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
	var last grepPos
	if g.lines != nil {
		res.Matches = append(res.Matches, g.lines.Sorted()...)
		if n := len(res.Matches); n > 0 {
			last = grepPos{res.Matches[n-1].Path, res.Matches[n-1].Line}
		}
	} else {
		res.Files = g.files.Sorted()
		if n := len(res.Files); n > 0 {
			last = grepPos{path: res.Files[n-1].Path}
		}
	}
	res.Truncated = g.dropped || g.found > limit || res.StoppedAt != ""
	if res.Truncated && res.StoppedAt == "" {
		// After a stop at the most one call reads or visits, files not
		// reached may sort before the results kept: a cursor would skip
		// them, so there is none, and the note says to narrow the search.
		res.NextCursor = encodeGrepCursor(last, output)
	}
	res.Unreadable, res.UnreadablePaths = g.skipped.n, g.skipped.first
	res.Ignored, res.IgnoreUnapplied = ig.count(), ig.unused()
	res.Note = sentences{g.stopped, res.note(limit, output, size(t.lim.MaxReadBytes), g.skipped.sentence()), ig.sentence()}.In(call.Lang())
	return res, nil
}

// The values of grep's output.
const (
	grepLines  = "lines"
	grepFiles  = "files"
	grepCounts = "counts"
)

// grepPos is a place in grep's results: a file, and a line in it (0 for
// output files and counts, whose results are files).
type grepPos struct {
	path string
	line int
}

// encodeGrepCursor returns the cursor of the results after pos: opaque
// to the model (base64url of the output, the line and the path).
func encodeGrepCursor(pos grepPos, output string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(output + "/" + strconv.Itoa(pos.line) + "/" + pos.path))
}

// decodeGrepCursor reads a cursor back into the place it stands for; the
// path comes last, so the slashes it holds part nothing.
func decodeGrepCursor(c, output string) (grepPos, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return grepPos{}, false
	}
	out, rest, ok1 := strings.Cut(string(b), "/")
	line, path, ok2 := strings.Cut(rest, "/")
	n, err := strconv.Atoi(line)
	if !ok1 || !ok2 || out != output || err != nil || n < 0 || path == "" || (output == grepLines) != (n > 0) {
		return grepPos{}, false
	}
	return grepPos{path, n}, true
}

// note describes what was skipped or cut.
func (r *GrepResult) note(limit int, output string, readLimit size, unreadable message) sentences {
	var notes sentences
	if r.NextCursor != "" {
		what := counted(limit, msgMatchingLine, msgMatchingLines)
		if output != grepLines {
			what = counted(limit, msgFile, msgFiles)
		}
		notes = append(notes, say(msgGrepMore, what, lit(strconv.Quote(r.NextCursor))))
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

// grepper searches files for grep. It keeps the first results after the
// cursor in the order of the results (by path, then line), whatever the
// order the walk finds the files in, so that a cursor pages through them:
// once it holds more than it returns, a file or a folder whose paths sort
// after the last result kept is not read.
type grepper struct {
	t       *toolset
	call    *server.Call // reserves the memory of buf
	match   lineMatcher
	must    []byte
	limit   int
	output  string
	context int
	after   grepPos // the cursor: only results after it count
	res     *GrepResult
	buf     []byte
	lines   *topk.TopK[GrepMatch] // output lines
	files   *topk.TopK[GrepFile]  // output files and counts
	found   int                   // results found after the cursor
	dropped bool                  // a file was not read, or not to its end, for sorting after the results kept
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

// past reports whether results in the file rel, from its line line on,
// sort after every result kept, now that some were dropped.
func (g *grepper) past(rel string, line int) bool {
	if g.lines != nil {
		b, ok := g.lines.Bound()
		return ok && (rel > b.Path || rel == b.Path && line > b.Line)
	}
	b, ok := g.files.Bound()
	return ok && rel > b.Path
}

// prune reports whether every path in the directory dir sorts before the
// cursor, or after every result kept now that some were dropped, so that
// the walk need not read it: a search with many matches reads the
// folders its page comes from, not the whole tree (BenchmarkGrepManyMatches).
func (g *grepper) prune(dir string) bool {
	prefix := dir + "/" // every path below dir starts with it, and sorts after it
	if a := g.after.path; a != "" && a > prefix && !strings.HasPrefix(a, prefix) {
		return true
	}
	var bound string
	var ok bool
	if g.lines != nil {
		var b GrepMatch
		b, ok = g.lines.Bound()
		bound = b.Path
	} else {
		var b GrepFile
		b, ok = g.files.Bound()
		bound = b.Path
	}
	// A bound means more results were found than are kept (topk.Bound),
	// so the result says more may follow, with a cursor
	// (TestGrepGivesACursorPastAFolderItLeftUnread).
	return ok && prefix > bound
}

// file searches the file rel, adding its results. It checks ctx before
// opening the file, between reads and every grepCheckEvery bytes it
// scans, so that a cancel stops it within milliseconds.
func (g *grepper) file(ctx context.Context, rel string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if g.after.path != "" && (rel < g.after.path || rel == g.after.path && g.output != grepLines) {
		return nil // its results came before the cursor
	}
	if g.past(rel, 0) {
		g.dropped = true
		return nil
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
	var (
		mine    []GrepMatch // this file's matches, output lines
		count   int         // this file's matching lines
		ring    = make([]grepLine, 0, g.context)
		shown   int // the last line shown, as a match or its context, here or on the page before
		pending int // lines of context still to show after the last match
	)
	if rel == g.after.path {
		shown = g.after.line + g.context // the page before showed the cursor's match and its context
	}
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
		if ok && rel == g.after.path && line <= g.after.line {
			ok = false // before the cursor: context, if anything
		}
		if !ok {
			if pending > 0 {
				m := &mine[len(mine)-1]
				m.After = append(m.After, shortenLine(text, 0, 0))
				shown, pending = line, pending-1
			} else if g.context > 0 {
				if len(ring) == g.context {
					ring = append(ring[:0], ring[1:]...)
				}
				ring = append(ring, grepLine{line, text})
			}
			continue
		}
		if g.output == grepFiles {
			count = 1
			break
		}
		if g.output == grepCounts {
			count++
			continue
		}
		if len(mine) == g.limit || g.past(rel, line) {
			g.dropped = true
			break
		}
		count++
		m := GrepMatch{Path: rel, Line: line, Text: shortenLine(text, start, stop)}
		for _, r := range ring {
			if r.n > shown {
				m.Before = append(m.Before, shortenLine(r.text, 0, 0))
			}
		}
		ring = ring[:0]
		mine = append(mine, m)
		shown, pending = line, g.context
	}
	if count == 0 {
		return nil
	}
	res.FilesMatched++
	if g.lines != nil {
		g.found += len(mine)
		for _, m := range mine {
			g.lines.Add(m)
		}
		return nil
	}
	g.found++
	f2 := GrepFile{Path: rel}
	if g.output == grepCounts {
		f2.Count = count
	}
	g.files.Add(f2)
	return nil
}

// grepLine is a line kept for the context of a match to come.
type grepLine struct {
	n    int
	text []byte
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
