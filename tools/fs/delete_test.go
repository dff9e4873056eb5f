package fs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

func TestDeleteFile(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		gone    string
		summary string
		err     string
	}{
		{name: "a file is deleted", args: `{"path":"a.txt"}`, gone: "a.txt", summary: `Deleted the file "a.txt" (3 bytes).`},
		{name: "an empty directory is deleted without recursive", args: `{"path":"empty"}`, gone: "empty", summary: `Deleted the directory "empty".`},
		{name: "a directory with content needs recursive",
			args: `{"path":"dir"}`,
			err:  `"dir" is a directory that is not empty (2 files and 1 subdirectory, 2 bytes); pass recursive: true to delete it with everything in it (with dry_run: true as well to first see what that would delete)`},
		{name: "recursive deletes a directory and everything in it",
			args: `{"path":"dir","recursive":true}`, gone: "dir",
			summary: `Deleted the directory "dir" and everything in it: 2 files and 1 subdirectory, 2 bytes.`},
		{name: "the root is never deleted", args: `{"path":".","recursive":true}`, err: `"." is the root directory, which delete_file never deletes`},
		{name: "the root is never deleted, however it is written", args: `{"path":"dir/..","recursive":true}`, err: "is the root directory"},
		{name: "a missing path is an error", args: `{"path":"nope"}`, err: `"nope" does not exist`},
		{name: "a path above the root is refused", args: `{"path":"../x"}`, err: "leaves the root"},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				moveFixture(t, e)
				before := e.snapshot(t)
				res := e.call(t, "delete_file", tt.args)
				if !outcome(t, res, tt.err) {
					if after := e.snapshot(t); after != before {
						t.Errorf("a failed delete changed the tree:\n%s", after)
					}
					return
				}
				if e.exists(t, tt.gone) {
					t.Errorf("%s still exists", tt.gone)
				}
				wantContains(t, text(res), tt.summary)
			})
		}
	})
}

func TestDeleteFileDryRunListsWhatWouldGo(t *testing.T) {
	bothFS(t, security.Limits{MaxListEntries: 4}, func(t *testing.T, e *env) {
		moveFixture(t, e)
		for i := range 3 {
			e.write(t, fmt.Sprintf("dir/more%d", i), "zz")
		}
		before := e.snapshot(t)
		res := e.ok(t, "delete_file", `{"path":"dir","recursive":true,"dry_run":true}`)
		var got DeleteFileResult
		structured(t, res, &got)
		if got.Files != 5 || got.Dirs != 2 || got.Bytes != 8 || !got.DryRun || len(got.Paths) != 4 {
			t.Errorf("got %+v", got)
		}
		wantContains(t, text(res),
			`Dry run: delete_file would delete the directory "dir" and everything in it: 5 files and 1 subdirectory, 8 bytes. Nothing was deleted.`,
			"dir/\ndir/more0\ndir/more1\ndir/more2\n", "Showing 4 of the 7 paths.")
		// A dry run says what the real call would do: here, refuse.
		wantContains(t, e.fail(t, "delete_file", `{"path":"dir","dry_run":true}`), "pass recursive: true")
		if after := e.snapshot(t); after != before {
			t.Errorf("dry run changed the tree:\n%s", after)
		}
	})
}

func TestDeleteFileRemovesALinkNotItsTarget(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "dir/file", "keep")
	e.symlink(t, "dir", "link")
	e.ok(t, "delete_file", `{"path":"link"}`)
	if e.exists(t, "link") || e.read(t, "dir/file") != "keep" {
		t.Error("deleting the link touched its target")
	}
}

func TestDeleteFileNeedsTheAdminLevel(t *testing.T) {
	srv := server.New(server.Options{})
	if err := Register(srv, newMemEnv(t, security.Limits{}).sb); err != nil {
		t.Fatal(err)
	}
	for _, tool := range srv.Tools() {
		if tool.Name == "delete_file" {
			t.Fatal("delete_file is listed by a server that does not allow admin tools")
		}
	}
	if _, err := srv.CallTool(t.Context(), "delete_file", []byte(`{"path":"x"}`)); err == nil || !strings.Contains(err.Error(), "admin") {
		t.Errorf("CallTool = %v, want a refusal that names the admin level", err)
	}
}
