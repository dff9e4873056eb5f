package fs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestGrepShowsContextLinesAroundMatches(t *testing.T) {
	cases := []struct {
		name, file, args, want string
	}{
		{"lines before and after, cut at the file's ends",
			"a\nhit 1\nb\nc\nd\ne\nhit 2\n", `{"path":"f.txt","query":"hit","context":1}`,
			"f.txt-1-a\nf.txt:2:hit 1\nf.txt-3-b\n--\nf.txt-6-e\nf.txt:7:hit 2\n"},
		{"groups that touch are not set apart, and no line is shown twice",
			"a\nhit 1\nb\nhit 2\nc\n", `{"path":"f.txt","query":"hit","context":2}`,
			"f.txt-1-a\nf.txt:2:hit 1\nf.txt-3-b\nf.txt:4:hit 2\nf.txt-5-c\n"},
		{"groups just next to each other are not set apart",
			"hit 1\na\nb\nhit 2\n", `{"path":"f.txt","query":"hit","context":1}`,
			"f.txt:1:hit 1\nf.txt-2-a\nf.txt-3-b\nf.txt:4:hit 2\n"},
		{"without context, matches come alone and unseparated",
			"hit 1\na\nhit 2\n", `{"path":"f.txt","query":"hit"}`,
			"f.txt:1:hit 1\nf.txt:3:hit 2\n"},
		{"CRLF endings are left out of context lines too",
			"a\r\nhit\r\nb\r\n", `{"path":"f.txt","query":"hit","context":3}`,
			"f.txt-1-a\nf.txt:2:hit\nf.txt-3-b\n"},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.write(t, "f.txt", c.file)
				res := e.ok(t, "grep", c.args)
				if got := text(res); !strings.HasPrefix(got, c.want) {
					t.Fatalf("text:\n%s\nwant it to start with\n%s", got, c.want)
				}
			})
		}
	})
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "f.txt", "a\nhit 1\nb\nhit 2\nc\nd\n")
		var got GrepResult
		structured(t, e.ok(t, "grep", `{"path":"f.txt","query":"hit","context":1}`), &got)
		want := []GrepMatch{
			{Path: "f.txt", Line: 2, Text: "hit 1", Before: []string{"a"}, After: []string{"b"}},
			{Path: "f.txt", Line: 4, Text: "hit 2", After: []string{"c"}},
		}
		if fmt.Sprint(got.Matches) != fmt.Sprint(want) {
			t.Fatalf("matches %+v, want %+v", got.Matches, want)
		}
		msg := e.fail(t, "grep", `{"query":"hit","context":11}`)
		wantContains(t, msg, `"context"`)
	})
}

func TestGrepOutputFilesAndCounts(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "b.txt", "hit\nhit\nmiss\nhit\n")
		e.write(t, "a.txt", "hit\n")
		e.write(t, "c.txt", "miss\n")
		e.write(t, "d/e.txt", "x hit x hit\n") // one line, two matches: one line counted
		var files GrepResult
		res := e.ok(t, "grep", `{"query":"hit","output":"files"}`)
		structured(t, res, &files)
		if fmt.Sprint(files.Files) != "[{a.txt 0} {b.txt 0} {d/e.txt 0}]" || len(files.Matches) != 0 {
			t.Errorf("files: %+v, matches %+v", files.Files, files.Matches)
		}
		wantContains(t, text(res), "a.txt\nb.txt\nd/e.txt\n3 files with a match (4 files searched).")
		var counts GrepResult
		res = e.ok(t, "grep", `{"query":"hit","output":"counts"}`)
		structured(t, res, &counts)
		if fmt.Sprint(counts.Files) != "[{a.txt 1} {b.txt 3} {d/e.txt 1}]" {
			t.Errorf("counts: %+v", counts.Files)
		}
		wantContains(t, text(res), "a.txt:1\nb.txt:3\nd/e.txt:1\n5 matching lines in 3 files (4 files searched).")
		res = e.ok(t, "grep", `{"query":"nothing","output":"counts"}`)
		wantContains(t, text(res), "No line matches in 4 files searched.")
		wantContains(t, e.fail(t, "grep", `{"query":"hit","output":"paths"}`), `"output"`)
	})
}

// pages follows grep's cursor from the first page to the last, and
// returns every result, each as one string.
func pages(t *testing.T, e *env, args string) (all []string, calls int) {
	t.Helper()
	cursor := ""
	for calls = 1; calls < 1000; calls++ {
		a := args
		if cursor != "" {
			a = strings.TrimSuffix(args, "}") + fmt.Sprintf(`,"cursor":%q}`, cursor)
		}
		var got GrepResult
		structured(t, e.ok(t, "grep", a), &got)
		for _, m := range got.Matches {
			all = append(all, fmt.Sprintf("%s:%d", m.Path, m.Line))
		}
		for _, f := range got.Files {
			all = append(all, fmt.Sprintf("%s=%d", f.Path, f.Count))
		}
		if got.Truncated != (got.NextCursor != "") {
			t.Fatalf("truncated %v with next_cursor %q", got.Truncated, got.NextCursor)
		}
		if got.NextCursor == "" {
			return all, calls
		}
		cursor = got.NextCursor
	}
	t.Fatal("the cursor never ended")
	return nil, 0
}

func TestGrepCursorPagesThroughEveryResultOnceInOrder(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		var wantLines, wantFiles []string
		// Names whose walk order differs from their sorted order: the
		// results must come sorted whatever order the files are found in,
		// and folders the walk leaves unread (before the cursor, or after
		// the results kept) hold none of them.
		for i, name := range []string{"z.txt", "a/b.txt", "a.txt", "m/n/o.txt", "a-b.txt", "k.txt",
			"a/c/d.txt", "a-b/x.txt", "a.b/y.txt", "m/n/p/q.txt", "b/c.txt", "m/a.txt"} {
			var sb strings.Builder
			n := 0
			for line := 1; line <= 7; line++ {
				if (line+i)%2 == 0 {
					sb.WriteString("hit\n")
					n++
				} else {
					sb.WriteString("other\n")
				}
			}
			e.write(t, name, sb.String())
			for line := 1; line <= 7; line++ {
				if (line+i)%2 == 0 {
					wantLines = append(wantLines, fmt.Sprintf("%s:%d", name, line))
				}
			}
			wantFiles = append(wantFiles, fmt.Sprintf("%s=%d", name, n))
		}
		byPath := func(a, b string) int {
			pa, la, _ := strings.Cut(a, ":")
			pb, lb, _ := strings.Cut(b, ":")
			if c := strings.Compare(pa, pb); c != 0 {
				return c
			}
			return len(la)*100 + strings.Compare(la, lb) - len(lb)*100
		}
		slices.SortFunc(wantLines, byPath)
		slices.Sort(wantFiles)
		for _, limit := range []int{1, 2, 3, 5, 100} {
			got, calls := pages(t, e, fmt.Sprintf(`{"query":"hit","max_results":%d}`, limit))
			if !slices.Equal(got, wantLines) {
				t.Fatalf("max_results %d: paged lines\n%v\nwant\n%v", limit, got, wantLines)
			}
			if want := (len(wantLines)+limit-1)/limit + 1; limit < len(wantLines) && calls > want {
				t.Errorf("max_results %d: %d calls for %d lines", limit, calls, len(wantLines))
			}
			got, _ = pages(t, e, fmt.Sprintf(`{"query":"hit","output":"counts","max_results":%d}`, limit))
			if !slices.Equal(got, wantFiles) {
				t.Fatalf("max_results %d: paged counts\n%v\nwant\n%v", limit, got, wantFiles)
			}
		}
		got, _ := pages(t, e, `{"query":"hit","max_results":2,"context":1}`)
		if !slices.Equal(got, wantLines) {
			t.Fatalf("with context: paged lines\n%v\nwant\n%v", got, wantLines)
		}
	})
}

func TestGrepRefusesACursorItDidNotGive(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "f.txt", "hit\nhit\n")
		var got GrepResult
		structured(t, e.ok(t, "grep", `{"query":"hit","max_results":1}`), &got)
		if got.NextCursor == "" {
			t.Fatal("no cursor")
		}
		for _, c := range []struct{ args, want string }{
			{`{"query":"hit","output":"files","cursor":"` + got.NextCursor + `"}`, "was not given by a grep with output files"},
			{`{"query":"hit","cursor":"!!"}`, `"cursor": character '!' at position 1 is not allowed`},
			{`{"query":"hit","cursor":"bm9wZQ"}`, `cursor "bm9wZQ" was not given by a grep with output lines; pass the next_cursor of the previous grep unchanged`},
			{`{"query":"hit","cursor":"` + encodeGrepCursor(grepPos{"f.txt", 0}, grepLines) + `"}`, "was not given"},
			{`{"query":"hit","output":"counts","cursor":"` + encodeGrepCursor(grepPos{"f.txt", 2}, grepCounts) + `"}`, "was not given"},
			{`{"query":"hit","cursor":"` + encodeGrepCursor(grepPos{"", 2}, grepLines) + `"}`, "was not given"},
		} {
			wantContains(t, e.fail(t, "grep", c.args), c.want)
		}
	})
}

func FuzzDecodeGrepCursor(f *testing.F) {
	f.Add(encodeGrepCursor(grepPos{"a/b.txt", 3}, grepLines), grepLines)
	f.Add(encodeGrepCursor(grepPos{path: "x"}, grepFiles), grepFiles)
	f.Add("", grepCounts)
	f.Fuzz(func(t *testing.T, c, output string) {
		pos, ok := decodeGrepCursor(c, output)
		if !ok {
			return
		}
		if pos.path == "" || pos.line < 0 || (output == grepLines) != (pos.line > 0) {
			t.Fatalf("decoded %+v from %q", pos, c)
		}
		if again, ok := decodeGrepCursor(encodeGrepCursor(pos, output), output); !ok || again != pos {
			t.Fatalf("round trip of %+v gave %+v, %v", pos, again, ok)
		}
	})
}

func TestGrepContextCountsAgainstMaxResults(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		var sb strings.Builder
		for i := range 40 {
			fmt.Fprintf(&sb, "hit %d\n", i)
			for range 4 {
				sb.WriteString("filler\n")
			}
		}
		e.write(t, "f.txt", sb.String())
		// context 2: five lines a match, so 20 lines hold 4 matches.
		var got GrepResult
		structured(t, e.ok(t, "grep", `{"query":"hit","context":2,"max_results":20}`), &got)
		lines := 0
		for _, m := range got.Matches {
			lines += 1 + len(m.Before) + len(m.After)
		}
		if len(got.Matches) != 4 || lines > 20 || got.NextCursor == "" {
			t.Fatalf("%d matches, %d lines, next_cursor %q; want 4 matches in at most 20 lines, and a cursor", len(got.Matches), lines, got.NextCursor)
		}
		// A context larger than max_results still shows one match a page.
		structured(t, e.ok(t, "grep", `{"query":"hit","context":10,"max_results":3}`), &got)
		if len(got.Matches) != 1 {
			t.Fatalf("%d matches", len(got.Matches))
		}
	})
}

func TestGrepShowsNoLineTwiceAcrossPages(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "f.txt", "x\nhit 1\na\nhit 2\ny\n")
		var first, second GrepResult
		structured(t, e.ok(t, "grep", `{"query":"hit","context":2,"max_results":5}`), &first)
		if len(first.Matches) != 1 || first.NextCursor == "" {
			t.Fatalf("first page: %+v", first)
		}
		res := e.ok(t, "grep", `{"query":"hit","context":2,"max_results":5,"cursor":"`+first.NextCursor+`"}`)
		structured(t, res, &second)
		want := []GrepMatch{{Path: "f.txt", Line: 4, Text: "hit 2", After: []string{"y"}}}
		if fmt.Sprint(second.Matches) != fmt.Sprint(want) {
			t.Fatalf("second page %+v, want %+v (line 3 was shown after hit 1, and hit 1 is no context)", second.Matches, want)
		}
	})
}

func TestGrepGivesNoCursorAfterStoppingEarly(t *testing.T) {
	bothFS(t, security.Limits{MaxWalkEntries: 4}, func(t *testing.T, e *env) {
		for _, name := range []string{"b1.txt", "b2.txt", "b3.txt", "a/x.txt", "a/y.txt"} {
			e.write(t, name, "hit\n")
		}
		var got GrepResult
		res := e.ok(t, "grep", `{"query":"hit","max_results":2}`)
		structured(t, res, &got)
		// Files not reached may sort before the results kept: a cursor
		// would skip them for good.
		if got.StoppedAt == "" || !got.Truncated || got.NextCursor != "" {
			t.Fatalf("stopped_at %q, truncated %v, next_cursor %q", got.StoppedAt, got.Truncated, got.NextCursor)
		}
		if strings.Contains(text(res), "cursor") {
			t.Errorf("the note offers a cursor: %s", text(res))
		}
	})
}
