package listing

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestAppendWritesToolserversText(t *testing.T) {
	fsys := fstest.MapFS{
		"d/a.txt":      {},
		"d/b.txt":      {},
		"d/sub":        {Mode: fs.ModeDir},
		"d/link":       {Mode: fs.ModeSymlink},
		"d/pipe":       {Mode: fs.ModeNamedPipe},
		"one/only.txt": {},
		"one/dir":      {Mode: fs.ModeDir},
		"empty":        {Mode: fs.ModeDir},
	}
	for _, c := range []struct{ dir, want string }{
		{"d", "a.txt\nb.txt\nlink@\npipe|\nsub/\nd: 1 directory, 2 files, 1 symbolic link (@), 1 special file (|).\n"},
		{"one", "dir/\nonly.txt\none: 1 directory, 1 file.\n"},
		{"empty", "\"empty\" is empty.\n"},
	} {
		entries, err := fs.ReadDir(fsys, c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(Append(nil, c.dir, entries)); got != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.dir, got, c.want)
		}
	}
}
