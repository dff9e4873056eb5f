package fs

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestToolsNeverBlockOnNamedPipes(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	if err := syscall.Mkfifo(e.dir+"/pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	e.write(t, "a.txt", "pipe dream\n")
	tests := []struct{ name, tool, args, want string }{
		{"read_file refuses a pipe", "read_file", `{"path":"pipe"}`, `"pipe" is a named pipe, not a regular file`},
		{"read_multiple_files reports a pipe inline", "read_multiple_files", `{"paths":["pipe","a.txt"]}`, "pipe dream"},
		{"grep skips a pipe", "grep", `{"query":"pipe"}`, "a.txt:1:pipe dream"},
		{"edit_file refuses a pipe", "edit_file", `{"path":"pipe","edits":[{"old_text":"a","new_text":"b"}]}`, `"pipe" is a named pipe, not a regular file`},
		{"copy_file refuses a pipe", "copy_file", `{"source":"pipe","destination":"p2"}`, "only files and directories can be copied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan string, 1)
			go func() { done <- text(e.call(t, tt.tool, tt.args)) }()
			select {
			case got := <-done:
				wantContains(t, got, tt.want)
			case <-time.After(5 * time.Second):
				t.Fatal("the tool blocked on a named pipe")
			}
		})
	}
}

func TestLinksOutOfTheRootAreRefusedWithoutShowingTheHostPath(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(outside+"/secret.txt", []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newRealEnv(t, security.Limits{})
	e.symlink(t, outside+"/secret.txt", "abs")
	e.symlink(t, outside, "absdir")
	e.symlink(t, "../"+strings.TrimPrefix(outside, "/"), "rel")
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"path":"abs"}`},
		{"read_file", `{"path":"absdir/secret.txt"}`},
		{"list_directory", `{"path":"absdir"}`},
		{"write_file", `{"path":"absdir/new.txt","content":"x"}`},
		{"edit_file", `{"path":"abs","edits":[{"old_text":"secret","new_text":"x"}]}`},
		{"copy_file", `{"source":"abs","destination":"stolen"}`},
		{"grep", `{"path":"absdir","query":"secret"}`},
		{"create_directory", `{"path":"absdir/sub"}`},
	} {
		t.Run(c.tool+" "+c.args, func(t *testing.T) {
			res := e.call(t, c.tool, c.args)
			if !res.IsError {
				t.Fatalf("got %q, want a refusal", text(res))
			}
			if containsAny(text(res), outside, "secret\n") {
				t.Errorf("the error shows the host path or content: %s", text(res))
			}
		})
	}
	if b, _ := os.ReadFile(outside + "/secret.txt"); string(b) != "secret" {
		t.Error("the file outside the root changed")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("something was created outside the root: %v", ents)
	}
}

func TestDryRunsChangeNothing(t *testing.T) {
	calls := []struct{ tool, args string }{
		{"write_file", `{"path":"new.txt","content":"x","dry_run":true}`},
		{"write_file", `{"path":"a.txt","content":"x","dry_run":true}`},
		{"edit_file", `{"path":"a.txt","edits":[{"old_text":"aaa","new_text":"b"}],"dry_run":true}`},
		{"create_directory", `{"path":"n/e/w","dry_run":true}`},
		{"copy_file", `{"source":"dir","destination":"dir2","dry_run":true}`},
		{"copy_file", `{"source":"a.txt","destination":"b.txt","overwrite":true,"dry_run":true}`},
		{"move_file", `{"source":"dir","destination":"other/dir","dry_run":true}`},
		{"move_file", `{"source":"a.txt","destination":"b.txt","overwrite":true,"dry_run":true}`},
		{"delete_file", `{"path":"dir","recursive":true,"dry_run":true}`},
		{"delete_file", `{"path":"a.txt","dry_run":true}`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		moveFixture(t, e)
		before := e.snapshot(t)
		for _, c := range calls {
			t.Run(c.tool+" "+c.args, func(t *testing.T) {
				res := e.ok(t, c.tool, c.args)
				if got := object(t, res); got["dry_run"] != true {
					t.Errorf("dry_run not reported: %v", got)
				}
				if !strings.Contains(text(res), "Dry run") {
					t.Errorf("the text does not say it was a dry run: %s", text(res))
				}
				if after := e.snapshot(t); after != before {
					t.Fatalf("the dry run changed the tree:\n%s\nwas\n%s", after, before)
				}
			})
		}
	})
}
