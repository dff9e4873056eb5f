package fs

import (
	"fmt"
	"regexp"
	"testing"

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
