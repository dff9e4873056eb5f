package fs

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/internal/atomicfile"
	"github.com/stdiotools/toolserver/security"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		file    string // the file to check afterwards
		content string
		created bool
		summary string
		err     string
	}{
		{name: "a new file is created with exactly the content", args: `{"path":"new.txt","content":"hello\n"}`,
			file: "new.txt", content: "hello\n", created: true, summary: `Created "new.txt" with 6 bytes.`},
		{name: "an existing file is replaced whole", args: `{"path":"old.txt","content":"new"}`,
			file: "old.txt", content: "new", summary: `Replaced "old.txt" (12 bytes before) with 3 bytes.`},
		{name: "an empty content makes an empty file", args: `{"path":"old.txt","content":""}`,
			file: "old.txt", content: "", summary: "with 0 bytes"},
		{name: "CRLF and tabs are written as given", args: `{"path":"d/x.txt","content":"a\tb\r\nc\r\n"}`,
			file: "d/x.txt", content: "a\tb\r\nc\r\n", created: true},
		{name: "non-ASCII text is written as UTF-8", args: `{"path":"d/é.txt","content":"naïve 😀"}`,
			file: "d/é.txt", content: "naïve 😀", created: true},
		{name: "a missing directory is an error that suggests create_directory", args: `{"path":"no/such/x.txt","content":"x"}`,
			err: `the directory "no/such" does not exist; create it with create_directory first`},
		{name: "a file in the way of the directory is an error", args: `{"path":"old.txt/x","content":"x"}`,
			err: `"old.txt" is a file, so it cannot hold "x"`},
		{name: "a directory is never written over", args: `{"path":"d","content":"x"}`,
			err: `"d" is a directory, and only files can be written`},
		{name: "the root is not a file", args: `{"path":".","content":"x"}`,
			err: `"." is the root directory`},
		{name: "a path above the root is refused", args: `{"path":"../x","content":"x"}`,
			err: "leaves the root"},
		{name: "control characters in the content are refused", args: `{"path":"x","content":"a\u0000b"}`,
			err: `"content"`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e.write(t, "old.txt", "old content\n")
				e.mkdir(t, "d")
				before := e.snapshot(t)
				res := e.call(t, "write_file", tt.args)
				if !outcome(t, res, tt.err) {
					if after := e.snapshot(t); after != before {
						t.Errorf("a failed write changed the tree:\n%s\nwas\n%s", after, before)
					}
					return
				}
				if got := e.read(t, tt.file); got != tt.content {
					t.Errorf("file = %q, want %q", got, tt.content)
				}
				var got WriteFileResult
				structured(t, res, &got)
				if got.Created != tt.created || got.Bytes != int64(len(tt.content)) || got.Path != tt.file {
					t.Errorf("result = %+v", got)
				}
				wantContains(t, text(res), tt.summary)
				noTempFiles(t, e)
			})
		}
	})
}

// noTempFiles fails the test if a temporary file of an atomic write was
// left behind.
func noTempFiles(t *testing.T, e *env) {
	t.Helper()
	_ = afero.Walk(e.fs, ".", func(p string, fi fs.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(fi.Name(), atomicfile.TempPrefix) {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestWriteFileKeepsTheMode(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeMode(t, "script.sh", "#!/bin/sh\n", 0o755)
		e.writeMode(t, "secret", "s", 0o600)
		e.ok(t, "write_file", `{"path":"script.sh","content":"#!/bin/sh\necho hi\n"}`)
		e.ok(t, "write_file", `{"path":"secret","content":"t"}`)
		e.ok(t, "write_file", `{"path":"fresh","content":"f"}`)
		for name, want := range map[string]fs.FileMode{"script.sh": 0o755, "secret": 0o600, "fresh": 0o644} {
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

func TestWriteFileDryRunChangesNothing(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "old.txt", "old content\n")
		before := e.snapshot(t)
		res := e.ok(t, "write_file", `{"path":"new.txt","content":"abc","dry_run":true}`)
		wantContains(t, text(res), `Dry run: write_file would create "new.txt" with 3 bytes. Nothing was written.`)
		res = e.ok(t, "write_file", `{"path":"old.txt","content":"abc","dry_run":true}`)
		wantContains(t, text(res), `would replace "old.txt" (12 bytes) with 3 bytes`)
		if got := object(t, res); got["dry_run"] != true || got["created"] != false {
			t.Errorf("structured = %v", got)
		}
		e.fail(t, "write_file", `{"path":"missing/new.txt","content":"abc","dry_run":true}`)
		if after := e.snapshot(t); after != before {
			t.Errorf("dry run changed the tree:\n%s\nwas\n%s", after, before)
		}
	})
}

func TestWriteFileRefusesLinksAndSpecialFiles(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "target.txt", "t")
	e.symlink(t, "target.txt", "link")
	if err := syscall.Mkfifo(e.dir+"/fifo", 0o644); err != nil {
		t.Fatal(err)
	}
	wantContains(t, e.fail(t, "write_file", `{"path":"link","content":"x"}`),
		`"link" is a symbolic link, and writing here would replace the link itself with a file; write to "target.txt", the file it points to, instead`)
	wantContains(t, e.fail(t, "write_file", `{"path":"fifo","content":"x"}`),
		`"fifo" is a named pipe, not a regular file`)
	if got := e.read(t, "target.txt"); got != "t" {
		t.Errorf("target changed to %q", got)
	}
	if fi, err := os.Lstat(e.dir + "/link"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
}

func TestWriteFileConcurrentWritersLeaveOneWholeVersion(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		versions := make([]string, 8)
		for i := range versions {
			versions[i] = strings.Repeat(fmt.Sprintf("writer %d was here\n", i), 2000+i*100)
		}
		for round := range 5 {
			var wg sync.WaitGroup
			for _, v := range versions {
				wg.Go(func() {
					res := e.call(t, "write_file", args(t, map[string]any{"path": "shared.txt", "content": v}))
					if res.IsError {
						t.Errorf("round %d: %s", round, text(res))
					}
				})
			}
			wg.Wait()
			got := e.read(t, "shared.txt")
			found := false
			for _, v := range versions {
				found = found || got == v
			}
			if !found {
				t.Fatalf("round %d: the file is not one of the versions written (%d bytes)", round, len(got))
			}
			noTempFiles(t, e)
		}
	})
}
