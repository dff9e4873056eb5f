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
func TestReviewListCursorBySizeWithoutSizes(t *testing.T) {
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

// TestReviewListCursorPagesEveryEntryOnce: paging by modification time
// returns every entry once, also when some were modified outside the
// years a count of nanoseconds since 1970 can hold (before 1678, after
// 2262), which a copied or extracted tree may well have.
func TestReviewListCursorPagesEveryEntryOnce(t *testing.T) {
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
