package fs

import (
	"bytes"
	"context"
	"io"
	iofs "io/fs"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// readChunk is the size of one read while scanning a file.
const readChunk = 64 << 10

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	Path   string `json:"path" chars:"path" minLength:"1" description:"Relative to the root."`
	Offset int    `json:"offset,omitempty" minimum:"1" description:"The first line to return, from 1."`
	Limit  int    `json:"limit,omitempty" minimum:"1" description:"Lines to return from offset (default: all)."`
	Head   int    `json:"head,omitempty" minimum:"1" description:"First N lines only; not with tail, offset or limit."`
	Tail   int    `json:"tail,omitempty" minimum:"1" description:"Last N lines only; not with head, offset or limit."`
	// LineNumbers numbers the lines as cat -n does.
	LineNumbers bool `json:"line_numbers,omitempty" description:"Number the lines, as cat -n."`
}

// Validate refuses head and tail together, and either of them with offset
// or limit.
func (a *ReadFileArgs) Validate() error {
	switch {
	case a.Head > 0 && a.Tail > 0:
		return fail(msgHeadAndTail)
	case (a.Head > 0 || a.Tail > 0) && (a.Offset > 0 || a.Limit > 0):
		which := "head"
		if a.Tail > 0 {
			which = "tail"
		}
		return fail(msgHeadWithRange, lit(which))
	}
	return nil
}

// ReadFileResult is the result of read_file. The text, or the image or
// audio, is sent as content; the other fields as structured content.
type ReadFileResult struct {
	Path          string `json:"path" description:"The file, relative to the root."`
	Kind          string `json:"kind" description:"text, image or audio."`
	MIMEType      string `json:"mime_type,omitempty" description:"The media type of an image or audio file."`
	Size          int64  `json:"size" description:"The size of the file in bytes."`
	TotalLines    *int   `json:"total_lines,omitempty" description:"The number of lines in the file. Absent for images and audio, and when reading stopped before the end (head, or tail of a file larger than the read limit)."`
	FromLine      int    `json:"from_line,omitempty" description:"The first line returned, counting from 1. Absent when no line was returned or when line numbers are unknown (tail of a file larger than the read limit)."`
	ToLine        int    `json:"to_line,omitempty" description:"The last line returned."`
	Lines         int    `json:"lines,omitempty" description:"How many lines the text holds."`
	Truncated     bool   `json:"truncated" description:"True when the text stops short of the lines asked for because of the read limit; note says how to read on."`
	InvalidUTF8   bool   `json:"invalid_utf8" description:"True when the text was not valid UTF-8; every invalid byte was replaced with U+FFFD."`
	ReplacedBytes int    `json:"replaced_bytes,omitempty" description:"How many invalid bytes were replaced with U+FFFD."`
	Note          string `json:"note,omitempty" description:"What the text is, when it is not the whole file, and how to read more."`
	Version       string `json:"version" description:"The file's version: pass it as expected_version to write_file, edit_file or append_file to change the file only if it is still as read."`

	// Text is the text read, sent as content only.
	Text string `json:"-"`
	// Data is the image or audio, sent as content only.
	Data []byte `json:"-"`

	inLang
}

// Content returns the text, exactly as read, and then the note, if there
// is one, with the version; or the image or audio with a line that
// describes it and gives the version.
func (r ReadFileResult) Content() []server.Content {
	note := sentences{lit(r.Note), versionTag(r.Version)}.In(r.lang)
	switch r.Kind {
	case kindImage.String():
		return []server.Content{server.ImageContent(r.Data, r.MIMEType), server.TextContent(note)}
	case kindAudio.String():
		return []server.Content{server.AudioContent(r.Data, r.MIMEType), server.TextContent(note)}
	}
	var c []server.Content
	if r.Text != "" {
		c = append(c, server.TextContent(r.Text))
	}
	if note != "" || len(c) == 0 {
		c = append(c, server.TextContent(note))
	}
	return c
}

// lineRange selects the lines of a text file to return.
type lineRange struct {
	from, to int  // 1-based and inclusive; to 0 means to the end
	tail     int  // the last tail lines instead, when > 0
	head     bool // head was asked for: stop reading at to
	numbered bool // number the lines returned (line_numbers)
}

// rangeOf returns the lines the arguments ask for.
func rangeOf(a ReadFileArgs) lineRange {
	switch {
	case a.Head > 0:
		return lineRange{from: 1, to: a.Head, head: true, numbered: a.LineNumbers}
	case a.Tail > 0:
		return lineRange{from: 1, tail: a.Tail, numbered: a.LineNumbers}
	}
	r := lineRange{from: max(a.Offset, 1), numbered: a.LineNumbers}
	if a.Limit > 0 {
		r.to = r.from + a.Limit - 1
	}
	return r
}

// whole reports whether r asks for the whole file.
func (r lineRange) whole() bool { return r.from == 1 && r.to == 0 && r.tail == 0 }

func (t *toolset) addReadFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "read_file",
		Schemas: savedSchemas("read_file"),
		Title:   "Read a file",
		Description: "Reads a text file exactly as stored, or an image or audio file (PNG, JPEG, GIF, WebP, WAV, MP3, Ogg, FLAC). " +
			"Returns at most " + descSize(t.lim.MaxReadBytes) + ", with a note on reading on." +
			mention(s, "read_multiple_files", " For several files use read_multiple_files.") + mention(s, "grep", " To find text use grep."),
		Level: security.Read,
	}, speak(func(ctx context.Context, call *server.Call, in ReadFileArgs) (ReadFileResult, error) {
		rel, err := t.sb.Resolve(in.Path)
		if err != nil {
			return ReadFileResult{}, err
		}
		return t.readFile(ctx, call, rel, rangeOf(in), t.lim.MaxReadBytes)
	}))
}

// readFile reads the file rel as read_file does, returning at most budget
// bytes of text (cut at a line end) or an image or sound of at most budget
// bytes. Before it reads, it reserves from the server's memory budget
// what it may hold, so that many large reads at once wait for each other
// rather than add up: the text (or image) and the buffer it is read
// through. The text is held once: the result shares its bytes, and the
// server escapes them straight into the output when it answers.
func (t *toolset) readFile(ctx context.Context, call *server.Call, rel string, lr lineRange, budget int64) (ReadFileResult, error) {
	f, fi, err := t.sb.OpenRead(pathArg(rel), false)
	if err != nil {
		return ReadFileResult{}, err
	}
	defer f.Close()
	fsize := fi.Size()
	if err := call.Reserve(ctx, min(max(fsize, 0), budget)+readChunk); err != nil {
		return ReadFileResult{}, err
	}
	res := ReadFileResult{Path: rel, Size: fsize}

	// A small file is read whole here; a larger one in chunks below.
	head := make([]byte, min(sniffLen, max(fsize+1, 512)))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return res, t.sb.Explain("read", rel, err)
	}
	head = head[:n]
	// The version is taken before the text is read, from the stat of the
	// open file and its first bytes: a change that comes while the text is
	// read makes it stale, and a write that passes it back is refused,
	// never taken for one made on what the model was shown.
	if res.Version, err = readVersion(f, fi, head); err != nil {
		return res, t.sb.Explain("read", rel, err)
	}
	kind, mime := sniff(head)
	switch kind {
	case kindBinary:
		return res, &binaryFileError{msgError{m: say(msgBinary, lit(quote(rel)), size(fsize))}}
	case kindImage, kindAudio:
		if !lr.whole() {
			return res, fail(msgMediaRange, lit(quote(rel)), article(kind), lit(mime))
		}
		if fsize > budget {
			return res, &tooLargeError{msgError{m: say(msgMediaTooLarge, lit(quote(rel)), article(kind), size(fsize), size(budget))}}
		}
		data, err := readUpTo(f, head, budget)
		if err != nil {
			return res, t.sb.Explain("read", rel, err)
		}
		if int64(len(data)) > budget {
			return res, fail(msgGrewWhileRead, lit(quote(rel)), size(budget))
		}
		res.Kind, res.MIMEType, res.Data, res.Size = kind.String(), mime, data, int64(len(data))
		shown, _ := displayName(rel)
		res.Note = say(msgMediaNote, lit(shown), lit(mime), size(res.Size)).In(call.Lang())
		return res, nil
	}

	var tr textRead
	if lr.tail > 0 && fsize > budget {
		tr, err = tailBackward(ctx, f, fsize, lr.tail, budget)
	} else {
		var r io.Reader // nil: head is the whole file (a short read found its end)
		if len(head) == cap(head) {
			r = io.MultiReader(bytes.NewReader(head), f)
		}
		from, to := lr.from, lr.to
		if lr.tail > 0 {
			to = 0
		}
		tr, err = scanForward(ctx, r, head, from, to, budget, lr.head, fsize)
		if err == nil && lr.tail > 0 {
			tr = tr.last(lr.tail)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, t.sb.Explain("read", rel, err)
	}
	if tr.total >= 0 && lr.from > tr.total && lr.from > 1 {
		if tr.total == 0 {
			return res, fail(msgOffsetPastEmpty, num(lr.from), lit(quote(rel)))
		}
		return res, fail(msgOffsetPastEnd, num(lr.from), lit(quote(rel)), counted(tr.total, msgLine, msgLines), num(tr.total))
	}
	res.Kind = kindText.String()
	if !utf8.Valid(tr.text) {
		// The text with U+FFFD in place of the invalid bytes is a copy,
		// a little larger.
		if err := call.Reserve(ctx, int64(len(tr.text))+16); err != nil {
			return res, err
		}
	}
	res.Text, res.ReplacedBytes = textOf(tr.text)
	res.InvalidUTF8 = res.ReplacedBytes > 0
	if lr.numbered && res.Text != "" && tr.from > 0 {
		// The numbered copy is the text again with a few bytes a line,
		// within the read limit: the lines past it are left for the next
		// read, as if the text had been cut there.
		if err := call.Reserve(ctx, min(int64(len(res.Text))+int64(tr.lines)*numberWidth(tr.to), budget+numberWidth(tr.to))); err != nil {
			return res, err
		}
		var kept int
		res.Text, kept = numberLines(res.Text, tr.from, budget)
		if kept < tr.lines {
			tr.to, tr.lines, tr.truncated, tr.partial = tr.from+kept-1, kept, true, false
		}
	}
	res.FromLine, res.ToLine, res.Lines, res.Truncated = tr.from, tr.to, tr.lines, tr.truncated
	if tr.total >= 0 {
		total := tr.total
		res.TotalLines = &total
	}
	lang := call.Lang()
	res.Note = tr.note(rel, fsize, budget).In(lang)
	if res.InvalidUTF8 {
		replaced := counted(res.ReplacedBytes, msgReplacedByte, msgReplacedBytes).In(lang)
		res.Note = strings.TrimSpace(res.Note + i18n.Pick(lang, " ", "") + replaced)
	}
	if lr.numbered && res.Text != "" && tr.from == 0 {
		res.Note = strings.TrimSpace(res.Note + i18n.Pick(lang, " ", "") + say(msgNumbersUnknown).In(lang))
	}
	return res, nil
}

// numberWidth returns the bytes numberLines puts before a line numbered
// at most last: the number, at least six columns wide, and a tab.
func numberWidth(last int) int64 { return int64(max(digits(last), 6)) + 1 }

// digits returns how many decimal digits n >= 0 has.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// numberLines returns text with each of its lines prefixed by its number,
// counting from from, right-aligned in six columns and followed by a tab,
// as cat -n writes them, and how many lines it numbered: those that fit
// in budget bytes, and the first line whatever its size. A last line
// without a line feed is numbered too.
func numberLines(text string, from int, budget int64) (string, int) {
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	out := make([]byte, 0, min(int64(len(text))+int64(lines)*numberWidth(from+lines-1), budget+numberWidth(from+lines-1)))
	n := from
	for rest := text; rest != ""; n++ {
		line, after, found := strings.Cut(rest, "\n")
		width := max(digits(n), 6) + 1 + len(line)
		if found {
			width++
		}
		if n > from && int64(len(out)+width) > budget {
			break
		}
		for pad := 6 - digits(n); pad > 0; pad-- {
			out = append(out, ' ')
		}
		out = strconv.AppendInt(out, int64(n), 10)
		out = append(out, '\t')
		out = append(out, line...)
		if found {
			out = append(out, '\n')
		}
		rest = after
	}
	// out is never written again: the text can have its bytes.
	return unsafe.String(unsafe.SliceData(out), len(out)), n - from
}

// binaryFileError is the error for a file that is neither text, an image
// nor a sound, which read_file refuses and a resource read returns as a
// blob.
type binaryFileError struct{ msgError }

func (e *binaryFileError) inLanguage(lang i18n.Lang) error {
	inLang := *e
	inLang.lang = lang
	return &inLang
}

// tooLargeError is the error for an image or sound larger than what a read
// may return.
type tooLargeError struct{ msgError }

func (e *tooLargeError) inLanguage(lang i18n.Lang) error {
	inLang := *e
	inLang.lang = lang
	return &inLang
}

// article returns "an image" or "a sound file" for a media kind.
func article(k fileKind) message {
	if k == kindImage {
		return say(msgAnImage)
	}
	return say(msgASound)
}

// readUpTo returns head followed by what is left of r, reading at most one
// byte more than budget in all so that the caller can tell it was more.
// When r is a file, the bytes go into one slice of its size (and one
// byte more, to see the end), grown only if the file grows meanwhile:
// not grown as they come, which held up to twice as much, and not copied
// once more after head.
func readUpTo(r io.Reader, head []byte, budget int64) ([]byte, error) {
	limit := budget + 1
	if int64(len(head)) >= limit {
		return head, nil
	}
	size := limit
	if st, ok := r.(interface{ Stat() (iofs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			size = min(limit, max(fi.Size(), int64(len(head)))+1)
		}
	}
	b := make([]byte, len(head), size)
	copy(b, head)
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = slices.Grow(b, int(min(limit-int64(len(b)), readChunk)))
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// textRead is the text taken from a file and what is known about it.
type textRead struct {
	text      []byte
	from, to  int  // the lines in text, 1-based; 0 when none or unknown
	lines     int  // how many lines (or parts of a line) text holds
	total     int  // lines in the file; -1 when not read to the end
	truncated bool // stopped short of the lines asked for, for the budget
	partial   bool // text is the start (or, for tail, the end) of one line longer than the budget
}

// countLines returns how many lines b holds: its line feeds, plus one for
// a last line without one.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// scanForward reads r from its start and keeps lines from..to (to 0: to the
// end), at most budget bytes of them; with r nil, whole is the file, and
// the text kept is a slice of it rather than a copy. Unless stopAtTo is
// set, it reads on to the end to count the lines; sizeHint sizes the
// buffer.
func scanForward(ctx context.Context, r io.Reader, whole []byte, from, to int, budget int64, stopAtTo bool, sizeHint int64) (textRead, error) {
	tr := textRead{total: -1}
	var out, buf []byte
	if r != nil {
		out = make([]byte, 0, max(0, min(sizeHint, budget)))
		buf = make([]byte, min(readChunk, max(sizeHint+1, 512)))
	}
	line := 1 // the line the next byte belongs to
	done, overflow, eof := false, false, false
	newlines, last, any := 0, byte(0), false
	for !eof {
		if err := ctx.Err(); err != nil {
			return tr, err
		}
		var chunk []byte
		if r == nil {
			chunk, eof = whole, true
		} else {
			n, err := io.ReadFull(r, buf)
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				eof, err = true, nil
			}
			if err != nil {
				return tr, err
			}
			chunk = buf[:n]
		}
		n := len(chunk)
		inChunk := 0 // the line feeds of the whole chunk
		if n > 0 {
			inChunk = bytes.Count(chunk, []byte{'\n'})
			newlines += inChunk
			last, any = chunk[n-1], true
		}
		for len(chunk) > 0 && !done {
			if line < from {
				if c := bytes.Count(chunk, []byte{'\n'}); line+c < from {
					line += c
					break
				}
				i := bytes.IndexByte(chunk, '\n')
				chunk = chunk[i+1:]
				line++
				continue
			}
			end, complete := len(chunk), false
			if to > 0 {
				need, pos := to-line+1, 0
				for need > 0 {
					i := bytes.IndexByte(chunk[pos:], '\n')
					if i < 0 {
						break
					}
					pos += i + 1
					need--
				}
				if need == 0 {
					end, complete = pos, true
				}
			}
			piece := chunk[:end]
			if room := budget - int64(len(out)); int64(len(piece)) > room {
				out = keep(out, piece[:room], r == nil)
				overflow, done = true, true
				break
			}
			out = keep(out, piece, r == nil)
			if len(piece) == n {
				line += inChunk // the whole chunk, counted already
			} else {
				line += bytes.Count(piece, []byte{'\n'})
			}
			chunk = chunk[end:]
			done = complete
		}
		if done && stopAtTo {
			break
		}
	}
	if eof {
		tr.total = newlines
		if any && last != '\n' {
			tr.total++
		}
	}
	if overflow {
		tr.truncated = true
		if cut := bytes.LastIndexByte(out, '\n') + 1; cut > 0 {
			out = out[:cut]
		} else {
			out = out[:runeStart(out, len(out))]
			tr.partial = true
		}
	}
	tr.text = out
	tr.lines = countLines(out)
	if tr.lines > 0 {
		tr.from, tr.to = from, from+tr.lines-1
	}
	return tr, nil
}

// keep adds piece to the text kept so far, out; when piece is a slice of
// the whole file held in memory (inMemory), the only one scanForward
// keeps, it is the text itself, not a copy.
func keep(out, piece []byte, inMemory bool) []byte {
	if inMemory {
		return piece
	}
	return append(out, piece...)
}

// last returns the last n lines of tr, which holds a whole file.
func (tr textRead) last(n int) textRead {
	text := tr.text
	end := len(text)
	if end > 0 && text[end-1] == '\n' {
		end--
	}
	start, count := 0, 0
	for pos := end; len(text) > 0; {
		i := bytes.LastIndexByte(text[:pos], '\n')
		count++
		if i < 0 || count == n {
			start = i + 1
			break
		}
		pos = i
	}
	tr.text = text[start:]
	tr.lines = count
	tr.from, tr.to = 0, 0
	if count > 0 {
		tr.from, tr.to = tr.total-count+1, tr.total
	}
	return tr
}

// tailBackward returns the last n lines of a file of size bytes, larger
// than budget, reading backwards from its end in chunks so that only what
// it returns is read. It returns as many whole lines as fit in budget;
// the line numbers stay unknown.
func tailBackward(ctx context.Context, f io.ReaderAt, size int64, n int, budget int64) (textRead, error) {
	tr := textRead{total: -1}
	searchEnd := size
	var lastByte [1]byte
	if _, err := f.ReadAt(lastByte[:], size-1); err != nil && err != io.EOF {
		return tr, err
	}
	if lastByte[0] == '\n' {
		searchEnd-- // the last line feed ends the last line; it starts none
	}
	// A line may start at floor, so look from the byte before it.
	floor := max(0, size-budget)
	scanFloor := max(0, floor-1)
	buf := make([]byte, readChunk)
	found, start, earliest := 0, int64(-1), int64(-1)
	for pos := searchEnd; pos > scanFloor && start < 0; {
		if err := ctx.Err(); err != nil {
			return tr, err
		}
		lo := max(scanFloor, pos-int64(len(buf)))
		chunk := buf[:pos-lo]
		if _, err := f.ReadAt(chunk, lo); err != nil && err != io.EOF {
			return tr, err
		}
		for j := len(chunk); ; {
			i := bytes.LastIndexByte(chunk[:j], '\n')
			if i < 0 {
				break
			}
			found++
			earliest = lo + int64(i)
			if found == n {
				start = earliest + 1
				break
			}
			j = i
		}
		pos = lo
	}
	switch {
	case start >= 0:
	case floor == 0:
		start = 0
	case earliest >= 0:
		start, tr.truncated = earliest+1, true
	default:
		start, tr.truncated, tr.partial = floor, true, true
	}
	data := make([]byte, size-start)
	if _, err := f.ReadAt(data, start); err != nil && err != io.EOF {
		return tr, err
	}
	if tr.partial {
		// Do not start inside a character.
		for i := 0; i < utf8.UTFMax-1 && i < len(data) && !utf8.RuneStart(data[i]); i++ {
			data = data[1:]
		}
	}
	tr.text, tr.lines = data, countLines(data)
	return tr, nil
}

// runeStart returns the largest i <= end at which b[:i] does not end
// inside a character: end itself, or the start of a character that
// b[:end] holds only the beginning of.
func runeStart(b []byte, end int) int {
	if end == 0 {
		return 0
	}
	s := end - 1
	for s > 0 && s > end-utf8.UTFMax && !utf8.RuneStart(b[s]) {
		s--
	}
	if !utf8.FullRune(b[s:end]) {
		return s
	}
	return end
}

// textOf returns the text of b, which the caller hands over for good:
// when it is valid UTF-8, b itself seen as a string, without a copy (which
// is sound because nothing writes to b afterwards); otherwise the copy
// validUTF8 makes, with every invalid byte replaced, and how many were.
func textOf(b []byte) (string, int) {
	if utf8.Valid(b) {
		return unsafe.String(unsafe.SliceData(b), len(b)), 0
	}
	return validUTF8(b)
}

// validUTF8 returns b as a string with every byte that is not part of a
// valid UTF-8 sequence replaced with U+FFFD, and how many were replaced.
func validUTF8(b []byte) (string, int) {
	if utf8.Valid(b) {
		return string(b), 0
	}
	var sb strings.Builder
	sb.Grow(len(b) + 16)
	bad := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			sb.WriteRune(utf8.RuneError)
			bad++
		} else {
			sb.Write(b[:size])
		}
		b = b[size:]
	}
	return sb.String(), bad
}

// note says what tr is when it is not simply the whole file, and how to
// read on.
func (tr textRead) note(rel string, n int64, budget int64) message {
	shown, _ := displayName(rel)
	name, limit := lit(shown), size(budget)
	switch {
	case n == 0 && tr.lines == 0:
		return say(msgReadEmpty, name)
	case tr.partial && tr.from == 0:
		return say(msgLastLineLong, name, limit)
	case tr.partial:
		return say(msgLineLong, num(tr.from), name, limit, num(tr.from+1))
	case tr.from == 0 && tr.lines > 0:
		s := say(msgLastLines, counted(tr.lines, msgLine, msgLines), name, size(n))
		if tr.truncated {
			s = say(msgLastLinesCut, s, limit)
		}
		return s
	case tr.lines == 0:
		return message{}
	}
	var span message
	switch {
	case tr.from == tr.to && tr.total >= 0:
		span = say(msgLineOf, num(tr.from), num(tr.total), name)
	case tr.from == tr.to:
		span = say(msgLineSpanOf, num(tr.from), name)
	case tr.total >= 0:
		span = say(msgSpanOf, num(tr.from), num(tr.to), num(tr.total), name)
	default:
		span = say(msgSpan, num(tr.from), num(tr.to), name)
	}
	switch {
	case tr.truncated:
		return say(msgReadStopped, span, num(tr.to), limit, num(tr.to+1))
	case tr.total >= 0 && tr.to < tr.total:
		return say(msgReadOn, span, num(tr.to+1))
	case tr.total < 0:
		return say(msgReadOnSize, span, size(n), num(tr.to+1))
	case tr.from > 1:
		return span
	}
	return message{} // the whole file
}
