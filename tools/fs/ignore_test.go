package fs

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

// repoFixture is a small repository: its ignore rules leave out six
// entries at the top of what they ignore (.git, node_modules, build,
// src/app.log, src/gen and src/key.secret).
var repoFixture = map[string]string{
	".git/HEAD":               "needle\n",
	".git/info/exclude":       "*.secret\n",
	".gitignore":              "node_modules/\nbuild/\n*.log\n!keep.log\n",
	"README.md":               "needle\n",
	"keep.log":                "needle\n",
	"build/out.txt":           "needle\n",
	"node_modules/x/index.js": "needle\n",
	"src/.gitignore":          "gen/\n",
	"src/main.go":             "package main // needle\n",
	"src/app.log":             "needle\n",
	"src/gen/g.go":            "needle\n",
	"src/key.secret":          "needle\n",
}

const sixIgnored = "Skipped 6 ignored entries (.git, and what .gitignore, .ignore or .git/info/exclude exclude); pass include_ignored: true to include them."

func TestSearchFilesSkipsIgnoredEntries(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    []string
		ignored int
		note    string
	}{
		{name: "ignored entries and .git are skipped and counted, nested .gitignore files too",
			args:    `{"pattern":"*"}`,
			want:    []string{".gitignore", "README.md", "keep.log", "src/", "src/.gitignore", "src/main.go"},
			ignored: 6, note: sixIgnored},
		{name: "include_ignored includes them",
			args: `{"pattern":"*.{go,log,secret,js}","include_ignored":true}`,
			want: []string{"keep.log", "node_modules/x/index.js", "src/app.log", "src/gen/g.go", "src/key.secret", "src/main.go"}},
		{name: "include_ignored searches .git",
			args: `{"pattern":".git/*","include_ignored":true}`,
			want: []string{".git/HEAD", ".git/info/"}},
		{name: "the rules above a subdirectory apply to it",
			args:    `{"path":"src","pattern":"*"}`,
			want:    []string{"src/.gitignore", "src/main.go"},
			ignored: 3, note: "Skipped 3 ignored entries"},
		{name: "an ignored directory named as path is searched",
			args: `{"path":"build","pattern":"*"}`,
			want: []string{"build/out.txt"}},
		{name: "what is ignored is not found, and the note says how to find it",
			args:    `{"path":"src","pattern":"gen"}`,
			want:    []string{},
			ignored: 3, note: "Nothing below \"src\" matches \"gen\".\nSkipped 3 ignored entries (.git, and what .gitignore, .ignore or .git/info/exclude exclude); pass include_ignored: true to include them.\n"},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeAll(t, repoFixture)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.ok(t, "search_files", tt.args)
				var got SearchFilesResult
				structured(t, res, &got)
				if strings.Join(got.Matches, ",") != strings.Join(tt.want, ",") {
					t.Errorf("matches = %q, want %q", got.Matches, tt.want)
				}
				if got.Ignored != tt.ignored {
					t.Errorf("ignored = %d, want %d", got.Ignored, tt.ignored)
				}
				wantContains(t, text(res), tt.note)
				if tt.ignored == 0 && strings.Contains(text(res), "ignored") {
					t.Errorf("the text speaks of ignored entries: %s", text(res))
				}
			})
		}
	})
}

func TestGrepSkipsIgnoredEntries(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    []string // paths with a match
		ignored int
		note    string
	}{
		{name: "ignored files and .git are not searched, and counted",
			args: `{"query":"needle"}`, want: []string{"README.md", "keep.log", "src/main.go"},
			ignored: 6, note: "3 matching lines in 3 files (5 files searched).\n" + sixIgnored + "\n"},
		{name: "include_ignored searches them and .git",
			args: `{"query":"needle","include_ignored":true}`,
			want: []string{".git/HEAD", "README.md", "build/out.txt", "keep.log", "node_modules/x/index.js", "src/app.log", "src/gen/g.go", "src/key.secret", "src/main.go"}},
		{name: "a nested .gitignore applies below its directory",
			args: `{"path":"src","query":"needle"}`, want: []string{"src/main.go"},
			ignored: 3, note: "Skipped 3 ignored entries"},
		{name: "an ignored file named as path is searched",
			args: `{"path":"src/app.log","query":"needle"}`, want: []string{"src/app.log"}},
		{name: "glob limits what is searched, ignored entries still counted",
			args: `{"query":"needle","glob":"*.go"}`, want: []string{"src/main.go"},
			ignored: 6},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeAll(t, repoFixture)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.ok(t, "grep", tt.args)
				var got GrepResult
				structured(t, res, &got)
				var paths []string
				for _, m := range got.Matches {
					paths = append(paths, m.Path)
				}
				if strings.Join(paths, ",") != strings.Join(tt.want, ",") {
					t.Errorf("matches in %q, want %q", paths, tt.want)
				}
				if got.Ignored != tt.ignored {
					t.Errorf("ignored = %d, want %d", got.Ignored, tt.ignored)
				}
				wantContains(t, text(res), tt.note)
			})
		}
	})
}

func TestDirectoryTreeLeavesOutIgnoredEntries(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		tree    string
		ignored int
	}{
		{name: "ignored entries and .git are left out and counted, nested .gitignore files too",
			args:    `{}`,
			tree:    "./\n  .gitignore\n  README.md\n  keep.log\n  src/\n    .gitignore\n    main.go\n",
			ignored: 6},
		{name: "only the levels shown are counted",
			args:    `{"depth":1}`,
			tree:    "./\n  .gitignore\n  README.md\n  keep.log\n  src/\n",
			ignored: 3},
		{name: "include_ignored shows everything",
			args: `{"path":"src","include_ignored":true}`,
			tree: "src/\n  .gitignore\n  app.log\n  gen/\n    g.go\n  key.secret\n  main.go\n"},
		{name: "the rules above path apply below it",
			args:    `{"path":"src"}`,
			tree:    "src/\n  .gitignore\n  main.go\n",
			ignored: 3},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeAll(t, repoFixture)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.ok(t, "directory_tree", tt.args)
				var got DirectoryTreeResult
				structured(t, res, &got)
				note := ""
				if tt.ignored > 0 {
					note = "Note: left out " + plural(tt.ignored, "ignored entry", "ignored entries") +
						" (.git, and what .gitignore, .ignore or .git/info/exclude exclude); include_ignored: true shows them.\n"
				}
				if txt := text(res); txt != tt.tree+note {
					t.Errorf("tree =\n%s\nwant\n%s%s", txt, tt.tree, note)
				}
				if got.Ignored != tt.ignored {
					t.Errorf("ignored = %d, want %d", got.Ignored, tt.ignored)
				}
			})
		}
	})
}

func TestIgnoreFilesApplyWithoutARepository(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeAll(t, map[string]string{
			".gitignore": "*.log\n", ".ignore": "*.tmp\n",
			"a/b.log": "", "a/c.tmp": "", "a/d.txt": "",
		})
		res := e.ok(t, "search_files", `{"path":"a","pattern":"*"}`)
		var got SearchFilesResult
		structured(t, res, &got)
		if strings.Join(got.Matches, ",") != "a/d.txt" || got.Ignored != 2 {
			t.Errorf("matches = %q, ignored %d; want a/d.txt, 2", got.Matches, got.Ignored)
		}
	})
}

func TestARepositoryInsideAnotherFollowsItsOwnRules(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeAll(t, map[string]string{
			".git/HEAD": "", ".gitignore": "*.log\n",
			"inner/.git/HEAD": "", "inner/.git/info/exclude": "*.dat\n",
			"inner/a.log": "", "inner/b.dat": "", "c.log": "",
		})
		for _, path := range []string{".", "inner"} {
			res := e.ok(t, "search_files", args(t, map[string]any{"path": path, "pattern": "*.{log,dat}"}))
			var got SearchFilesResult
			structured(t, res, &got)
			if strings.Join(got.Matches, ",") != "inner/a.log" {
				t.Errorf("from %s: matches = %q, want inner/a.log", path, got.Matches)
			}
		}
	})
}

func TestIgnoreFilesThatAreLinksAreNotFollowed(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.writeAll(t, map[string]string{"rules": "*.log\n", "a.log": "", "sub/b.log": ""})
	e.symlink(t, "../rules", "sub/.gitignore")
	res := e.ok(t, "search_files", `{"pattern":"*.log"}`)
	var got SearchFilesResult
	structured(t, res, &got)
	if strings.Join(got.Matches, ",") != "a.log,sub/b.log" || got.Ignored != 0 {
		t.Errorf("matches = %q, ignored %d; a linked .gitignore must not apply (git does not follow it)", got.Matches, got.Ignored)
	}
}

func TestIgnoreFilesOutsideTheAllowedSubtreesAreNotRead(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	e.writeAll(t, map[string]string{".gitignore": "*.log\n", "sub/a.log": "", "sub/.gitignore": "*.tmp\n", "sub/b.tmp": ""})
	e.sb.Restrict([]string{"sub"})
	res := e.ok(t, "search_files", `{"path":"sub","pattern":"*.{log,tmp}"}`)
	var got SearchFilesResult
	structured(t, res, &got)
	if strings.Join(got.Matches, ",") != "sub/a.log" || got.Ignored != 1 {
		t.Errorf("matches = %q, ignored %d; want sub/a.log (the root's .gitignore is outside what is allowed), 1", got.Matches, got.Ignored)
	}
}

func TestIgnoreFilesOverTheBoundsAreNotAppliedAndNamed(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		big := "*.log\n" + strings.Repeat("#", maxIgnoreFileBytes)
		many := strings.Repeat("x\n", maxIgnoreLines-1) + "*.tmp\n"
		e.writeAll(t, map[string]string{
			"big/.gitignore": big, "big/a.log": "",
			"many/.gitignore": many, "many/.ignore": "*.dat\n", "many/b.tmp": "", "many/c.dat": "",
		})
		res := e.ok(t, "search_files", `{"pattern":"*.{log,tmp,dat}"}`)
		var got SearchFilesResult
		structured(t, res, &got)
		// many/.gitignore fits (9,999 lines and one more); its .ignore
		// would bring the lines in force past the bound.
		if strings.Join(got.Matches, ",") != "big/a.log,many/c.dat" || got.Ignored != 1 {
			t.Errorf("matches = %q, ignored %d", got.Matches, got.Ignored)
		}
		want := []SkippedEntry{{Path: "big/.gitignore", Reason: "too_large"}, {Path: "many/.ignore", Reason: "too_many_patterns"}}
		if len(got.IgnoreUnapplied) != 2 || got.IgnoreUnapplied[0] != want[0] || got.IgnoreUnapplied[1] != want[1] {
			t.Errorf("ignore_files_not_applied = %+v, want %+v", got.IgnoreUnapplied, want)
		}
		wantContains(t, text(res), `Did not apply 2 ignore files, so what they exclude was not skipped: "big/.gitignore" (larger than 1 MiB) and "many/.ignore" (over 10000 lines or 4 MiB of ignore files in force).`)
	})
}

// TestManyIgnoreFilesHoldLittle: 300 levels, each with a 100 KiB
// .gitignore. A depth-first walk holds only the files of the directories
// it is in; past the bound, the deeper files are not applied, and named.
func TestManyIgnoreFilesHoldLittle(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	rules := "*.log\n" + strings.Repeat("#"+strings.Repeat("x", 1000)+"\n", 100)
	dir := "."
	for range 300 {
		dir = joinRel(dir, "d")
		e.write(t, dir+"/.gitignore", rules)
	}
	ig := (&toolset{sb: e.sb, lim: e.sb.Limits()}).newIgnorer(false)
	peak := int64(0)
	err := ig.t.walkIgnoring(t.Context(), ".", ig, func(p, sub string, d fs.DirEntry, err error) error {
		peak = max(peak, ig.stack.Held())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if peak > maxIgnoreHeldBytes || ig.stack.Held() != 0 {
		t.Errorf("held at most %d bytes, %d at the end", peak, ig.stack.Held())
	}
	if ig.unusable.n == 0 {
		t.Error("no ignore file was left out")
	}
}
