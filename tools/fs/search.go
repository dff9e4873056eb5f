package fs

import (
	"cmp"
	"context"
	"io/fs"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/internal/topk"
	"github.com/stdiotools/toolserver/internal/walk"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// progressEvery is how many entries a walk visits between progress
// notifications.
const progressEvery = 1000

// SearchFilesArgs are the arguments of search_files.
type SearchFilesArgs struct {
	Path           string   `json:"path" chars:"path" default:"." description:"Relative to the root."`
	Pattern        string   `json:"pattern" chars:"glob" minLength:"1" description:"* (not /), ?, [a-z], {go,md}, ** (any directories). Without / it matches names at any depth (*.go); with /, paths below path (src/**/*.go)."`
	Exclude        []string `json:"exclude,omitempty" chars:"glob" minLength:"1" maxItems:"50" description:"Globs to skip with their contents."`
	IncludeIgnored bool     `json:"include_ignored,omitempty" description:"Also search .git and ignored files."`
	Sort           string   `json:"sort" enum:"path,modified" default:"path" description:"modified is newest first."`
}

// SearchFilesResult is the result of search_files.
type SearchFilesResult struct {
	Path            string         `json:"path" description:"The directory searched, relative to the root."`
	Pattern         string         `json:"pattern" description:"The pattern."`
	Matches         []string       `json:"matches" description:"The matching paths, relative to the root, in the order sort asks for; directories end in \"/\"."`
	Total           int            `json:"total" description:"How many entries match, shown or not."`
	Truncated       bool           `json:"truncated" description:"True when more entries match than are shown."`
	Unreadable      int            `json:"unreadable,omitempty" description:"Directories that could not be read or whose path could not be used, so were not searched."`
	StoppedAt       string         `json:"stopped_at,omitempty" description:"The entry the search stopped at, when it reached the most one call visits."`
	UnreadablePaths []SkippedEntry `json:"unreadable_paths,omitempty" description:"The first of the directories counted in unreadable, and why each was skipped."`
	Ignored         int            `json:"ignored,omitempty" description:"Entries skipped as ignored (.git, and what ignore files exclude); a directory counts once."`
	IgnoreUnapplied []SkippedEntry `json:"ignore_files_not_applied,omitempty" description:"Ignore files not applied, so what they exclude was searched, and why."`
	Note            string         `json:"note,omitempty" description:"What was left out."`

	inLang
}

// Content returns the matches one a line, then a summary.
func (r SearchFilesResult) Content() []server.Content {
	var sb strings.Builder
	marked := false
	for _, m := range r.Matches {
		shown, escaped := displayName(m)
		sb.WriteString(shown)
		if escaped {
			sb.WriteString(escapedMark)
			marked = true
		}
		sb.WriteByte('\n')
	}
	if r.Total == 0 {
		sb.WriteString(say(msgSearchNone, lit(quote(r.Path)), lit(quoteText(r.Pattern))).In(r.lang) + "\n")
	} else {
		sb.WriteString(counted(r.Total, msgSearchCountOne, msgSearchCount).In(r.lang) + "\n")
	}
	if r.Note != "" {
		sb.WriteString(r.Note + "\n")
	}
	if marked {
		sb.WriteString(escapedNote(r.lang) + "\n")
	}
	return []server.Content{server.TextContent(sb.String())}
}

func (t *toolset) addSearchFiles(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "search_files",
		Schemas: savedSchemas("search_files"),
		Title:   "Find files by name",
		Description: "Finds files and directories whose path matches a glob" + mention(s, "grep", " (to search contents use grep)") + ". " +
			"Returns root-relative paths, directories ending in \"/\", at most " + strconv.Itoa(t.lim.MaxResults) + " with a note on the rest. " + ignoreSentence,
		Level: security.Read,
	}, speak(t.searchFiles))
}

func (t *toolset) searchFiles(ctx context.Context, call *server.Call, in SearchFilesArgs) (SearchFilesResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return SearchFilesResult{}, err
	}
	g, err := newPathGlob(in.Pattern)
	if err != nil {
		return SearchFilesResult{}, fail(msgWildcards, cause{err})
	}
	exclude, err := compileGlobs(in.Exclude, "exclude")
	if err != nil {
		return SearchFilesResult{}, err
	}
	res := SearchFilesResult{Path: rel, Pattern: in.Pattern, Matches: []string{}}
	limit := t.lim.MaxResults
	// The walk comes in the file system's order; the first matches in
	// the order asked for are kept by a bounded top-k.
	first := topk.New(limit, searchOrder(in.Sort))
	visited := 0
	var skipped skipList
	ig := t.newIgnorer(in.IncludeIgnored)
	err = t.walkIgnoring(ctx, rel, ig, func(p, sub string, d fs.DirEntry, err error) error {
		if err == walk.ErrBudget {
			res.StoppedAt = p
			return nil
		}
		if err != nil {
			skipped.add(p, err)
			return nil
		}
		if visited++; visited%progressEvery == 0 {
			progress(call, visited, say(msgSearchProgress, num(visited), num(res.Total)))
		}
		if skip, err := skipExcluded(exclude, sub, d); skip {
			return err
		}
		if g.Match(sub) {
			res.Total++
			m := match{path: p}
			if d.IsDir() {
				m.path += "/"
			}
			if in.Sort == sortModified {
				// A match that went away before its stat sorts last.
				if fi, err := d.Info(); err == nil {
					m.modified = fi.ModTime().UnixNano()
				}
			}
			first.Add(m)
		}
		return nil
	})
	if err != nil {
		return SearchFilesResult{}, err
	}
	for _, m := range first.Sorted() {
		res.Matches = append(res.Matches, m.path)
	}
	var notes sentences
	if res.StoppedAt != "" {
		notes = append(notes, say(msgSearchStopped, num(t.lim.MaxWalkEntries), lit(quote(res.StoppedAt))))
	}
	if res.Total > len(res.Matches) {
		res.Truncated = true
		notes = append(notes, say(msgSearchShowing, num(len(res.Matches)), num(res.Total)))
	}
	if skipped.n > 0 {
		res.Unreadable, res.UnreadablePaths = skipped.n, skipped.first
		notes = append(notes, say(msgNotSearched, skipped.sentence()))
	}
	res.Ignored, res.IgnoreUnapplied = ig.count(), ig.unused()
	res.Note = append(notes, ig.sentence()).In(call.Lang())
	return res, nil
}

// sortModified is the sort of search_files that puts the newest first.
const sortModified = "modified"

// match is a path search_files found, and when it was last modified if
// the matches are sorted by that.
type match struct {
	path     string
	modified int64 // Unix nanoseconds
}

// searchOrder returns the order of the matches that sort asks for:
// by path, or newest first and then by path.
func searchOrder(sort string) func(a, b match) int {
	if sort == sortModified {
		return func(a, b match) int {
			if c := cmp.Compare(b.modified, a.modified); c != 0 {
				return c
			}
			return strings.Compare(a.path, b.path)
		}
	}
	return func(a, b match) int { return strings.Compare(a.path, b.path) }
}

// progress reports progress through call, if there is one, in its
// language.
func progress(call *server.Call, n int, msg message) {
	if call != nil {
		call.Progress(float64(n), 0, msg.In(call.Lang()))
	}
}
