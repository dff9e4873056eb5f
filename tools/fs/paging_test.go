package fs

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

var cursorRE = regexp.MustCompile(`cursor=([A-Za-z0-9_-]+) `)

// pageAll pages through dir with the cursor of each note and returns the
// names in the order shown.
func pageAll(t *testing.T, e *env, dir, sort string) []string {
	t.Helper()
	var names []string
	cursor := ""
	for range 100 {
		a := fmt.Sprintf(`{"path":%q,"sort":%q,"cursor":%q}`, dir, sort, cursor)
		if cursor == "" {
			a = fmt.Sprintf(`{"path":%q,"sort":%q}`, dir, sort)
		}
		var got ListDirectoryResult
		structured(t, e.ok(t, "list_directory", a), &got)
		for _, en := range got.Entries {
			names = append(names, en.Name)
		}
		if !got.Truncated {
			return names
		}
		m := cursorRE.FindStringSubmatch(got.Note)
		if m == nil {
			t.Fatalf("no cursor in %q", got.Note)
		}
		cursor = m[1]
	}
	t.Fatal("too many pages")
	return nil
}

// TestReviewListCursorBySizeWithoutSizes: paging by size when sizes is
// not asked for returns every entry once. The cursor was made from the
// last entry after its size had been cleared for the output, so the next
// page started after every file and came back empty.
func TestListCursorBySizeWithoutSizes(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 2}, func(t *testing.T, e *env) {
		for i, c := range []string{"x", "x", "xx", "", "xxx", "x"} {
			e.write(t, fmt.Sprintf("d/f%d", i), c)
		}
		e.mkdir(t, "d/sub")
		names := pageAll(t, e, "d", "size")
		want := []string{"f4", "f2", "f0", "f1", "f5", "f3", "sub"}
		if fmt.Sprint(names) != fmt.Sprint(want) {
			t.Errorf("paged %v, want %v", names, want)
		}
	})
}

// TestListBySizePagesEveryEmptyFile: a listing by size with many empty
// files lists each of them once, page after page, by cursor and by
// offset, with sizes shown or not. A cursor made at an empty file carries
// the size 0, which must read back as 0, not as the -1 of a directory
// (the entries of size 0 after it would then all sort before it, and be
// skipped).
func TestListBySizePagesEveryEmptyFile(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 2}, func(t *testing.T, e *env) {
		want := []string{"big", "mid"}
		e.write(t, "d/big", "xxx")
		e.write(t, "d/mid", "xx")
		for i := range 12 {
			name := fmt.Sprintf("e%02d", i)
			e.write(t, "d/"+name, "")
			want = append(want, name)
		}
		e.mkdir(t, "d/sub")
		want = append(want, "sub")
		if got := pageAll(t, e, "d", "size"); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("paged by cursor %v, want %v", got, want)
		}
		for _, sizes := range []bool{false, true} {
			var got []string
			for offset := 0; offset < len(want)+2; offset += 2 {
				var res ListDirectoryResult
				structured(t, e.ok(t, "list_directory", fmt.Sprintf(`{"path":"d","sort":"size","sizes":%v,"offset":%d}`, sizes, offset)), &res)
				for _, en := range res.Entries {
					got = append(got, en.Name)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("sizes %v: paged by offset %v, want %v", sizes, got, want)
			}
		}
	})
}

// TestReviewListCursorPagesEveryEntryOnce: paging by modification time
// returns every entry once, also when some were modified outside the
// years a count of nanoseconds since 1970 can hold (before 1678, after
// 2262), which a copied or extracted tree may well have.
func TestListCursorPagesEveryEntryOnce(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 2}, func(t *testing.T, e *env) {
		times := []time.Time{
			time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
			time.Date(1601, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
		}
		for i, mt := range times {
			name := fmt.Sprintf("d/f%d", i)
			e.write(t, name, "x")
			if err := e.fs.Chtimes(name, mt, mt); err != nil {
				t.Skip(err)
			}
		}
		for _, sort := range []string{"name", "modified"} {
			names := pageAll(t, e, "d", sort)
			seen := map[string]int{}
			for _, n := range names {
				seen[n]++
			}
			if len(names) != len(times) || len(seen) != len(times) {
				t.Errorf("sort %s: paged %v, want each of %d entries once", sort, names, len(times))
			}
		}
	})
}

// TestReviewDryRunsApplyTheRuleForNewNames: a dry run says what the call
// would do; for a name the rule for new names refuses, the call fails, so
// the dry run must too, and no confirmation is asked for a change that
// cannot happen.
func TestDryRunsApplyTheRuleForNewNames(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "README.md", "readme")
		e.mkdir(t, "dir")
		for _, c := range []struct{ tool, args string }{
			{"write_file", `{"path":"Readme.md","content":"x","dry_run":true}`},
			{"create_directory", `{"path":"Readme.md/sub","dry_run":true}`},
			{"copy_file", `{"source":"dir","destination":"readme.MD","dry_run":true}`},
		} {
			msg := e.fail(t, c.tool, c.args)
			wantContains(t, msg, `differs only in case or Unicode form`)
		}
	})
}

// TestReviewListHugeOffset: an offset near the largest int made the size
// of the kept page overflow to a negative number, so nothing was kept and
// the note promised entries 1 to 0 and a cursor that names no entry
// (before, the empty page was indexed and the call panicked).
func TestListHugeOffset(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 2}, func(t *testing.T, e *env) {
		for _, n := range []string{"d/a", "d/b", "d/c"} {
			e.write(t, n, "")
		}
		res := e.ok(t, "list_directory", `{"path":"d","offset":9223372036854775807}`)
		wantContains(t, text(res), "is past the last of the 3 entries; nothing more to show.")
	})
}
