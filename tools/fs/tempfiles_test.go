package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Temporary entries as a kill leaves them, and names that only look like
// them.
const (
	tempFile   = ".toolserver-0123456789abcdef.tmp"
	tempDir    = ".toolserver-fedcba9876543210.tmp"
	lookalike1 = ".toolserver-0123456789ABCDEF.tmp"
	lookalike2 = ".toolserver-0123456789abcdef.tmp~"
)

// leaveTemps fills e with user files, temporary entries in the root and
// in sub (a file and a directory holding a file), and look-alikes, all
// holding the word "needle".
func leaveTemps(t *testing.T, e *env) {
	t.Helper()
	e.writeAll(t, map[string]string{
		"a.txt":                          "needle",
		"sub/b.txt":                      "needle",
		tempFile:                         "needle in a temporary file",
		"sub/" + tempFile:                "needle in a temporary file",
		"sub/" + tempDir + "/inner.txt":  "needle in a temporary directory",
		tempDir + "/deep/inner.txt":      "needle in a temporary directory",
		lookalike1:                       "needle",
		"sub/" + lookalike2:              "needle",
		"only-temps/" + tempFile:         "needle in a temporary file",
		"only-temps/" + tempDir + "/x.y": "needle",
	})
}

// hiddenIDs are the hex parts of the temporary names, which no output may
// show.
var hiddenIDs = []string{"0123456789abcdef.tmp\"", "0123456789abcdef.tmp\n", "0123456789abcdef.tmp/", "fedcba9876543210"}

func TestTemporaryEntriesAreHiddenFromEveryListingAndCountedNowhere(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		leaveTemps(t, e)
		calls := []struct{ tool, args, want string }{
			{"list_directory", `{}`, ".toolserver-0123456789ABCDEF.tmp\na.txt\nonly-temps/\nsub/\n.: 2 directories, 2 files."},
			{"list_directory", `{"path":"only-temps"}`, `"only-temps" is empty.`},
			{"list_directory", `{"path":"sub","sizes":true,"sort":"size"}`, "2 files"},
			{"directory_tree", `{"depth":5}`, "sub/\n    .toolserver-0123456789abcdef.tmp~\n    b.txt\n"},
			{"search_files", `{"pattern":"**"}`, "6 matches."},
			{"search_files", `{"pattern":"*.tmp","include_ignored":true}`, ".toolserver-0123456789ABCDEF.tmp\n1 match."},
			{"grep", `{"query":"needle"}`, "4 matching lines in 4 files (4 files searched)"},
			{"get_file_info", `{"path":"only-temps"}`, `"entries":0}`},
			{"get_file_info", `{"path":"sub"}`, `"entries":2}`},
			{"copy_file", `{"source":"sub","destination":"copy"}`, "(2 files and 0 subdirectories"},
			{"delete_file", `{"path":"sub","recursive":true,"dry_run":true}`, "2 files and 0 subdirectories"},
		}
		for _, c := range calls {
			got := text(e.ok(t, c.tool, c.args))
			for _, id := range hiddenIDs {
				if strings.Contains(got, id) {
					t.Errorf("%s %s shows a temporary entry:\n%s", c.tool, c.args, got)
				}
			}
			wantContains(t, got, c.want)
		}
		if e.exists(t, "copy/"+tempFile) || e.exists(t, "copy/"+tempDir) {
			t.Error("copy_file copied a temporary entry")
		}
		// Fresh ones are someone's work under way: they stay.
		for _, p := range []string{tempFile, tempDir, "sub/" + tempFile, "sub/" + tempDir} {
			if !e.exists(t, p) {
				t.Errorf("%s was removed, though it is not stale", p)
			}
		}
		// By its path, one is a file like any other.
		wantContains(t, text(e.ok(t, "read_file", `{"path":"`+tempFile+`"}`)), "needle in a temporary file")
		wantContains(t, text(e.ok(t, "get_file_info", `{"path":"sub/`+tempDir+`"}`)), `"type":"dir"`)
	})
}

// staleEnv returns an env and a function that moves its tools' clock on
// by d.
func staleEnv(t *testing.T, opts server.Options, real bool) (*env, func(d time.Duration)) {
	t.Helper()
	var ts *toolset
	fsys, dir := afero.Fs(afero.NewMemMapFs()), ""
	if real {
		dir = t.TempDir()
		root, err := security.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { root.Close() })
		fsys = root
	}
	sb := security.NewSandbox(fsys, security.SandboxOptions{HostRoot: dir})
	srv := server.New(opts)
	ts = newToolset(sb)
	if err := ts.register(srv); err != nil {
		t.Fatal(err)
	}
	e := &env{name: "stale", fs: fsys, sb: sb, srv: srv, dir: dir}
	return e, func(d time.Duration) {
		now := ts.now
		ts.now = func() time.Time { return now().Add(d) }
	}
}

func TestStaleTemporaryEntriesAreRemovedWhereAListingMeetsThem(t *testing.T) {
	for _, real := range []bool{false, true} {
		e, later := staleEnv(t, server.Options{}, real)
		leaveTemps(t, e)
		if real {
			// A move's copy killed after it set the modes of its
			// directories: they must be made writable to be emptied.
			if err := os.Chmod(filepath.Join(e.dir, tempDir, "deep"), 0o500); err != nil {
				t.Fatal(err)
			}
		}
		e.ok(t, "list_directory", `{}`)
		if !e.exists(t, tempFile) || !e.exists(t, tempDir) {
			t.Fatal("a listing removed temporary entries younger than an hour")
		}
		later(staleTempAge - time.Minute)
		e.ok(t, "list_directory", `{}`)
		if !e.exists(t, tempFile) {
			t.Fatal("a listing removed a temporary entry 59 minutes old")
		}
		later(2 * time.Minute)
		e.ok(t, "list_directory", `{}`)
		for _, p := range []string{tempFile, tempDir} {
			if e.exists(t, p) {
				t.Errorf("real %v: the stale %s is still there after a listing of its directory", real, p)
			}
		}
		if !e.exists(t, "sub/"+tempFile) || !e.exists(t, lookalike1) || !e.exists(t, "sub/"+lookalike2) {
			t.Errorf("real %v: a listing of the root removed what is not stale and in it", real)
		}
		e.ok(t, "search_files", `{"pattern":"*.txt"}`) // a walk meets those below
		for _, p := range []string{"sub/" + tempFile, "sub/" + tempDir, "only-temps/" + tempFile} {
			if e.exists(t, p) {
				t.Errorf("real %v: the stale %s is still there after a walk", real, p)
			}
		}
		if !e.exists(t, "sub/"+lookalike2) || !e.exists(t, "a.txt") {
			t.Errorf("real %v: a walk removed what is not a temporary entry", real)
		}
	}
}

func TestAServerThatOnlyReadsRemovesNothing(t *testing.T) {
	e, later := staleEnv(t, server.Options{ReadOnly: true}, false)
	leaveTemps(t, e)
	later(2 * staleTempAge)
	got := text(e.ok(t, "list_directory", `{}`))
	if strings.Contains(got, tempFile) {
		t.Errorf("a read-only server shows a temporary entry: %s", got)
	}
	e.ok(t, "search_files", `{"pattern":"**"}`)
	if !e.exists(t, tempFile) || !e.exists(t, "sub/"+tempDir+"/inner.txt") {
		t.Error("a read-only server removed stale temporary entries")
	}
}

func TestAWriteSweepsItsDirectoryAtMostOnceAnHour(t *testing.T) {
	e, later := staleEnv(t, server.Options{}, true)
	leaveTemps(t, e)
	later(2 * staleTempAge)
	e.ok(t, "write_file", `{"path":"sub/new.txt","content":"x"}`)
	if e.exists(t, "sub/"+tempFile) || e.exists(t, "sub/"+tempDir) {
		t.Error("a write left the stale temporary entries of its directory")
	}
	if !e.exists(t, tempFile) {
		t.Error("a write into sub swept another directory")
	}
	e.write(t, "sub/"+tempFile, "left again")
	old := time.Now().Add(-3 * staleTempAge)
	if err := e.fs.Chtimes("sub/"+tempFile, old, old); err != nil {
		t.Fatal(err)
	}
	e.ok(t, "write_file", `{"path":"sub/new.txt","content":"y"}`)
	if !e.exists(t, "sub/"+tempFile) {
		t.Error("a second write within the hour swept the directory again")
	}
	later(staleTempAge)
	e.ok(t, "edit_file", `{"path":"sub/new.txt","edits":[{"old_text":"y","new_text":"z"}]}`)
	if e.exists(t, "sub/"+tempFile) {
		t.Error("a write an hour later did not sweep the directory")
	}
}

func TestDeleteFileTakesADirectoryHoldingOnlyTemporaryEntriesAsEmpty(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		leaveTemps(t, e)
		got := text(e.ok(t, "delete_file", `{"path":"only-temps"}`))
		wantContains(t, got, `Deleted the directory "only-temps".`)
		if e.exists(t, "only-temps") {
			t.Error("only-temps is still there")
		}
		e.write(t, "full/"+tempFile, "x")
		e.write(t, "full/kept.txt", "x")
		wantContains(t, e.fail(t, "delete_file", `{"path":"full"}`), "not empty (1 file and 0 subdirectories, 1 byte)")
	})
}

func TestNoToolMakesAnEntryWithATemporaryName(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	e.write(t, "a.txt", "x")
	for _, c := range []struct{ tool, args string }{
		{"write_file", `{"path":"` + tempFile + `","content":"x"}`},
		{"create_directory", `{"path":"d/` + tempDir + `/e"}`},
		{"copy_file", `{"source":"a.txt","destination":"` + tempFile + `"}`},
		{"move_file", `{"source":"a.txt","destination":"` + tempFile + `"}`},
	} {
		wantContains(t, e.fail(t, c.tool, c.args), "is a name the server keeps for its own temporary files")
	}
	e.ok(t, "write_file", `{"path":"`+lookalike1+`","content":"x"}`)
}
