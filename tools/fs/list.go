package fs

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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
	Offset int    `json:"offset,omitempty" minimum:"0" description:"How many entries, in that order, to skip: to see the rest of a directory longer than one listing, pass the offset the previous listing's note gives."`
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
}

// Content returns the listing as text: one entry a line, directories
// ending in "/", symbolic links in "@", other special files in "|", then
// the totals.
func (r ListDirectoryResult) Content() []server.Content {
	var sb strings.Builder
	sb.Grow(len(r.Entries) * 24)
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
		fmt.Fprintf(&sb, "%s is empty.\n", quote(r.Path))
	} else {
		parts := []string{plural(r.Dirs, "directory", "directories"), plural(r.Files, "file", "files")}
		if r.Symlinks > 0 {
			parts = append(parts, plural(r.Symlinks, "symbolic link (@)", "symbolic links (@)"))
		}
		if r.Other > 0 {
			parts = append(parts, plural(r.Other, "special file (|)", "special files (|)"))
		}
		dir, _ := displayName(r.Path)
		fmt.Fprintf(&sb, "%s: %s", dir, strings.Join(parts, ", "))
		if r.Bytes != nil {
			fmt.Fprintf(&sb, "; %s in files", byteSize(*r.Bytes))
		}
		sb.WriteString(".\n")
	}
	if r.Note != "" {
		sb.WriteString(r.Note)
		sb.WriteByte('\n')
	}
	if marked {
		sb.WriteString(escapedNote + "\n")
	}
	return []server.Content{server.TextContent(sb.String())}
}

func (t *toolset) addListDirectory(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:  "list_directory",
		Title: "List a directory",
		Description: "Lists the entries of one directory, one a line: directories end in \"/\", symbolic links in \"@\" (not followed), special files in \"|\", then the counts. " +
			"sizes adds file sizes and the total; sort orders by name, size (largest first) or modified (newest first). " +
			"Shows at most " + strconv.Itoa(t.lim.MaxListEntries) + " entries, with a note on the rest. " +
			"For several levels at once use directory_tree; to find files by name anywhere below use search_files.",
		Level: security.Read,
	}, t.listDirectory)
}

func (t *toolset) listDirectory(ctx context.Context, _ *server.Call, in ListDirectoryArgs) (ListDirectoryResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return ListDirectoryResult{}, err
	}
	ents, err := t.dirEntries(ctx, rel)
	if err != nil {
		return ListDirectoryResult{}, err
	}
	res := ListDirectoryResult{Path: rel, Total: len(ents), Entries: make([]ListEntry, 0, min(len(ents), t.lim.MaxListEntries))}
	needInfo := in.Sizes || in.Sort != "name"
	all := make([]ListEntry, len(ents))
	var total int64
	for i, d := range ents {
		e := ListEntry{Name: d.Name(), Type: entryType(d.Type())}
		if needInfo {
			if i%dirBatch == 0 {
				if err := ctx.Err(); err != nil {
					return ListDirectoryResult{}, err
				}
			}
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
		all[i] = e
	}
	sortEntries(all, in.Sort)
	if !in.Sizes {
		for i := range all {
			all[i].Size = nil
		}
	}
	if in.Sizes {
		res.Bytes = &total
	}
	start := min(in.Offset, len(all))
	shown := all[start:min(len(all), start+t.lim.MaxListEntries)]
	res.Entries = append(res.Entries, shown...)
	if rest := len(all) - start - len(shown); rest > 0 {
		res.Truncated = true
		res.Note = fmt.Sprintf("Showing entries %d to %d of %d (sorted by %s); %d more: call list_directory again with offset=%d, or narrow with search_files.",
			start+1, start+len(shown), len(all), in.Sort, rest, start+len(shown))
	} else if in.Offset >= len(all) && in.Offset > 0 {
		res.Note = fmt.Sprintf("offset %d is past the last of the %d entries; nothing more to show.", in.Offset, len(all))
	} else if start > 0 {
		res.Note = fmt.Sprintf("Showing entries %d to %d of %d (sorted by %s), the last ones.", min(start+1, len(all)), len(all), len(all), in.Sort)
	}
	return res, nil
}

// sortEntries orders entries by name (already the case), by size (largest
// first) or by modification time (newest first), ties by name.
func sortEntries(entries []ListEntry, by string) {
	size := func(e ListEntry) int64 {
		if e.Size == nil {
			return -1
		}
		return *e.Size
	}
	switch by {
	case "size":
		slices.SortStableFunc(entries, func(a, b ListEntry) int { return cmp.Compare(size(b), size(a)) })
	case "modified":
		slices.SortStableFunc(entries, func(a, b ListEntry) int {
			var ta, tb time.Time
			if a.Modified != nil {
				ta = *a.Modified
			}
			if b.Modified != nil {
				tb = *b.Modified
			}
			return tb.Compare(ta)
		})
	}
}
