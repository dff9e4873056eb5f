package fs

import (
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func moveFixture(t *testing.T, e *env) {
	e.write(t, "a.txt", "aaa")
	e.write(t, "b.txt", "bbb")
	e.write(t, "dir/x.txt", "x")
	e.write(t, "dir/sub/y.txt", "y")
	e.mkdir(t, "other")
	e.mkdir(t, "empty")
}

func TestMoveFile(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		gone    []string // paths that must not exist afterwards
		want    map[string]string
		summary string
		err     string
	}{
		{name: "a file is renamed",
			args: `{"source":"a.txt","destination":"c.txt"}`, gone: []string{"a.txt"},
			want: map[string]string{"c.txt": "aaa"}, summary: `Moved the file "a.txt" (3 bytes) to "c.txt".`},
		{name: "a file moves into another directory",
			args: `{"source":"a.txt","destination":"other/a.txt"}`, gone: []string{"a.txt"},
			want: map[string]string{"other/a.txt": "aaa"}},
		{name: "a directory moves with everything in it",
			args: `{"source":"dir","destination":"other/moved"}`, gone: []string{"dir"},
			want: map[string]string{"other/moved/x.txt": "x", "other/moved/sub/y.txt": "y"}, summary: `Moved the directory "dir" to "other/moved".`},
		{name: "an existing destination is replaced only with overwrite",
			args: `{"source":"a.txt","destination":"b.txt","overwrite":true}`, gone: []string{"a.txt"},
			want: map[string]string{"b.txt": "aaa"}, summary: `Moved the file "a.txt" (3 bytes) to "b.txt", replacing the file "b.txt" (3 bytes).`},
		{name: "an existing destination without overwrite is an error that names the flag",
			args: `{"source":"a.txt","destination":"b.txt"}`,
			err:  `destination "b.txt" already exists (the file "b.txt" (3 bytes)); pass overwrite: true to replace it, or choose another destination`},
		{name: "an existing directory is never replaced, and the error says how to move into it",
			args: `{"source":"a.txt","destination":"other","overwrite":true}`,
			err:  `destination "other" is an existing directory, which move_file never replaces; to put "a.txt" inside it, give destination "other/a.txt"`},
		{name: "a directory does not replace a file",
			args: `{"source":"dir","destination":"b.txt","overwrite":true}`,
			err:  `a file is only replaced by a file`},
		{name: "a directory cannot go inside itself",
			args: `{"source":"dir","destination":"dir/sub/dir"}`,
			err:  `"dir/sub/dir" is inside "dir"; a directory cannot go inside itself`},
		{name: "a missing source is an error",
			args: `{"source":"nope","destination":"x"}`, err: `"nope" does not exist`},
		{name: "a missing destination directory is an error that suggests create_directory",
			args: `{"source":"a.txt","destination":"no/a.txt"}`, err: `the directory "no" does not exist; create it with create_directory first`},
		{name: "the same path twice is an error",
			args: `{"source":"a.txt","destination":"./a.txt"}`, err: `source and destination are both "a.txt"`},
		{name: "the root cannot be moved",
			args: `{"source":".","destination":"x"}`, err: "source is the root directory"},
		{name: "nothing moves onto the root",
			args: `{"source":"a.txt","destination":"."}`, err: `destination is the root directory; give the full new path, such as "a.txt"`},
		{name: "a destination above the root is refused",
			args: `{"source":"a.txt","destination":"../a.txt"}`, err: "leaves the root"},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, p := range []string{"a.txt", "b.txt", "c.txt", "dir", "other", "empty"} {
					_ = e.fs.RemoveAll(p)
				}
				moveFixture(t, e)
				before := e.snapshot(t)
				res := e.call(t, "move_file", tt.args)
				if !outcome(t, res, tt.err) {
					if after := e.snapshot(t); after != before {
						t.Errorf("a failed move changed the tree:\n%s", after)
					}
					return
				}
				for _, p := range tt.gone {
					if e.exists(t, p) {
						t.Errorf("%s still exists", p)
					}
				}
				for p, c := range tt.want {
					if got := e.read(t, p); got != c {
						t.Errorf("%s = %q, want %q", p, got, c)
					}
				}
				wantContains(t, text(res), tt.summary)
			})
		}
	})
}

func TestMoveFileMovesALinkNotItsTarget(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "target.txt", "t")
	e.symlink(t, "target.txt", "link")
	e.ok(t, "move_file", `{"source":"link","destination":"link2"}`)
	fi, err := lstat(e.fs, "link2")
	if err != nil || entryType(fi.Mode()) != typeSymlink || e.read(t, "target.txt") != "t" {
		t.Errorf("link2: %v %v", fi, err)
	}
}
