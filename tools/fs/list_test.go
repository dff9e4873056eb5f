package fs

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

func listFixture(t *testing.T, e *env) {
	e.write(t, "d/small.txt", "1")
	e.write(t, "d/big.txt", strings.Repeat("x", 300))
	e.write(t, "d/mid.txt", strings.Repeat("x", 20))
	e.mkdir(t, "d/sub")
	e.mkdir(t, "empty")
	base := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, name := range []string{"d/mid.txt", "d/small.txt", "d/big.txt", "d/sub"} {
		mt := base.Add(time.Duration(i) * time.Hour)
		if err := e.fs.Chtimes(name, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}

func TestListDirectory(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		names []string
		text  string
		err   string
	}{
		{name: "entries are listed by name, directories with a slash, then the counts",
			args: `{"path":"d"}`, names: []string{"big.txt", "mid.txt", "small.txt", "sub"},
			text: "big.txt\nmid.txt\nsmall.txt\nsub/\nd: 1 directory, 3 files.\n"},
		{name: "sizes adds each file's size and the total",
			args: `{"path":"d","sizes":true}`, names: []string{"big.txt", "mid.txt", "small.txt", "sub"},
			text: "big.txt  300\nmid.txt  20\nsmall.txt  1\nsub/\nd: 1 directory, 3 files; 321 bytes in files.\n"},
		{name: "sort by size puts the largest first",
			args: `{"path":"d","sort":"size"}`, names: []string{"big.txt", "mid.txt", "small.txt", "sub"}},
		{name: "sort by modified puts the newest first and shows the time",
			args: `{"path":"d","sort":"modified"}`, names: []string{"sub", "big.txt", "small.txt", "mid.txt"},
			text: "sub/  2024-01-02 06:04:05Z\nbig.txt  2024-01-02 05:04:05Z\n"},
		{name: "the root is the default",
			args: `{}`, names: []string{"d", "empty"}},
		{name: "an empty directory says so",
			args: `{"path":"empty"}`, names: []string{}, text: `"empty" is empty.`},
		{name: "an unknown sort is refused",
			args: `{"path":"d","sort":"date"}`, err: `"sort" must be one of "name", "size", "modified"`},
		{name: "a file is not a directory",
			args: `{"path":"d/big.txt"}`, err: `"d/big.txt" is a file, not a directory`},
		{name: "a missing directory is an error",
			args: `{"path":"nope"}`, err: `"nope" does not exist`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		listFixture(t, e)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.call(t, "list_directory", tt.args)
				if !outcome(t, res, tt.err) {
					return
				}
				var got ListDirectoryResult
				structured(t, res, &got)
				var names []string
				for _, en := range got.Entries {
					names = append(names, en.Name)
				}
				if strings.Join(names, ",") != strings.Join(tt.names, ",") {
					t.Errorf("names = %v, want %v", names, tt.names)
				}
				wantContains(t, text(res), tt.text)
			})
		}
	})
}

func TestListDirectoryCapsTheEntries(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 3}, func(t *testing.T, e *env) {
		for i := range 5 {
			e.write(t, fmt.Sprintf("many/f%d", i), "")
		}
		res := e.ok(t, "list_directory", `{"path":"many"}`)
		var got ListDirectoryResult
		structured(t, res, &got)
		if len(got.Entries) != 3 || got.Total != 5 || got.Files != 5 || !got.Truncated {
			t.Errorf("got %+v", got)
		}
		cursor := encodeListCursor(ListEntry{Name: "f2"}, "name")
		wantContains(t, text(res), "f0\nf1\nf2\n", "Showing entries 1 to 3 of 5 (sorted by name); 2 more: call list_directory again with cursor="+cursor+" (and the same sort)")
		// The note's cursor gets the rest, and so does an offset.
		res = e.ok(t, "list_directory", `{"path":"many","cursor":"`+cursor+`"}`)
		var next ListDirectoryResult
		structured(t, res, &next)
		if len(next.Entries) != 2 || next.Entries[0].Name != "f3" || next.Truncated {
			t.Errorf("after the cursor: %+v", next)
		}
		wantContains(t, text(res), "f3\nf4\n", "Showing entries 4 to 5 of 5 (sorted by name), the last ones.")
		res = e.ok(t, "list_directory", `{"path":"many","offset":3}`)
		var rest ListDirectoryResult
		structured(t, res, &rest)
		if len(rest.Entries) != 2 || rest.Entries[0].Name != "f3" || rest.Truncated {
			t.Errorf("rest: %+v", rest)
		}
		wantContains(t, text(res), "f3\nf4\n", "Showing entries 4 to 5 of 5 (sorted by name), the last ones.")
		res = e.ok(t, "list_directory", `{"path":"many","offset":99}`)
		structured(t, res, &rest)
		if len(rest.Entries) != 0 {
			t.Errorf("past the end: %+v", rest)
		}
		wantContains(t, text(res), "offset 99 is past the last of the 5 entries")
	})
}

func TestListDirectoryShowsLinksAndSpecialFiles(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "file", "x")
	e.symlink(t, "file", "link")
	if err := syscall.Mkfifo(e.dir+"/pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	res := e.ok(t, "list_directory", `{"sizes":true}`)
	wantContains(t, text(res), "file  1\nlink@\npipe|\n", "1 symbolic link (@), 1 special file (|)")
	var got ListDirectoryResult
	structured(t, res, &got)
	if got.Entries[1].Type != "symlink" || got.Entries[2].Type != "other" || got.Symlinks != 1 || got.Other != 1 {
		t.Errorf("got %+v", got)
	}
}
