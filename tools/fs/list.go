package fs

import (
	"cmp"
	"context"
	"encoding/base64"
	"io/fs"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/stdiotools/toolserver/internal/namesort"
	"github.com/stdiotools/toolserver/internal/ranksketch"
	"github.com/stdiotools/toolserver/internal/topk"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// ListDirectoryArgs are the arguments of list_directory.
type ListDirectoryArgs struct {
	Path   string `json:"path" chars:"path" default:"." description:"Relative to the root."`
	Sizes  bool   `json:"sizes,omitempty" description:"Also give file sizes and their total."`
	Sort   string `json:"sort" enum:"name,size,modified" default:"name" description:"name A to Z, size largest first, modified newest first."`
	Offset int    `json:"offset,omitempty" minimum:"0" description:"Entries to skip; to read on, prefer cursor."`
	Cursor string `json:"cursor,omitempty" maxLength:"2000" description:"From the previous listing's note; keep the same sort."`
}

// ListEntry is one entry of a directory.
type ListEntry struct {
	Name     string     `json:"name" description:"The entry's name."`
	Type     string     `json:"type" description:"file, dir, symlink or other (a named pipe, socket or device)."`
	Size     *int64     `json:"size,omitempty" description:"The size in bytes of a file, when sizes is set."`
	Modified *time.Time `json:"modified,omitempty" description:"When the entry was last modified, when sorting by it."`
}

// ListDirectoryResult is the result of list_directory. The listing is sent
// as compact text; the entries also as structured content.
type ListDirectoryResult struct {
	Path      string      `json:"path" description:"The directory, relative to the root."`
	Entries   []ListEntry `json:"entries" description:"The entries shown, in the order asked for."`
	Total     int         `json:"total" description:"How many entries the directory has."`
	Files     int         `json:"files" description:"How many of them are files."`
	Dirs      int         `json:"dirs" description:"How many of them are directories."`
	Symlinks  int         `json:"symlinks,omitempty" description:"How many of them are symbolic links."`
	Other     int         `json:"other,omitempty" description:"How many of them are named pipes, sockets or devices."`
	Bytes     *int64      `json:"bytes,omitempty" description:"The total size of the files, when sizes is set."`
	Truncated bool        `json:"truncated" description:"True when more entries exist than were shown."`
	Note      string      `json:"note,omitempty" description:"How to see the entries not shown."`

	rootOfSeveral bool // Path is a root of several, "notes:", which has its colon
	inLang
}

// Content returns the listing as text: one entry a line, directories
// ending in "/", symbolic links in "@", other special files in "|", then
// the totals.
func (r ListDirectoryResult) Content() []server.Content {
	var sb strings.Builder
	sb.Grow(r.textSize())
	marked := false
	for _, e := range r.Entries {
		name, escaped := displayName(e.Name)
		sb.WriteString(name)
		switch e.Type {
		case typeDir:
			sb.WriteByte('/')
		case typeSymlink:
			sb.WriteByte('@')
		case typeOther:
			sb.WriteByte('|')
		}
		if e.Size != nil {
			sb.WriteString("  ")
			sb.WriteString(strconv.FormatInt(*e.Size, 10))
		}
		if e.Modified != nil {
			sb.WriteString("  ")
			sb.WriteString(e.Modified.UTC().Format("2006-01-02 15:04:05Z"))
		}
		if escaped {
			sb.WriteString(escapedMark)
			marked = true
		}
		sb.WriteByte('\n')
	}
	if r.Total == 0 {
		sb.WriteString(say(msgDirEmpty, lit(quote(r.Path))).In(r.lang) + "\n")
	} else {
		parts := phrases{counted(r.Dirs, msgDirectory, msgDirectories), counted(r.Files, msgFile, msgFiles)}
		if r.Symlinks > 0 {
			parts = append(parts, counted(r.Symlinks, msgSymlinkAt, msgSymlinksAt))
		}
		if r.Other > 0 {
			parts = append(parts, counted(r.Other, msgSpecialAt, msgSpecialsAt))
		}
		dir, _ := displayName(r.Path)
		if !r.rootOfSeveral {
			dir += ":"
		}
		m := say(msgListSummary, lit(dir), parts)
		if r.Bytes != nil {
			m = say(msgListSummaryBytes, lit(dir), parts, size(*r.Bytes))
		}
		sb.WriteString(m.In(r.lang) + "\n")
	}
	if r.Note != "" {
		sb.WriteString(r.Note)
		sb.WriteByte('\n')
	}
	if marked {
		sb.WriteString(escapedNote(r.lang) + "\n")
	}
	return []server.Content{server.TextContent(sb.String())}
}

// textSize returns about how long the result's text is, escapes aside,
// so that it is written into one allocation.
func (r ListDirectoryResult) textSize() int {
	n := 256 + len(r.Path) + len(r.Note)
	for _, e := range r.Entries {
		n += len(e.Name) + len("/\n")
		if e.Size != nil {
			n += len("  ") + 12
		}
		if e.Modified != nil {
			n += len("  2006-01-02 15:04:05Z")
		}
	}
	return n
}

func (t *toolset) addListDirectory(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "list_directory",
		Schemas: savedSchemas("list_directory"),
		Title:   "List a directory",
		Description: "Lists one directory, an entry a line (directories end in \"/\", symbolic links in \"@\", special files in \"|\"), then counts; " +
			"at most " + strconv.Itoa(t.lim.MaxListEntries) + " entries, with a cursor for the rest." +
			mention(s, "directory_tree", " For several levels use directory_tree."),
		Level: security.Read,
	}, speak(t.listDirectory))
}

func (t *toolset) listDirectory(ctx context.Context, call *server.Call, in ListDirectoryArgs) (ListDirectoryResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return ListDirectoryResult{}, err
	}
	l := &listing{t: t, call: call, rel: rel, in: in, order: entryOrder(in.Sort)}
	var lo *ListEntry // the last entry of the page before, from the cursor
	if in.Cursor != "" {
		if in.Offset > 0 {
			return ListDirectoryResult{}, fail(msgCursorAndOffset)
		}
		e, ok := decodeListCursor(in.Cursor, in.Sort)
		if !ok {
			return ListDirectoryResult{}, fail(msgBadCursor, lit(strconv.Quote(in.Cursor)), lit(in.Sort))
		}
		lo = &e
	}
	page := t.lim.MaxListEntries
	offset := min(in.Offset, math.MaxInt-page) // offset+page never overflows
	all, err := l.entries(ctx, lo, offset, page)
	if err != nil {
		return ListDirectoryResult{}, err
	}
	res := l.res
	res.Path, res.rootOfSeveral = rel, t.sb.Multi() && t.sb.IsRoot(rel)
	skip := min(max(offset-l.below, 0), len(all)) // entries kept before the page
	start := l.below + skip
	shown := all[skip:]
	shown = shown[:min(len(shown), page)]
	var last ListEntry // the cursor's entry, with the size it was sorted by
	if len(shown) > 0 {
		last = shown[len(shown)-1]
	}
	if !in.Sizes {
		for i := range shown {
			shown[i].Size = nil
		}
	}
	if in.Sizes {
		res.Bytes = &l.bytes
	}
	res.Entries = shown
	if res.Entries == nil {
		res.Entries = []ListEntry{} // [], not null
	}
	if rest := res.Total - start - len(shown); rest > 0 {
		res.Truncated = true
		res.Note = say(msgListMore, num(start+1), num(start+len(shown)), num(res.Total), lit(in.Sort), num(rest),
			lit(encodeListCursor(last, in.Sort))).In(call.Lang())
	} else if start >= res.Total && start > 0 {
		res.Note = say(msgListPastEnd, num(in.Offset), num(res.Total)).In(call.Lang())
	} else if start > 0 {
		res.Note = say(msgListLast, num(min(start+1, res.Total)), num(res.Total), num(res.Total), lit(in.Sort)).In(call.Lang())
	}
	return res, nil
}

// entries returns, in order, the entries a page needs: those of ranks
// offset to offset+page-1 in the listing's order, counting from 0, or,
// after lo (a cursor, and offset 0), the first page entries after it;
// with, before them, those after the last entry counted in l.below.
//
// The listing holds only the page, whatever the offset and the size of
// the directory: it counts every entry, and keeps those after lo (a
// cursor's entry) up to hi, which a page after a cursor or at an offset
// up to a few pages needs, in one pass (see topk). For a page further on,
// holding every entry before it, as a listing once did, is avoided by
// reading the directory more than once: see narrow. What it holds is
// reserved from the call's memory budget.
func (l *listing) entries(ctx context.Context, lo *ListEntry, offset, page int) ([]ListEntry, error) {
	var hi *ListEntry
	k := offset + page
	if k > listKeepPages*page {
		var empty bool
		var err error
		if lo, hi, k, empty, err = l.narrow(ctx, offset, page); err != nil || empty {
			return nil, err
		}
		// What the pass keeps, bounded by narrow, is reserved before it,
		// as the sketch was.
		if err := l.hold(ctx, 2*int64(k)*l.entryBytes()); err != nil {
			return nil, err
		}
	}
	keep := topk.New(k, l.order)
	keep.Weigh = entryWeight
	if l.in.Sort == "name" {
		keep.Sort = sortByName
	}
	if err := l.pass(ctx, lo, hi, keep.Add, keep.Bytes); err != nil {
		return nil, err
	}
	return keep.Sorted(), nil
}

// listKeepPages is how many pages' worth of entries a listing keeps at
// most in its last pass (and twice that for a moment, see topk): a page
// at an offset up to three pages is read in one pass, and a bracket
// around a page further on (see narrow) must be that narrow.
const listKeepPages = 4

// listSketchMin is the least buffer of the sketch narrow uses, so that
// with a small page (a server whose limit is a few entries) the brackets
// still narrow by a large factor each pass.
const listSketchMin = 256

// listReserveStep is the least a listing reserves from the memory budget
// at a time.
const listReserveStep = 64 << 10

// listing is one call of list_directory as it reads the directory.
type listing struct {
	t     *toolset
	call  *server.Call
	rel   string
	in    ListDirectoryArgs
	order func(a, b ListEntry) int

	res      ListDirectoryResult // the counts of the latest pass
	bytes    int64               // the total size of its files
	below    int                 // its entries at or before its lo
	reserved int64               // bytes reserved from the memory budget
	passes   int                 // over the directory, so far
}

// narrow returns bounds lo and hi such that the page of the entries of
// ranks offset to offset+page-1, counting from 0, lies after lo up to hi,
// and k, the most entries after lo up to hi that the last pass must keep
// to hold that page; empty when the page is past the last entry.
//
// The last pass is the cursor's (a page after a bound), with a bound
// found by counting. Holding only a page and a bound, and reading the
// directory again for each page before, would take time in proportion to
// the offset times the directory; counting entries by the first bytes of
// their names takes few passes for most names, but a pass per byte of
// the longest shared prefix for names made to defeat it. Instead each
// pass gives every entry between the bounds so far to a ranksketch.Sketch, whose
// buffers hold a page each, and the sketch brackets the page: a directory
// of 200,000 entries takes one pass here and one to keep the page (the
// sketch's bracket around a page of 1,000 holds about 2,400 entries, and
// the sketch 9,000), and by the sketch's bounds one of a few million a
// pass more. The price is time: by name 1.1× that of one pass; by size
// or time, whose entries take a stat each pass, 1.7 to 1.9×
// (BenchmarkServeListBigFolder). The memory no longer grows with the
// offset, and as it is reserved before each pass, listings beyond the
// budget wait holding nothing: 64 at once at offsets up to 199,000 peak
// at 47 to 74 MiB where they took 0.9 to 1.7 GiB (BenchmarkListPeakRSS).
func (l *listing) narrow(ctx context.Context, offset, page int) (lo, hi *ListEntry, k int, empty bool, err error) {
	b := max(page, listSketchMin)
	for expect := offset; ; {
		// The directory has about offset entries or more (or the page
		// is empty), so the sketch will hold about as many buffers as
		// log2(offset/b), with the one filling, the one spare and the two
		// merged into. That much is reserved before the pass: a listing
		// waiting for memory half-way would hold what it had read, which
		// the budget no longer counts while it waits.
		if err := l.hold(ctx, int64(bits.Len(uint(expect/b))+4)*int64(b)*l.entryBytes()); err != nil {
			return nil, nil, 0, false, err
		}
		s := ranksketch.New(b, l.order)
		s.Weigh = entryWeight
		if l.in.Sort == "name" {
			s.Sort = sortByName
		}
		if err := l.pass(ctx, lo, hi, s.Add, s.Bytes); err != nil {
			return nil, nil, 0, false, err
		}
		from, between := offset-l.below, int(s.Count()) // the page's first rank after lo; the entries after lo up to hi
		if from >= between && hi == nil {
			l.below += between
			return lo, hi, 0, true, nil
		}
		nlo, nhi, hasLo, hasHi, most := s.Bracket(int64(from), int64(from+page))
		if hasLo {
			lo = &nlo
		}
		if hasHi {
			hi = &nhi
		}
		// The sketch narrows the entries between the bounds by a large
		// factor each pass; should it fail to halve them, the last pass
		// keeps what the page needs, however many, rather than loop. A
		// sketch of no more entries than its buffer holds would be exact,
		// and a pass for nothing: they are kept at once.
		if m := int(most); m <= max(listKeepPages*page, b) || m > between/2 {
			return lo, hi, min(m, max(from, 0)+page), false, nil
		}
		expect = int(most)
	}
}

// pass reads the directory once: it counts every entry into l.res and
// l.bytes, the entries at or before lo into l.below, and gives keep those
// after lo up to hi (either nil: no bound), reserving what held says it
// holds then.
func (l *listing) pass(ctx context.Context, lo, hi *ListEntry, keep func(ListEntry), held func() int64) error {
	l.res, l.bytes, l.below = ListDirectoryResult{}, 0, 0
	l.passes++
	in := l.in
	// Entry types come from the directory itself: only sizes and times
	// need a stat an entry.
	needInfo := in.Sizes || in.Sort != "name"
	return l.t.streamDir(ctx, l.rel, func(d fs.DirEntry) error {
		e := ListEntry{Name: d.Name(), Type: entryType(d.Type())}
		if needInfo {
			if fi, err := d.Info(); err == nil {
				e.Type = entryType(fi.Mode())
				if e.Type == typeFile && (in.Sizes || in.Sort == "size") {
					size := fi.Size()
					e.Size = &size
				}
				if in.Sort == "modified" {
					mt := fi.ModTime()
					e.Modified = &mt
				}
			}
		}
		l.res.Total++
		switch e.Type {
		case typeFile:
			l.res.Files++
			if e.Size != nil {
				l.bytes += *e.Size
			}
		case typeDir:
			l.res.Dirs++
		case typeSymlink:
			l.res.Symlinks++
		default:
			l.res.Other++
		}
		switch {
		case lo != nil && l.order(e, *lo) <= 0:
			l.below++
		case hi != nil && l.order(e, *hi) > 0:
		default:
			keep(e)
			return l.hold(ctx, held())
		}
		return nil
	})
}

// hold reserves from the call's memory budget up to n bytes, what the
// listing holds now, in steps of listReserveStep. A reservation is kept
// until the call is answered: the most a pass held is reserved.
func (l *listing) hold(ctx context.Context, n int64) error {
	if n <= l.reserved {
		return nil
	}
	more := max(n-l.reserved, listReserveStep)
	if err := l.call.Reserve(ctx, more); err != nil {
		return err
	}
	l.reserved += more
	return nil
}

// entryBytes returns about what an entry kept costs in memory: its
// ListEntry, a name of 32 bytes, and its size and time when the listing
// has them.
func (l *listing) entryBytes() int64 {
	n := int64(unsafe.Sizeof(ListEntry{})) + 32
	if l.in.Sizes || l.in.Sort == "size" {
		n += 8
	}
	if l.in.Sort == "modified" {
		n += int64(unsafe.Sizeof(time.Time{}))
	}
	return n
}

// entryWeight returns the bytes a ListEntry points to: its name, and its
// size and time when it has them.
func entryWeight(e ListEntry) int {
	n := len(e.Name)
	if e.Size != nil {
		n += 8
	}
	if e.Modified != nil {
		n += int(unsafe.Sizeof(time.Time{}))
	}
	return n
}

// sortByName sorts entries by name, as entryOrder("name") orders them,
// faster than slices.SortFunc with it (see namesort).
func sortByName(entries []ListEntry) { namesort.Sort(entries, entryName) }

// entryName returns the name of e.
func entryName(e *ListEntry) string { return e.Name }

// entryOrder returns the order of a listing: by name, by size (largest
// first) or by modification time (newest first), ties by name.
func entryOrder(by string) func(a, b ListEntry) int {
	byName := func(a, b ListEntry) int { return strings.Compare(a.Name, b.Name) }
	size := func(e ListEntry) int64 {
		if e.Size == nil {
			return -1
		}
		return *e.Size
	}
	modified := func(e ListEntry) time.Time {
		if e.Modified == nil {
			return time.Time{}
		}
		return *e.Modified
	}
	switch by {
	case "size":
		return func(a, b ListEntry) int { return cmp.Or(cmp.Compare(size(b), size(a)), byName(a, b)) }
	case "modified":
		return func(a, b ListEntry) int { return cmp.Or(modified(b).Compare(modified(a)), byName(a, b)) }
	}
	return byName
}

// encodeListCursor returns the cursor of a listing's next page: the sort
// key of the last entry shown, opaque to the model (base64url, which the
// ident class of the argument takes).
func encodeListCursor(e ListEntry, by string) string {
	key := ""
	switch by {
	case "size":
		if e.Size != nil {
			key = strconv.FormatInt(*e.Size, 10)
		} else {
			key = "-1"
		}
	case "modified":
		if e.Modified != nil {
			// Seconds and nanoseconds: UnixNano cannot hold a time before
			// 1678 or after 2262.
			key = strconv.FormatInt(e.Modified.Unix(), 10) + "." + strconv.Itoa(e.Modified.Nanosecond())
		}
	}
	return base64.RawURLEncoding.EncodeToString([]byte(by + "/" + key + "/" + e.Name))
}

// decodeListCursor reads a cursor back into the entry it stands for; a
// name cannot hold "/", so the key and the name part cleanly.
func decodeListCursor(c, by string) (ListEntry, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return ListEntry{}, false
	}
	sortBy, rest, ok1 := strings.Cut(string(b), "/")
	key, name, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 || sortBy != by || name == "" {
		return ListEntry{}, false
	}
	e := ListEntry{Name: name}
	switch by {
	case "size":
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return ListEntry{}, false
		}
		if n >= 0 {
			e.Size = &n
		}
	case "modified":
		if key != "" {
			secs, nsecs, ok := strings.Cut(key, ".")
			sec, err1 := strconv.ParseInt(secs, 10, 64)
			nsec, err2 := strconv.ParseInt(nsecs, 10, 64)
			if !ok || err1 != nil || err2 != nil || nsec < 0 || nsec >= 1e9 {
				return ListEntry{}, false
			}
			mt := time.Unix(sec, nsec)
			e.Modified = &mt
		}
	}
	return e, true
}
