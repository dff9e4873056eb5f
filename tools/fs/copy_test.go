package fs

import (
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestCopyFile(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    map[string]string
		summary string
		err     string
	}{
		{name: "a file is copied",
			args: `{"source":"a.txt","destination":"c.txt"}`,
			want: map[string]string{"a.txt": "aaa", "c.txt": "aaa"}, summary: `Copied the file "a.txt" (3 bytes) to "c.txt".`},
		{name: "a directory is copied with everything in it",
			args:    `{"source":"dir","destination":"other/copy"}`,
			want:    map[string]string{"dir/x.txt": "x", "other/copy/x.txt": "x", "other/copy/sub/y.txt": "y"},
			summary: `Copied the directory "dir" (2 files and 1 subdirectory, 2 bytes) to "other/copy".`},
		{name: "an existing file is replaced only with overwrite",
			args: `{"source":"a.txt","destination":"b.txt","overwrite":true}`,
			want: map[string]string{"b.txt": "aaa"}, summary: `replacing the file "b.txt" (3 bytes)`},
		{name: "an existing destination without overwrite is an error that names the flag",
			args: `{"source":"a.txt","destination":"b.txt"}`, err: `pass overwrite: true to replace it`},
		{name: "a directory is never merged into an existing one",
			args: `{"source":"dir","destination":"other","overwrite":true}`, err: `destination "other" is an existing directory, which copy_file never replaces`},
		{name: "a directory cannot be copied into itself",
			args: `{"source":"dir","destination":"dir/sub/copy"}`, err: `a directory cannot go inside itself`},
		{name: "a missing source is an error",
			args: `{"source":"nope","destination":"x"}`, err: `"nope" does not exist`},
		{name: "a missing destination directory is an error",
			args: `{"source":"a.txt","destination":"no/a.txt"}`, err: `create it with create_directory first`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, p := range []string{"a.txt", "b.txt", "c.txt", "dir", "other", "empty"} {
					_ = e.fs.RemoveAll(p)
				}
				moveFixture(t, e)
				before := e.snapshot(t)
				res := e.call(t, "copy_file", tt.args)
				if !outcome(t, res, tt.err) {
					if after := e.snapshot(t); after != before {
						t.Errorf("a failed copy changed the tree:\n%s", after)
					}
					return
				}
				for p, c := range tt.want {
					if got := e.read(t, p); got != c {
						t.Errorf("%s = %q, want %q", p, got, c)
					}
				}
				wantContains(t, text(res), tt.summary)
				noTempFiles(t, e)
			})
		}
	})
}

func TestCopyFileKeepsModes(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeMode(t, "src/run.sh", "#!/bin/sh\n", 0o750)
		e.writeMode(t, "src/ro/secret", "s", 0o400)
		if err := e.fs.Chmod("src/ro", 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.fs.Chmod("src/ro", 0o755); _ = e.fs.Chmod("dst/ro", 0o755) })
		e.ok(t, "copy_file", `{"source":"src/run.sh","destination":"run2.sh"}`)
		e.ok(t, "copy_file", `{"source":"src","destination":"dst"}`)
		for name, want := range map[string]fs.FileMode{"run2.sh": 0o750, "dst/run.sh": 0o750, "dst/ro/secret": 0o400, "dst/ro": 0o555} {
			fi, err := e.fs.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != want {
				t.Errorf("%s mode = %v, want %v", name, fi.Mode().Perm(), want)
			}
		}
	})
}

func TestCopyFileLimits(t *testing.T) {
	bothFS(t, security.Limits{MaxResults: 3, MaxWriteBytes: 256}, func(t *testing.T, e *env) {
		for i := range 5 {
			e.write(t, fmt.Sprintf("many/f%d", i), "")
		}
		e.write(t, "huge/f", strings.Repeat("x", 64*4+1))
		before := e.snapshot(t)
		wantContains(t, e.fail(t, "copy_file", `{"source":"many","destination":"many2"}`),
			`"many" holds more than 3 entries, the most copy_file copies at once; copy its subdirectories one at a time`)
		wantContains(t, e.fail(t, "copy_file", `{"source":"huge","destination":"huge2"}`),
			`"huge" holds more than 256 bytes, the most one call may write (the server's --max-write-bytes limit)`)
		if after := e.snapshot(t); after != before {
			t.Errorf("a refused copy changed the tree:\n%s", after)
		}
	})
}

func TestCopyFileSkipsLinksAndSpecialFilesInsideDirectories(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "src/file", "f")
	e.symlink(t, "file", "src/link")
	if err := syscall.Mkfifo(e.dir+"/src/pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	res := e.ok(t, "copy_file", `{"source":"src","destination":"dst"}`)
	wantContains(t, text(res), "leaving out 2 symbolic links and special files")
	var got CopyFileResult
	structured(t, res, &got)
	if strings.Join(got.Skipped, ",") != "src/link,src/pipe" || e.exists(t, "dst/link") || e.read(t, "dst/file") != "f" {
		t.Errorf("got %+v", got)
	}
	t.Run("a link given as source copies what it points to", func(t *testing.T) {
		e.ok(t, "copy_file", `{"source":"src/link","destination":"copied"}`)
		if fi, _ := lstat(e.fs, "copied"); !fi.Mode().IsRegular() || e.read(t, "copied") != "f" {
			t.Errorf("copied is %v", fi.Mode())
		}
	})
	t.Run("a named pipe cannot be copied", func(t *testing.T) {
		wantContains(t, e.fail(t, "copy_file", `{"source":"src/pipe","destination":"p2"}`), `"src/pipe" is a named pipe; only files and directories can be copied`)
	})
}
