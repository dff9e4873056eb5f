package fs

import (
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestCreateDirectory(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		made    []string
		created bool
		summary string
		err     string
	}{
		{name: "a new directory is created with its missing parents",
			args: `{"path":"a/b/c"}`, made: []string{"a/b/c"}, created: true, summary: `Created "a/b/c".`},
		{name: "missing parents are listed parents first",
			args: `{"path":"new/deep/er"}`, made: []string{"new", "new/deep", "new/deep/er"}, created: true,
			summary: `Created "new", "new/deep" and "new/deep/er".`},
		{name: "an existing directory is success with created false",
			args: `{"path":"a/b"}`, summary: `The directory "a/b" already exists; nothing was changed.`},
		{name: "the root exists already",
			args: `{"path":"."}`},
		{name: "a file at the path is an error",
			args: `{"path":"f.txt"}`, err: `"f.txt" already exists and is a file, not a directory; choose another name`},
		{name: "a file in the way of a parent is an error",
			args: `{"path":"f.txt/sub/x"}`, err: `"f.txt" is a file, so no directory can be created under it`},
		{name: "a path above the root is refused",
			args: `{"path":"../out"}`, err: "leaves the root"},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.mkdir(t, "a/b")
		e.write(t, "f.txt", "x")
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.call(t, "create_directory", tt.args)
				if !outcome(t, res, tt.err) {
					return
				}
				var got CreateDirectoryResult
				structured(t, res, &got)
				if got.Created != tt.created || strings.Join(got.Made, ",") != strings.Join(tt.made, ",") {
					t.Errorf("got %+v", got)
				}
				fi, err := e.fs.Stat(got.Path)
				if err != nil || !fi.IsDir() {
					t.Errorf("%s is not a directory: %v", got.Path, err)
				}
				wantContains(t, text(res), tt.summary)
			})
		}
	})
}
