package fs

import (
	"fmt"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestDirectoryTree(t *testing.T) {
	tests := []struct {
		name string
		args string
		tree string
		note string
		err  string
	}{
		{name: "the tree is indented two spaces a level, directories first by name",
			args: `{"path":"src"}`,
			tree: "src/\n  lib/\n    util.go\n    util_test.go\n  main.go\n  main_test.go\n"},
		{name: "depth 1 shows only the entries of path, and leaves out .git",
			args: `{"depth":1}`,
			tree: "./\n  README.md\n  docs/\n  node_modules/\n  src/\n",
			note: "Note: left out 1 ignored entry (.git, and what .gitignore, .ignore or .git/info/exclude exclude); include_ignored: true shows it."},
		{name: "include_ignored shows .git",
			args: `{"depth":1,"include_ignored":true}`,
			tree: "./\n  .git/\n  README.md\n  docs/\n  node_modules/\n  src/\n"},
		{name: "exclude leaves out entries by name at any depth",
			args: `{"exclude":["node_modules",".git","*.md","img"],"include_ignored":true}`,
			tree: "./\n  docs/\n  src/\n    lib/\n      util.go\n      util_test.go\n    main.go\n    main_test.go\n"},
		{name: "exclude with a slash is matched against the path below path",
			args: `{"path":"src","exclude":["lib/*_test.go"]}`,
			tree: "src/\n  lib/\n    util.go\n  main.go\n  main_test.go\n"},
		{name: "a depth over the limit is capped with a note",
			args: `{"path":"docs","depth":50}`,
			tree: "docs/\n  img/\n    logo.png\n  readme.md\n", note: "depth 50 is more than the limit, so 10 levels are shown"},
		{name: "a malformed exclude is a clear error",
			args: `{"exclude":["[a"]}`, err: `exclude: the pattern "[a" is malformed`},
		{name: "a file is not a tree",
			args: `{"path":"README.md"}`, err: `"README.md" is a file, not a directory`},
		{name: "a depth of zero is refused",
			args: `{"depth":0}`, err: `"depth"`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		projectFixture(t, e)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.call(t, "directory_tree", tt.args)
				if !outcome(t, res, tt.err) {
					return
				}
				var got DirectoryTreeResult
				structured(t, res, &got)
				if txt := res.Content[0].Text(); txt != tt.tree+noteLine(got.Note) {
					t.Errorf("tree =\n%s\nwant\n%s", txt, tt.tree)
				}
				wantContains(t, got.Note, tt.note)
			})
		}
	})
}

// noteLine returns the line a note adds to a text result.
func noteLine(note string) string {
	if note == "" {
		return ""
	}
	return note + "\n"
}

func TestDirectoryTreeCutsTheDeepestLevelsFirst(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 6}, func(t *testing.T, e *env) {
		for _, d := range []string{"a", "b", "c"} {
			for i := range 3 {
				e.write(t, fmt.Sprintf("%s/f%d", d, i), "")
			}
		}
		res := e.ok(t, "directory_tree", `{}`)
		want := "./\n  a/\n    f0\n    f1\n    f2\n  b/ …\n  c/ …\n" +
			"Note: the tree stops at 6 entries (\"…\" marks what is left out); narrow it with a smaller depth, exclude patterns, or a subdirectory as path.\n"
		if got := text(res); got != want {
			t.Errorf("tree =\n%s\nwant\n%s", got, want)
		}
		if got := object(t, res); got["truncated"] != true || got["entries"] != 6.0 {
			t.Errorf("structured = %v", got)
		}
	})
}

func TestDirectoryTreeCountsWhatItLeavesOut(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 2}, func(t *testing.T, e *env) {
		for i := range 5 {
			e.write(t, fmt.Sprintf("f%d", i), "")
		}
		wantContains(t, text(e.ok(t, "directory_tree", `{}`)), "./\n  f0\n  f1\n  … 3 more entries\n")
	})
}

func TestDirectoryTreeShowsLinksWithoutFollowing(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "dir/file", "x")
	e.symlink(t, "dir", "inside")
	e.symlink(t, "/etc", "abs")
	e.symlink(t, "../../x", "dir/up")
	res := e.ok(t, "directory_tree", `{}`)
	want := "./\n  abs@ -> (outside the root)\n  dir/\n    file\n    up@ -> (outside the root)\n  inside@ -> dir\n"
	if got := text(res); got != want {
		t.Errorf("tree =\n%s\nwant\n%s", got, want)
	}
}
