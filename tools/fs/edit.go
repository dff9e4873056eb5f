package fs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/internal/diff"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// maxLinesListed is how many line numbers an error lists before "and N
// more".
const maxLinesListed = 10

// Edit is one replacement of edit_file.
type Edit struct {
	OldText string `json:"old_text" chars:"text" minLength:"1" description:"Exact text from the file, indentation included; unique unless replace_all, so include enough lines."`
	NewText string `json:"new_text" chars:"text" description:"Its replacement; empty deletes old_text."`
	// ReplaceAll replaces every occurrence of OldText.
	ReplaceAll bool `json:"replace_all,omitempty" description:"Replace every occurrence, not just one."`
}

// EditFileArgs are the arguments of edit_file.
type EditFileArgs struct {
	Path            string `json:"path" chars:"path" minLength:"1" description:"Relative to the root."`
	Edits           []Edit `json:"edits" minItems:"1" maxItems:"50" description:"Applied in order, each to the result of those before."`
	ExpectedVersion string `json:"expected_version,omitempty" maxLength:"64" description:"From your last read or write; refused if the file changed since."`
	DryRun          bool   `json:"dry_run,omitempty" description:"Return the diff without writing."`
}

// Validate refuses an expected_version that is not a version.
func (a *EditFileArgs) Validate() error { return checkVersionArg(&a.ExpectedVersion) }

// FuzzyMatch reports an edit whose old_text did not occur exactly and was
// matched line by line, ignoring the whitespace at the start and end of
// each line.
type FuzzyMatch struct {
	Edit       int  `json:"edit" description:"The edit's index in edits, from 0."`
	Line       int  `json:"line" description:"The first line of the text it replaced, counting from 1 in the text as the edits before it left it."`
	Lines      int  `json:"lines" description:"How many lines it replaced."`
	Reindented bool `json:"reindented" description:"True when new_text was re-indented to the indentation found in the file."`
}

// EditFileResult is the result of edit_file.
type EditFileResult struct {
	Path          string       `json:"path" description:"The file, relative to the root."`
	Applied       int          `json:"applied" description:"How many edits were applied: all of them, or the call fails."`
	Replacements  int          `json:"replacements" description:"How many replacements the edits made: one an edit, or as many as old_text occurred for an edit with replace_all."`
	FuzzyMatches  []FuzzyMatch `json:"fuzzy_matches" description:"The edits that matched only when whitespace at the start and end of lines was ignored; check their part of the diff."`
	Diff          string       `json:"diff" description:"The change as a unified diff with 3 lines of context; empty when nothing changes. Cut after whole lines at 64 KiB or the read limit, setting diff_truncated and note."`
	DiffBytes     int          `json:"diff_bytes,omitempty" description:"The size of the whole diff, set when it was cut."`
	DiffTruncated bool         `json:"diff_truncated,omitempty" description:"True when diff holds only the start of the diff."`
	Note          string       `json:"note,omitempty" description:"When the diff was cut: how much of it is shown, and the line to read on from with read_file's offset."`
	Bytes         int64        `json:"bytes" description:"The size of the file after the edits."`
	Version       string       `json:"version,omitempty" description:"The file's version after the call, to pass as expected_version."`
	DryRun        bool         `json:"dry_run,omitempty" description:"True when the file was not written because dry_run was set."`

	inLang
}

// Content returns a sentence on what was done, notes on the fuzzy
// matches, and the diff.
func (r EditFileResult) Content() []server.Content {
	var sb strings.Builder
	edits := counted(r.Applied, msgEdit, msgEdits)
	switch {
	case r.Diff == "":
		sb.WriteString(say(msgEditUnchanged, edits, lit(quote(r.Path))).In(r.lang))
	case r.DryRun:
		sb.WriteString(say(msgEditDryRun, edits, lit(quote(r.Path))).In(r.lang))
	default:
		sb.WriteString(say(msgEditApplied, edits, lit(quote(r.Path)), size(r.Bytes)).In(r.lang))
	}
	if r.Replacements != r.Applied {
		sb.WriteString(say(msgEditReplaced, counted(r.Replacements, msgReplacement, msgReplacements)).In(r.lang))
	}
	if r.Version != "" {
		sb.WriteString(i18n.Pick(r.lang, " ", "") + versionTag(r.Version).In(r.lang))
	}
	for _, m := range r.FuzzyMatches {
		sb.WriteString(say(msgEditFuzzy, num(m.Edit), lineSpan(m.Line, m.Lines)).In(r.lang))
		if m.Reindented {
			sb.WriteString(say(msgEditFuzzyReindented).In(r.lang))
		}
		sb.WriteString(say(msgEditFuzzyEnd).In(r.lang))
	}
	if r.Diff != "" {
		sb.WriteString("\n\n")
		sb.WriteString(r.Diff)
	}
	if r.Note != "" {
		sb.WriteString("[" + r.Note + "]")
	}
	return []server.Content{server.TextContent(sb.String())}
}

// lineSpan returns "line 4" or "lines 4-6".
func lineSpan(first, n int) message {
	if n <= 1 {
		return say(msgLineAt, num(first))
	}
	return say(msgLineSpan, num(first), num(first+n-1))
}

func (t *toolset) addEditFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "edit_file",
		Schemas: savedSchemas("edit_file"),
		Title:   "Edit a file",
		Description: "Replaces text in a file: each edit's old_text, found once (or every time, with replace_all), becomes new_text; edits apply in order, all or none. " +
			"Without an exact match, one that ignores each line's leading and trailing whitespace is used. " +
			"Returns a unified diff. " + mention(s, "write_file", "Prefer it to write_file for existing files. ") + "Files up to " + descSize(t.lim.MaxEditBytes) + ".",
		Level:       security.Write,
		Targets:     []string{"path"},
		DryRun:      "dry_run",
		Destructive: true,
	}, speak(t.editFile))
}

// editPlan is what edit_file is about to do: its result, the edited
// text, and the permissions the file keeps.
type editPlan struct {
	res     EditFileResult
	changed bool // the edits change the text
	text    string
	perm    fs.FileMode
}

func (t *toolset) editFile(ctx context.Context, call *server.Call, in EditFileArgs) (EditFileResult, error) {
	rel, err := t.sb.ResolveWrite(in.Path)
	if err != nil {
		return EditFileResult{}, err
	}
	var reserved int64 // of the memory budget, by the reads of the file
	p, err := change(ctx, t, call, in.DryRun, []string{rel},
		func() (editPlan, message, error) { return t.planEdit(ctx, call, rel, in, &reserved) },
		func(p *editPlan) error {
			if !p.changed {
				return nil // and the result holds the version read
			}
			if _, err := t.writeAtomic(ctx, rel, p.perm, syncTheDir, fromText(ctx, p.text)); err != nil {
				return err
			}
			p.res.Version = t.versionAfter(rel)
			return nil
		})
	return p.res, err
}

// planEdit reads rel and applies the edits of in to its text, and
// returns what edit_file will write and the sentence that asks the user
// to approve it; none when the edits change nothing, and then the result
// holds the version read. reserved counts what the reads of the call
// reserved of the memory budget so far.
func (t *toolset) planEdit(ctx context.Context, call *server.Call, rel string, in EditFileArgs, reserved *int64) (editPlan, message, error) {
	fi, err := lstat(t.sb.Fs(), rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if in.ExpectedVersion != "" {
				return editPlan{}, message{}, t.checkExpected(rel, in.ExpectedVersion, false, "")
			}
			return editPlan{}, message{}, fail(msgEditNotExist, lit(quote(rel)))
		}
		return editPlan{}, message{}, t.sb.Explain("edit", rel, err)
	}
	if err := t.checkRegular(rel, fi); err != nil {
		return editPlan{}, message{}, err
	}
	orig, version, err := t.readText(ctx, call, rel, "edit_file", reserved)
	if err != nil {
		return editPlan{}, message{}, err
	}
	if err := t.checkExpected(rel, in.ExpectedVersion, true, version); err != nil {
		return editPlan{}, message{}, err
	}

	eol := lineEnding(orig)
	text := orig
	res := EditFileResult{Path: rel, FuzzyMatches: []FuzzyMatch{}, DryRun: in.DryRun}
	held := int64(len(orig)) // the most the text has held, reserved three times over
	for i, e := range in.Edits {
		var fm *FuzzyMatch
		var n int
		text, n, fm, err = applyEdit(text, e, eol, t.lim.MaxEditBytes)
		if err != nil {
			var te *replaceAllTooLarge
			if errors.As(err, &te) {
				return editPlan{}, message{}, fail(msgReplaceAllTooLarge, num(i), counted(te.n, msgReplacement, msgReplacements),
					lit(quote(rel)), size(te.size), size(t.lim.MaxEditBytes))
			}
			var me *matchError
			if errors.As(err, &me) {
				me.edit, me.path = i, rel
			}
			return editPlan{}, message{}, err
		}
		if fm != nil {
			fm.Edit = i
			res.FuzzyMatches = append(res.FuzzyMatches, *fm)
		}
		res.Applied++
		res.Replacements += n
		if grown := int64(len(text)); grown > held {
			// replace_all, or a long new_text, made the text longer than
			// the file: the edited text and the diff hold the growth too.
			if err := call.Reserve(ctx, 2*(grown-held)); err != nil {
				return editPlan{}, message{}, err
			}
			held = grown
		}
	}
	unified := unifiedDiff(rel, orig, text)
	res.Bytes = int64(len(text))
	res.cutDiff(unified, int(min(maxDiffBytes, t.lim.MaxReadBytes)), call.Lang())
	if text == orig {
		if !in.DryRun {
			res.Version = version
		}
		return editPlan{res: res}, message{}, nil
	}
	if err := t.checkWrite(rel, say(msgTheEditedTextOf, lit(quote(rel))), res.Bytes, res.Bytes, say(msgNothingWritten)); err != nil {
		return editPlan{}, message{}, err
	}
	added, removed := diff.Stat(unified)
	ask := say(msgConfirmEdit, lit(quote(rel)), counted(len(in.Edits), msgEdit, msgEdits),
		counted(added, msgLine, msgLines), counted(removed, msgLine, msgLines), size(len(orig)), size(res.Bytes))
	return editPlan{res: res, changed: true, text: text, perm: fi.Mode().Perm()}, ask, nil
}

// maxDiffBytes is the most of a diff edit_file returns, 64 KiB (less when
// the read limit is lower): enough to check a focused edit, while an edit
// that rewrites a whole large file cannot flood the model's context.
const maxDiffBytes = 64 << 10

// unifiedDiff is the diff of a change to rel that edit_file shows: rel in
// its headers is escaped as every name the model reads (displayName).
func unifiedDiff(rel, oldText, newText string) string {
	name, _ := displayName(rel)
	return diff.Unified(name, oldText, newText)
}

// cutDiff sets the diff, cut to at most limit bytes (diff.Cut), with a
// note in lang saying how much was cut and where to read on with
// read_file's offset.
func (r *EditFileResult) cutDiff(unified string, limit int, lang i18n.Lang) {
	shown, oldNext, newNext := diff.Cut(unified, limit)
	r.Diff = shown
	if len(shown) == len(unified) {
		return
	}
	r.DiffBytes, r.DiffTruncated = len(unified), true
	added, removed := diff.Stat(unified)
	what := say(msgDiffCut, size(len(unified)), counted(added, msgLine, msgLines), counted(removed, msgLine, msgLines), size(len(shown)))
	if r.DryRun {
		r.Note = say(msgDiffCutDryRun, what, num(oldNext), num(newNext)).In(lang)
		return
	}
	r.Note = say(msgDiffCutApplied, what, num(newNext)).In(lang)
}

// readText returns the whole text of the regular file rel for tool, which
// changes it, and its version: refusing binary files and files larger
// than the edit limit (MaxEditBytes). Before it reads, it reserves from
// the server's memory budget what the edit holds at most: the text, the
// edited text, and the diff, which for an edit of the whole file holds
// both again. reserved is what the call's reads reserved before, which
// only a larger file adds to: a change read once to ask the user and
// again under its lock holds one text at a time.
func (t *toolset) readText(ctx context.Context, call *server.Call, rel, tool string, reserved *int64) (string, string, error) {
	f, fi, err := t.sb.OpenRead(pathArg(rel), false)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	limit := t.lim.MaxEditBytes
	if fi.Size() > limit {
		return "", "", fail(msgTooLargeToChange, lit(quote(rel)), size(fi.Size()), size(limit), lit(tool))
	}
	if need := 3 * max(fi.Size(), 0); need > *reserved {
		if err := call.Reserve(ctx, need-*reserved); err != nil {
			return "", "", err
		}
		*reserved = need
	}
	data, err := readWhole(f, fi.Size(), limit)
	if err != nil {
		return "", "", t.sb.Explain("read", rel, err)
	}
	if int64(len(data)) > limit {
		return "", "", fail(msgGrewWhileRead, lit(quote(rel)), size(limit))
	}
	if kind, _ := sniff(data[:min(len(data), sniffLen)]); kind != kindText {
		return "", "", fail(msgNotText, lit(quote(rel)), kindPhrase(kind), lit(tool))
	}
	version, err := readVersion(f, fi, data)
	if err != nil {
		return "", "", t.sb.Explain("read", rel, err)
	}
	// data is never written again: the text can have its bytes, rather
	// than a copy of a file of up to MaxEditBytes.
	return unsafe.String(unsafe.SliceData(data), len(data)), version, nil
}

// readWhole reads r to its end, or to limit bytes and one more, into one
// buffer with room for size bytes and one more: the size of the file, so
// that its text is read in place rather than copied as a buffer grows. It
// grows only for a file that grew since its size was taken.
func readWhole(r io.Reader, size, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(size, 0), limit)+1)
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// kindPhrase names a kind of file in a sentence.
func kindPhrase(k fileKind) message {
	switch k {
	case kindImage:
		return say(msgKindImage)
	case kindAudio:
		return say(msgKindAudio)
	case kindBinary:
		return say(msgKindBinary)
	}
	return say(msgKindText)
}

// lineEnding returns the line ending most lines of s have: "\r\n" or "\n".
func lineEnding(s string) string {
	crlf := strings.Count(s, "\r\n")
	if crlf > strings.Count(s, "\n")-crlf {
		return "\r\n"
	}
	return "\n"
}

// toEOL returns s with every line ending, "\n" or "\r\n", made eol.
func toEOL(s, eol string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if eol != "\n" {
		s = strings.ReplaceAll(s, "\n", eol)
	}
	return s
}

// matchError is an edit whose old_text does not occur exactly once. Its
// message names the edit and the file, filled in by the caller.
type matchError struct {
	edit  int
	path  string
	count int   // exact occurrences; 0 when none
	lines []int // the first distinct lines the occurrences (exact or fuzzy) are on
	nline int   // how many distinct lines the exact occurrences are on
	fuzzy int   // whitespace-tolerant matches, when count is 0
	first []int // lines that match old_text's first line, when nothing matches
	lang  i18n.Lang
}

func (e *matchError) Error() string {
	var m message
	edit, file := num(e.edit), lit(quote(e.path))
	switch {
	case e.count > 1:
		var where arg = listLines(e.lines, e.nline)
		switch {
		case e.nline == 1:
			where = say(msgMatchManyAllOn, where)
		case e.nline < e.count:
			where = say(msgMatchManyOn, where)
		}
		m = say(msgMatchMany, edit, num(e.count), file, where)
	case e.fuzzy > 1:
		m = say(msgMatchFuzzyMany, edit, file, num(e.fuzzy), listLines(e.lines, e.fuzzy))
	case len(e.first) > 0:
		m = say(msgMatchNoneFirstLine, edit, file, listLines(e.first, len(e.first)))
	default:
		m = say(msgMatchNone, edit, file)
	}
	if e.edit > 0 {
		m = say(msgMatchAfterEarlier, m)
	}
	return say(msgMatchUnchanged, m).In(e.lang)
}

func (e *matchError) inLanguage(lang i18n.Lang) error {
	inLang := *e
	inLang.lang = lang
	return &inLang
}

// listLines returns "line 3", "lines 3 and 9", or "lines 3, 9, … and 4
// more" for the first of n line numbers.
func listLines(lines []int, n int) arg {
	if len(lines) == 1 && n == 1 {
		return say(msgLineAt, num(lines[0]))
	}
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(l)
	}
	if n > len(lines) {
		return say(msgLinesListMore, list(s), num(n-len(lines)))
	}
	return say(msgLinesList, list(s[:len(s)-1]), lit(s[len(s)-1]))
}

// applyEdit applies e to text, a file whose lines mostly end with eol.
// old_text is looked for as given, then with its line endings made eol,
// then line by line ignoring the whitespace at the start and end of each
// line; the last is reported in the FuzzyMatch returned.
func applyEdit(text string, e Edit, eol string, limit int64) (string, int, *FuzzyMatch, error) {
	newText := toEOL(e.NewText, eol)
	cands := []string{e.OldText}
	if alt := toEOL(e.OldText, eol); alt != e.OldText {
		cands = append(cands, alt)
	}
	if e.ReplaceAll {
		// Every occurrence of either form (a file may mix line endings),
		// left to right, as strings.ReplaceAll replaces those of one; the
		// size is known before anything is built, so that a short
		// old_text and a long new_text cannot build a text past the limit.
		n, removed := countEither(text, cands)
		if n > 0 {
			if grown := int64(len(text)) - int64(removed) + int64(n)*int64(len(newText)); grown > limit {
				return "", 0, nil, &replaceAllTooLarge{n: n, size: grown}
			}
			return replaceEither(text, cands, newText, n, removed), n, nil, nil
		}
	}
	for _, old := range cands {
		if e.ReplaceAll {
			break // neither form occurs
		}
		count, lines, nline := occurrences(text, old)
		switch {
		case count == 1:
			i := strings.Index(text, old)
			return text[:i] + newText + text[i+len(old):], 1, nil, nil
		case count > 1:
			return "", 0, nil, &matchError{count: count, lines: lines, nline: nline}
		}
	}
	out, fm, err := fuzzyEdit(text, e, eol)
	if err != nil {
		return "", 0, nil, err
	}
	return out, 1, fm, nil
}

// nextOf returns where the earliest of forms occurs in text at or after
// from, and its length; -1 when none does. next caches where each form
// occurs next, so that a text is searched once for each form in all.
func nextOf(text string, forms []string, next []int, from int) (at, size int) {
	at = -1
	for i, f := range forms {
		if next[i] >= 0 && next[i] < from {
			next[i] = -2 // passed: search again
		}
		if next[i] == -2 {
			next[i] = -1
			if j := strings.Index(text[from:], f); j >= 0 {
				next[i] = from + j
			}
		}
		if next[i] >= 0 && (at < 0 || next[i] < at) {
			at, size = next[i], len(f)
		}
	}
	return at, size
}

// countEither counts the occurrences of any of forms in text that do not
// overlap one before them, left to right, and the bytes they cover.
func countEither(text string, forms []string) (n, covered int) {
	next := []int{-2, -2}[:len(forms)]
	for from := 0; ; {
		at, size := nextOf(text, forms, next, from)
		if at < 0 {
			return n, covered
		}
		n, covered, from = n+1, covered+size, at+size
	}
}

// replaceEither replaces what countEither counted, n occurrences covering
// covered bytes, with newText.
func replaceEither(text string, forms []string, newText string, n, covered int) string {
	var b strings.Builder
	b.Grow(len(text) - covered + n*len(newText))
	next := []int{-2, -2}[:len(forms)]
	from := 0
	for {
		at, size := nextOf(text, forms, next, from)
		if at < 0 {
			break
		}
		b.WriteString(text[from:at])
		b.WriteString(newText)
		from = at + size
	}
	b.WriteString(text[from:])
	return b.String()
}

// replaceAllTooLarge is the error of an edit with replace_all whose text
// would grow past the edit limit.
type replaceAllTooLarge struct {
	n    int   // the occurrences
	size int64 // the size the text would have
}

func (e *replaceAllTooLarge) Error() string {
	return fmt.Sprintf("replace_all would replace %d occurrences and make a text of %d bytes", e.n, e.size)
}

// occurrences counts where old occurs in text, overlapping occurrences
// included, and how many distinct lines they start on; it returns the
// first maxLinesListed of those lines, each once, in order. Several
// occurrences on one line name it once, so an error never lists "lines
// 1, 1, 1".
func occurrences(text, old string) (count int, lines []int, nline int) {
	line, scanned, last := 1, 0, 0
	for from := 0; ; {
		i := strings.Index(text[from:], old)
		if i < 0 {
			return count, lines, nline
		}
		at := from + i
		count++
		line += strings.Count(text[scanned:at], "\n")
		scanned = at
		if line != last {
			last = line
			nline++
			if len(lines) < maxLinesListed {
				lines = append(lines, line)
			}
		}
		from = at + 1
	}
}

// textLine is one line of a text: its content text[start:end], without the
// line ending, and next, where the following line starts.
type textLine struct{ start, end, next int }

// textLines splits text into lines.
func textLines(text string) []textLine {
	lines := make([]textLine, 0, strings.Count(text, "\n")+1)
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			lines = append(lines, textLine{i, len(text), len(text)})
			break
		}
		end := i + j
		if end > i && text[end-1] == '\r' {
			end--
		}
		lines = append(lines, textLine{i, end, i + j + 1})
		i += j + 1
	}
	return lines
}

// fuzzyEdit applies e where its old_text matches whole lines of text when
// the whitespace at the start and end of each line is ignored, if it
// matches exactly one place; new_text is re-indented from old_text's
// indentation to the file's.
func fuzzyEdit(text string, e Edit, eol string) (string, *FuzzyMatch, error) {
	old := strings.Split(strings.ReplaceAll(e.OldText, "\r\n", "\n"), "\n")
	trailingEOL := len(old) > 1 && old[len(old)-1] == ""
	if trailingEOL {
		old = old[:len(old)-1]
	}
	firstText := -1 // the first line of old with text on it
	trimmed := make([]string, len(old))
	for i, l := range old {
		trimmed[i] = strings.TrimSpace(l)
		if firstText < 0 && trimmed[i] != "" {
			firstText = i
		}
	}
	lines := textLines(text)
	if firstText < 0 {
		return "", nil, &matchError{}
	}
	lineText := func(i int) string { return text[lines[i].start:lines[i].end] }

	var at []int
	for i := 0; i+len(old) <= len(lines); i++ {
		ok := true
		for j := range old {
			if strings.TrimSpace(lineText(i+j)) != trimmed[j] {
				ok = false
				break
			}
		}
		if ok {
			at = append(at, i)
		}
	}
	switch len(at) {
	case 0:
		me := &matchError{}
		for i := range lines {
			if strings.TrimSpace(lineText(i)) == trimmed[firstText] && len(me.first) < maxLinesListed {
				me.first = append(me.first, i+1)
			}
		}
		return "", nil, me
	case 1:
	default:
		me := &matchError{fuzzy: len(at)}
		for _, i := range at[:min(len(at), maxLinesListed)] {
			me.lines = append(me.lines, i+1)
		}
		return "", nil, me
	}

	i := at[0]
	start, end := lines[i].start, lines[i+len(old)-1].end
	if trailingEOL {
		end = lines[i+len(old)-1].next
	}
	oldIndent := leadingSpace(old[firstText])
	fileIndent := leadingSpace(lineText(i + firstText))
	newLines := strings.Split(strings.ReplaceAll(e.NewText, "\r\n", "\n"), "\n")
	reindented := false
	if oldIndent != fileIndent {
		for k, l := range newLines {
			switch {
			case strings.TrimSpace(l) == "":
			case strings.HasPrefix(l, oldIndent):
				newLines[k] = fileIndent + l[len(oldIndent):]
			default:
				newLines[k] = fileIndent + strings.TrimLeft(l, " \t")
			}
			reindented = reindented || newLines[k] != l
		}
	}
	repl := strings.Join(newLines, eol)
	fm := &FuzzyMatch{Line: i + 1, Lines: len(old), Reindented: reindented}
	return text[:start] + repl + text[end:], fm, nil
}

// leadingSpace returns the spaces and tabs that s starts with.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
