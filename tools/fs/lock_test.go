package fs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

func TestEditsOfDifferentLinesAtOnceAllLand(t *testing.T) {
	const n = 24
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "line %02d: todo\n", i)
		}
		e.write(t, "f.txt", sb.String())
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				a := args(t, map[string]any{"path": "f.txt", "edits": []Edit{{OldText: fmt.Sprintf("line %02d: todo", i), NewText: fmt.Sprintf("line %02d: done by %d", i, i)}}})
				if res := e.call(t, "edit_file", a); res.IsError {
					t.Errorf("edit %d: %s", i, text(res))
				}
			})
		}
		wg.Wait()
		got := e.read(t, "f.txt")
		for i := range n {
			if want := fmt.Sprintf("line %02d: done by %d\n", i, i); !strings.Contains(got, want) {
				t.Errorf("edit %d was lost:\n%s", i, got)
			}
		}
		noTempFiles(t, e)
	})
}

// TestAgentsThatReadAndWriteBackLoseNothing runs edits of single lines
// beside agents that read the whole file and write it back with one line
// added, passing the version they read and reading again when it is
// stale: every change acknowledged must be in the file at the end.
func TestAgentsThatReadAndWriteBackLoseNothing(t *testing.T) {
	const editors, writers = 12, 4
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		var sb strings.Builder
		for i := range editors {
			fmt.Fprintf(&sb, "slot %02d: empty\n", i)
		}
		e.write(t, "f.txt", sb.String())
		var wg sync.WaitGroup
		for i := range editors {
			wg.Go(func() {
				a := args(t, map[string]any{"path": "f.txt", "edits": []Edit{{OldText: fmt.Sprintf("slot %02d: empty", i), NewText: fmt.Sprintf("slot %02d: full", i)}}})
				if res := e.call(t, "edit_file", a); res.IsError {
					t.Errorf("edit %d: %s", i, text(res))
				}
			})
		}
		for w := range writers {
			wg.Go(func() {
				for try := 0; ; try++ {
					if try == 100 {
						t.Errorf("writer %d: still stale after %d tries", w, try)
						return
					}
					read, version := e.readWithVersion(t, "f.txt")
					a := args(t, map[string]any{"path": "f.txt", "content": read + fmt.Sprintf("writer %d was here\n", w), "expected_version": version})
					res := e.call(t, "write_file", a)
					if !res.IsError {
						return
					}
					if !strings.Contains(text(res), "changed since it was read") {
						t.Errorf("writer %d: %s", w, text(res))
						return
					}
				}
			})
		}
		wg.Wait()
		got := e.read(t, "f.txt")
		for i := range editors {
			wantContains(t, got, fmt.Sprintf("slot %02d: full\n", i))
		}
		for w := range writers {
			wantContains(t, got, fmt.Sprintf("writer %d was here\n", w))
		}
	})
}

func TestAChangeWaitsForTheLockAndGivesUpBeforeItsDeadline(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "f.txt", "old\n")
	ts := newToolset(e.sb)
	unlock, err := e.sb.LockWrite(context.Background(), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	before := e.state(t, "f.txt")
	calls := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"write_file", func(ctx context.Context) error {
			_, err := ts.writeFile(ctx, nil, WriteFileArgs{Path: "f.txt", Content: "new\n"})
			return err
		}},
		{"edit_file", func(ctx context.Context) error {
			_, err := ts.editFile(ctx, nil, EditFileArgs{Path: "f.txt", Edits: []Edit{{OldText: "old", NewText: "new"}}})
			return err
		}},
		{"append_file", func(ctx context.Context) error {
			_, err := ts.appendFile(ctx, nil, AppendFileArgs{Path: "f.txt", Content: "more\n"})
			return err
		}},
		{"copy_file", func(ctx context.Context) error {
			_, err := ts.copyFile(ctx, nil, CopyFileArgs{Source: "g.txt", Destination: "f.txt", Overwrite: true})
			return err
		}},
		{"move_file", func(ctx context.Context) error {
			_, err := ts.moveFile(ctx, nil, MoveFileArgs{Source: "f.txt", Destination: "h.txt"})
			return err
		}},
		{"delete_file", func(ctx context.Context) error {
			_, err := ts.deleteFile(ctx, nil, DeleteFileArgs{Path: "f.txt"})
			return err
		}},
	}
	e.write(t, "g.txt", "copy\n")
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			err := c.run(ctx)
			pe, ok := errors.AsType[*security.PathError](err)
			if !ok || pe.Reason != security.Locked || ctx.Err() != nil {
				t.Fatalf("err = %v (context %v), want a Locked refusal before the deadline", err, ctx.Err())
			}
			wantContains(t, err.Error(), `"f.txt"`)
			if after := e.state(t, "f.txt"); after != before {
				t.Errorf("the file changed while another writer held it: %+v", after)
			}
		})
	}
	t.Run("a dry run takes no lock", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if _, err := ts.writeFile(ctx, nil, WriteFileArgs{Path: "f.txt", Content: "new\n", DryRun: true}); err != nil {
			t.Errorf("dry run: %v", err)
		}
		if _, err := ts.editFile(ctx, nil, EditFileArgs{Path: "f.txt", Edits: []Edit{{OldText: "old", NewText: "new"}}, DryRun: true}); err != nil {
			t.Errorf("dry run: %v", err)
		}
	})
}

// readWithVersion returns the text and the version read_file gives of
// name, a whole text file that is not empty.
func (e *env) readWithVersion(t testing.TB, name string) (string, string) {
	t.Helper()
	res := e.ok(t, "read_file", args(t, map[string]any{"path": name}))
	var r ReadFileResult
	structured(t, res, &r)
	if len(res.Content) != 2 {
		t.Fatalf("read_file %s gave %d blocks, want the text and the version", name, len(res.Content))
	}
	return res.Content[0].Text(), r.Version
}

func TestAWriteThatFindsItsFileLockedPastItsTimeSaysAnotherWriterHoldsIt(t *testing.T) {
	dir := t.TempDir()
	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sb := security.NewSandbox(root, security.SandboxOptions{HostRoot: dir})
	srv := server.New(server.Options{AllowAdmin: true, ToolTimeout: time.Second})
	if err := newToolset(sb).register(srv); err != nil {
		t.Fatal(err)
	}
	unlock, err := sb.LockWrite(context.Background(), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, tc := range []struct{ tool, args string }{
		{"write_file", `{"path":"f.txt","content":"new\n"}`},
		{"append_file", `{"path":"f.txt","content":"more\n"}`},
	} {
		res, err := srv.CallTool(context.Background(), tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		// The model reads who holds the file, not that its own time ran
		// out: the wait gave up before the deadline to say so.
		if got := text(res); !res.IsError || !strings.Contains(got, `"f.txt"`) || !strings.Contains(got, "another writer") {
			t.Errorf("%s: %q", tc.tool, got)
		}
	}
}
