package fs

import (
	"cmp"
	"context"
	"encoding/base64"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// ListDirectoryArgs are the arguments of list_directory.
type ListDirectoryArgs struct {
	Path   string `json:"path" chars:"path" default:"." description:"The directory to list, relative to the root; \".\" is the root."`
	Sizes  bool   `json:"sizes,omitempty" description:"Also give each file's size in bytes, and the total."`
	Sort   string `json:"sort" enum:"name,size,modified" default:"name" description:"The order: name (A to Z), size (largest first) or modified (newest first)."`
	Offset int    `json:"offset,omitempty" minimum:"0" description:"How many entries, in that order, to skip. To see the rest of a directory longer than one listing, prefer the cursor the previous listing's note gives."`
	Cursor string `json:"cursor,omitempty" maxLength:"2000" description:"Where the page starts: the cursor the previous listing's note gives, passed unchanged with the same sort."`
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
		sb.WriteString(say(msgDirEmpty, lit(quote(r.Path))).in(r.lang) + "\n")
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
		sb.WriteString(m.in(r.lang) + "\n")
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
		Description: "Lists the entries of one directory, one a line: directories end in \"/\", symbolic links in \"@\" (not followed), special files in \"|\", then the counts. " +
			"sizes adds file sizes and the total; sort orders by name, size (largest first) or modified (newest first). " +
			"Shows at most " + strconv.Itoa(t.lim.MaxListEntries) + " entries, with a note on the rest. " +
			"For several levels at once use directory_tree; to find files by name anywhere below use search_files.",
		Level: security.Read,
	}, speak(t.listDirectory))
}

func (t *toolset) listDirectory(ctx context.Context, call *server.Call, in ListDirectoryArgs) (ListDirectoryResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return ListDirectoryResult{}, err
	}
	order := entryOrder(in.Sort)
	var after *ListEntry // the last entry of the page before, from the cursor
	if in.Cursor != "" {
		if in.Offset > 0 {
			return ListDirectoryResult{}, fail(msgCursorAndOffset)
		}
		e, ok := decodeListCursor(in.Cursor, in.Sort)
		if !ok {
			return ListDirectoryResult{}, fail(msgBadCursor, lit(strconv.Quote(in.Cursor)), lit(in.Sort))
		}
		after = &e
	}
	// One pass over the directory, holding only the page: the counts of
	// every entry, and the entries of the page (see topK). A page after a
	// cursor costs memory in proportion to the page; one after an offset,
	// to the offset and the page. Entry types come from the directory
	// itself: only sizes and times need a stat an entry.
	page := t.lim.MaxListEntries
	keep := newTopK(min(in.Offset, math.MaxInt-page)+page, order) // never overflows
	if in.Sort == "name" {
		keep.sort = sortByName
	}
	res := ListDirectoryResult{Path: rel, rootOfSeveral: t.sb.Multi() && t.sb.IsRoot(rel)}
	needInfo := in.Sizes || in.Sort != "name"
	var total int64
	before := 0 // entries at or before the cursor
	err = t.streamDir(ctx, rel, func(d fs.DirEntry) error {
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
		res.Total++
		switch e.Type {
		case typeFile:
			res.Files++
			if e.Size != nil {
				total += *e.Size
			}
		case typeDir:
			res.Dirs++
		case typeSymlink:
			res.Symlinks++
		default:
			res.Other++
		}
		if after != nil && order(e, *after) <= 0 {
			before++
			return nil
		}
		keep.add(e)
		return nil
	})
	if err != nil {
		return ListDirectoryResult{}, err
	}
	all := keep.sorted()
	start := before + min(in.Offset, len(all))
	shown := all[min(in.Offset, len(all)):]
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
		res.Bytes = &total
	}
	res.Entries = shown
	if res.Entries == nil {
		res.Entries = []ListEntry{} // [], not null
	}
	if rest := res.Total - start - len(shown); rest > 0 {
		res.Truncated = true
		res.Note = say(msgListMore, num(start+1), num(start+len(shown)), num(res.Total), lit(in.Sort), num(rest),
			lit(encodeListCursor(last, in.Sort))).in(call.Lang())
	} else if start >= res.Total && start > 0 {
		res.Note = say(msgListPastEnd, num(in.Offset), num(res.Total)).in(call.Lang())
	} else if start > 0 {
		res.Note = say(msgListLast, num(min(start+1, res.Total)), num(res.Total), num(res.Total), lit(in.Sort)).in(call.Lang())
	}
	return res, nil
}

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
