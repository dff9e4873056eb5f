package fs

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

// TestGrepGivesACursorPastAFolderItLeftUnread: a page that holds exactly
// max_results results, with a folder sorting after them left unread, still
// says more may follow, in every output mode (found in review: the folder's
// match was lost, with no cursor).
func TestGrepGivesACursorPastAFolderItLeftUnread(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "a.txt", "hit\nhit\n")
		e.write(t, "b/c.txt", "hit\n")
		for _, args := range []string{
			`{"query":"hit","max_results":2}`,
			`{"query":"hit","output":"files","max_results":1}`,
			`{"query":"hit","output":"counts","max_results":1}`,
		} {
			var got GrepResult
			structured(t, e.ok(t, "grep", args), &got)
			if !got.Truncated || got.NextCursor == "" {
				t.Errorf("%s: b/c.txt holds a match, yet truncated=%v next_cursor=%q", args, got.Truncated, got.NextCursor)
			}
		}
	})
}

// TestGrepGivesNoCursorWhenNothingMoreMatches: exactly max_results
// matches, and a later file without one, is a whole answer, not a page
// whose cursor leads nowhere.
func TestGrepGivesNoCursorWhenNothingMoreMatches(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "a.txt", "hit\nhit\n")
		e.write(t, "b.txt", "nothing\n")
		e.write(t, "c/d.txt", "nothing\n")
		var got GrepResult
		structured(t, e.ok(t, "grep", `{"query":"hit","max_results":2}`), &got)
		if got.Truncated || got.NextCursor != "" {
			t.Errorf("only 2 matches in all, yet truncated=%v with cursor %q", got.Truncated, got.NextCursor)
		}
	})
}

// TestGrepPagesRandomTreesOnceInOrder pages through 300 random trees whose
// names sort around '/' ('-', '.', ' ' and '0' against it), nested one
// to three folders deep, in every output mode and with context: every
// result comes once, in path and line order, whatever folders the search
// leaves unread on the way.
func TestGrepPagesRandomTreesOnceInOrder(t *testing.T) {
	names := []string{"a", "a-b", "a.b", "a b", "b", "m", "z", "a0"}
	for seed := range int64(300) {
		r := rand.New(rand.NewSource(seed))
		e := newMemEnv(t, security.Limits{})
		var files, wantLines, wantFiles []string
		for range 2 + r.Intn(8) {
			parts := make([]string, 1+r.Intn(3))
			for j := range parts {
				parts[j] = names[r.Intn(len(names))]
			}
			dir := strings.Join(parts, "/")
			if slices.ContainsFunc(files, func(f string) bool {
				d := strings.TrimSuffix(f, ".txt")
				return d == dir || strings.HasPrefix(d, dir+"/") || strings.HasPrefix(dir, d+"/")
			}) {
				continue // a folder cannot have a file's name
			}
			name := dir + ".txt"
			files = append(files, name)
			var sb strings.Builder
			n := 0
			for line := 1; line <= 4; line++ {
				if r.Intn(2) == 0 {
					sb.WriteString("hit\n")
					n++
					wantLines = append(wantLines, fmt.Sprintf("%s:%d", name, line))
				} else {
					sb.WriteString("x\n")
				}
			}
			e.write(t, name, sb.String())
			if n > 0 {
				wantFiles = append(wantFiles, fmt.Sprintf("%s=%d", name, n))
			}
		}
		slices.SortFunc(wantLines, func(a, b string) int {
			pa, la, _ := strings.Cut(a, ":")
			pb, lb, _ := strings.Cut(b, ":")
			return cmp.Or(strings.Compare(pa, pb), strings.Compare(la, lb))
		})
		slices.Sort(wantFiles)
		for limit := 1; limit <= 6; limit++ {
			for _, c := range []struct {
				args string
				want []string
			}{
				{fmt.Sprintf(`{"query":"hit","max_results":%d}`, limit), wantLines},
				{fmt.Sprintf(`{"query":"hit","max_results":%d,"context":1}`, limit*3), wantLines},
				{fmt.Sprintf(`{"query":"hit","output":"counts","max_results":%d}`, limit), wantFiles},
			} {
				if got, _ := pages(t, e, c.args); !slices.Equal(got, c.want) {
					t.Fatalf("seed %d, %s:\n got %v\nwant %v", seed, c.args, got, c.want)
				}
			}
			if got, _ := pages(t, e, fmt.Sprintf(`{"query":"hit","output":"files","max_results":%d}`, limit)); len(got) != len(wantFiles) {
				t.Fatalf("seed %d, files, max_results %d: got %v, want %v", seed, limit, got, wantFiles)
			}
		}
	}
}
