package fs

import (
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/walk"
	"github.com/stdiotools/toolserver/security"
)

// skipFixture writes, on a memory env (which has no path limit), a file
// grep can read, one whose name the path tools refuse, and one below a
// folder deeper than the path limit.
func skipFixture(t *testing.T, e *env) (deepDir string) {
	e.write(t, "ok.txt", "needle\n")
	e.write(t, "bad\x07name.txt", "needle\n")
	deepDir = strings.TrimSuffix(strings.Repeat("d/", 2100), "/") // 4199 bytes
	e.write(t, deepDir+"/deep.txt", "needle\n")
	return deepDir
}

func TestGrepNamesTheEntriesItSkips(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	skipFixture(t, e)
	res := e.ok(t, "grep", `{"query":"needle"}`)
	var got GrepResult
	structured(t, res, &got)
	// The file named with a BEL is searched (its name is shown escaped);
	// the first folder whose path is too long is skipped, and named.
	if len(got.Matches) != 2 || got.Matches[0].Path != "bad\x07name.txt" || got.Matches[1].Path != "ok.txt" {
		t.Errorf("matches = %+v", got.Matches)
	}
	tooDeep := strings.Repeat("d/", walk.MaxDepth) + "d" // the first level the walk does not enter
	want := SkippedEntry{Path: tooDeep, Reason: "too_deep"}
	if got.Unreadable != 1 || len(got.UnreadablePaths) != 1 || got.UnreadablePaths[0] != want {
		t.Errorf("unreadable = %d, %+v; want 1, %+v", got.Unreadable, got.UnreadablePaths, want)
	}
	wantContains(t, text(res), `Skipped 1 entry that could not be read: "d/d/d/`, `d/d/d" (too deep).`)
}

func TestSearchFilesNamesTheFoldersItSkips(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	skipFixture(t, e)
	res := e.ok(t, "search_files", `{"pattern":"*.txt"}`)
	var got SearchFilesResult
	structured(t, res, &got)
	tooDeep := strings.Repeat("d/", walk.MaxDepth) + "d"
	if got.Unreadable != 1 || len(got.UnreadablePaths) != 1 || got.UnreadablePaths[0] != (SkippedEntry{Path: tooDeep, Reason: "too_deep"}) {
		t.Errorf("unreadable = %d, %+v", got.Unreadable, got.UnreadablePaths)
	}
	wantContains(t, text(res), `Skipped 1 entry that could not be read: "d/d/d/`, `d/d/d" (too deep). What they hold was not searched.`)
}

func TestGrepCountsTheSkippedEntriesPastThoseItNames(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	long := strings.Repeat("n", security.DefaultMaxNameBytes) // with the number, over the limit of a name
	for i := range maxSkippedNamed + 3 {
		e.write(t, long+itoa(100+i), "x\n")
	}
	res := e.ok(t, "grep", `{"query":"x"}`)
	var got GrepResult
	structured(t, res, &got)
	if got.Unreadable != maxSkippedNamed+3 || len(got.UnreadablePaths) != maxSkippedNamed {
		t.Errorf("unreadable = %d, %d named", got.Unreadable, len(got.UnreadablePaths))
	}
	wantContains(t, text(res), `Skipped 13 entries that could not be read: "nnnnnnnnnn`, `nnn100" (name too long), "nnnnnnnnnn`,
		`nnn109" (name too long) and 3 more.`)
}

// TestSearchesStopAtTheEntryBudgetAndSayWhere: past MaxWalkEntries, grep
// and search_files stop, name the entry they stopped at, and say how to
// go on.
func TestSearchesStopAtTheEntryBudgetAndSayWhere(t *testing.T) {
	e := newMemEnv(t, security.Limits{MaxWalkEntries: 5})
	for i := range 8 {
		e.write(t, "d/f"+itoa(i)+".txt", "needle\n")
	}
	res := e.ok(t, "grep", `{"query":"needle"}`)
	var g GrepResult
	structured(t, res, &g)
	if g.StoppedAt == "" || g.FilesSearched != 4 {
		t.Errorf("grep: stopped at %q after %d files", g.StoppedAt, g.FilesSearched)
	}
	wantContains(t, text(res), "Stopped after visiting 5 entries, the most one search visits, at ", ": narrow the path or glob to search the rest.")
	res = e.ok(t, "search_files", `{"pattern":"**/*.txt"}`)
	var s SearchFilesResult
	structured(t, res, &s)
	if s.StoppedAt == "" || s.Total != 4 {
		t.Errorf("search_files: stopped at %q after %d matches", s.StoppedAt, s.Total)
	}
	wantContains(t, text(res), "Stopped after visiting 5 entries")
}
