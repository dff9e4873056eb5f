package fs

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// projectFixture writes a small project tree.
func projectFixture(t *testing.T, e *env) {
	for _, f := range []string{
		"src/main.go", "src/main_test.go", "src/lib/util.go", "src/lib/util_test.go",
		"docs/readme.md", "docs/img/logo.png", "node_modules/x/index.js", "README.md", ".git/config",
	} {
		e.write(t, f, "content of "+f+"\n")
	}
}

func TestSearchFiles(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		want  []string
		total int
		note  string
		err   string
	}{
		{name: "a pattern without a slash matches names at any depth",
			args: `{"pattern":"*.go"}`, want: []string{"src/lib/util.go", "src/lib/util_test.go", "src/main.go", "src/main_test.go"}},
		{name: "a double star pattern matches below a directory",
			args: `{"pattern":"src/**/*_test.go"}`, want: []string{"src/lib/util_test.go", "src/main_test.go"}},
		{name: "a leading double star matches at the top too",
			args: `{"pattern":"**/*.md"}`, want: []string{"README.md", "docs/readme.md"}},
		{name: "braces match either extension",
			args: `{"pattern":"*.{md,png}"}`, want: []string{"README.md", "docs/img/logo.png", "docs/readme.md"}},
		{name: "directories match and end in a slash",
			args: `{"pattern":"lib"}`, want: []string{"src/lib/"}},
		{name: "the pattern is matched below path and results stay root-relative",
			args: `{"path":"src","pattern":"lib/*_test.go"}`, want: []string{"src/lib/util_test.go"}},
		{name: "exclude leaves out a directory and what it holds",
			args: `{"pattern":"*.js","exclude":["node_modules"]}`, want: []string{}},
		{name: "exclude takes several patterns",
			args: `{"pattern":"*","exclude":["src","docs","node_modules",".git"]}`, want: []string{"README.md"}},
		{name: "a character class and a question mark",
			args: `{"pattern":"[mu]*_tes?.go"}`, want: []string{"src/lib/util_test.go", "src/main_test.go"}},
		{name: "nothing matching is not an error",
			args: `{"pattern":"*.rs"}`, want: []string{}, note: `Nothing below "." matches "*.rs".`},
		{name: "a malformed pattern is a clear error",
			args: `{"pattern":"src/[a-"}`, err: `the pattern "src/[a-" is malformed: '[' at character 5 is never closed by ']'`},
		{name: "a malformed exclude is a clear error",
			args: `{"pattern":"*","exclude":["{a"]}`, err: `exclude: the pattern "{a" is malformed`},
		{name: "a file as path is an error",
			args: `{"path":"README.md","pattern":"*"}`, err: `"README.md" is a file, not a directory`},
		{name: "a missing path is an error",
			args: `{"path":"nope","pattern":"*"}`, err: `"nope" does not exist`},
		{name: "an empty pattern is refused",
			args: `{"pattern":""}`, err: `"pattern"`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		projectFixture(t, e)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.call(t, "search_files", tt.args)
				if !outcome(t, res, tt.err) {
					return
				}
				var got SearchFilesResult
				structured(t, res, &got)
				if strings.Join(got.Matches, ",") != strings.Join(tt.want, ",") || got.Total != len(tt.want) {
					t.Errorf("matches = %q (total %d), want %q", got.Matches, got.Total, tt.want)
				}
				if len(tt.want) > 0 {
					wantContains(t, text(res), strings.Join(tt.want, "\n")+"\n")
				}
				wantContains(t, text(res), tt.note)
			})
		}
	})
}

func TestSearchFilesCapsTheResults(t *testing.T) {
	bothFS(t, security.Limits{MaxResults: 2}, func(t *testing.T, e *env) {
		projectFixture(t, e)
		res := e.ok(t, "search_files", `{"pattern":"*.go"}`)
		var got SearchFilesResult
		structured(t, res, &got)
		if len(got.Matches) != 2 || got.Total != 4 || !got.Truncated {
			t.Errorf("got %+v", got)
		}
		wantContains(t, text(res), "Showing the first 2 of 4 matches; narrow the search")
	})
}

func TestSearchFilesDoesNotFollowSymlinks(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	projectFixture(t, e)
	e.symlink(t, "src", "loop")
	e.symlink(t, "/etc", "outside")
	res := e.ok(t, "search_files", `{"pattern":"*.go"}`)
	var got SearchFilesResult
	structured(t, res, &got)
	if got.Total != 4 {
		t.Errorf("matches = %q; links must not be followed", got.Matches)
	}
	res = e.ok(t, "search_files", `{"pattern":"{loop,outside}"}`)
	structured(t, res, &got)
	if strings.Join(got.Matches, ",") != "loop,outside" {
		t.Errorf("links should match by name, as files: %q", got.Matches)
	}
}

func TestSearchFilesSortsNewestFirstWhenAsked(t *testing.T) {
	bothFS(t, security.Limits{MaxResults: 3}, func(t *testing.T, e *env) {
		base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		files := []struct {
			name string
			age  time.Duration
		}{
			{"a/old.go", 5 * time.Hour},
			{"b/newest.go", 0},
			{"c/mid.go", 2 * time.Hour},
			{"c/twin1.go", 3 * time.Hour},
			{"a/twin2.go", 3 * time.Hour},
		}
		for _, f := range files {
			e.write(t, f.name, "x\n")
			if err := e.fs.Chtimes(f.name, base.Add(-f.age), base.Add(-f.age)); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			args string
			want []string
		}{
			// Newest first; two of the same age by path; the first three
			// of five, the cap.
			{`{"pattern":"*.go","sort":"modified"}`, []string{"b/newest.go", "c/mid.go", "a/twin2.go"}},
			{`{"pattern":"*.go"}`, []string{"a/old.go", "a/twin2.go", "b/newest.go"}},
			{`{"pattern":"*.go","sort":"path"}`, []string{"a/old.go", "a/twin2.go", "b/newest.go"}},
		}
		for _, c := range cases {
			res := e.ok(t, "search_files", c.args)
			var got SearchFilesResult
			structured(t, res, &got)
			if !slices.Equal(got.Matches, c.want) || got.Total != 5 || !got.Truncated {
				t.Errorf("%s: matches %q of %d, want %q of 5", c.args, got.Matches, got.Total, c.want)
			}
			wantContains(t, text(res), strings.Join(c.want, "\n")+"\n")
		}
		msg := e.fail(t, "search_files", `{"pattern":"*.go","sort":"newest"}`)
		wantContains(t, msg, `"sort"`)
		wantContains(t, msg, "modified")
	})
}
