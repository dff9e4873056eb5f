package fs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// refusedForSize is the sentence edit_file answers a file over the edit
// limit with.
func refusedForSize(name, size, limit string) string {
	return `"` + name + `" is ` + size + `, more than the ` + limit + ` edit_file works on; change it with smaller tools, or replace it whole with write_file`
}

func TestEditFileWorksUpToTheEditLimitNotTheReadLimit(t *testing.T) {
	// The read limit (8 bytes) does not bound an edit; the edit limit
	// (64 bytes) does, at exactly its size.
	lim := security.Limits{MaxReadBytes: 8, MaxEditBytes: 64}
	for _, c := range []struct {
		name    string
		size    int
		refused bool
	}{
		{"a file over the read limit is edited", 9, false},
		{"a file one byte under the edit limit is edited", 63, false},
		{"a file at the edit limit is edited", 64, false},
		{"a file one byte over the edit limit is refused", 65, true},
		{"a file far over the edit limit is refused", 4096, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bothFS(t, lim, func(t *testing.T, e *env) {
				body := "A" + strings.Repeat("x", c.size-1)
				e.write(t, "f.txt", body)
				call := args(t, map[string]any{"path": "f.txt", "edits": []Edit{{OldText: "A", NewText: "B"}}})
				if c.refused {
					got := e.fail(t, "edit_file", call)
					wantContains(t, got, refusedForSize("f.txt", byteSize(int64(c.size)), "64 bytes"))
					if e.read(t, "f.txt") != body {
						t.Error("a refused edit changed the file")
					}
					return
				}
				e.ok(t, "edit_file", call)
				if got, want := e.read(t, "f.txt"), "B"+body[1:]; got != want {
					t.Errorf("file = %q, want %q", got, want)
				}
			})
		})
	}
}

func TestEditFileDefaultLimitIs16MiB(t *testing.T) {
	// At the default limits a file of 16 MiB is edited and one byte more
	// is refused, in the tool's description as in its answer. A real
	// directory only: two files of 16 MiB in memory add nothing.
	e := newRealEnv(t, security.Limits{})
	if got := e.sb.Limits().MaxEditBytes; got != 16<<20 {
		t.Fatalf("default MaxEditBytes = %d, want 16 MiB", got)
	}
	for _, tool := range e.srv.Tools() {
		if tool.Name == "edit_file" {
			wantContains(t, tool.Description, "Files up to 16777216 bytes (16.0 MiB).")
		}
	}
	at := "A" + strings.Repeat("x\n", 8<<20)[1:]
	e.write(t, "at.txt", at)
	e.write(t, "over.txt", at+"x")
	call := func(name string) string {
		return args(t, map[string]any{"path": name, "edits": []Edit{{OldText: "A", NewText: "B"}}})
	}
	e.ok(t, "edit_file", call("at.txt"))
	if got := e.read(t, "at.txt"); got != "B"+at[1:] {
		t.Errorf("the file of 16 MiB was not edited exactly (%d bytes)", len(got))
	}
	wantContains(t, e.fail(t, "edit_file", call("over.txt")), refusedForSize("over.txt", "16777217 bytes (16.0 MiB)", "16777216 bytes (16.0 MiB)"))
}

func TestEditFileOfALargeFileKeepsItsBytes(t *testing.T) {
	// Over 8 MiB, past the read limit: CRLF line endings, bytes that are
	// not UTF-8 (next to the edit, so that the diff shows them, and far
	// from it) and no line break at the end come back exactly, but for
	// the edit, whose plain line breaks become CRLF.
	line := "\tfmt.Println(\"naïve\") // \xff\xfe not UTF-8\r\n"
	half := strings.Repeat(line, (4<<20)/len(line)+1)
	orig := half + "old line\r\nnext \xc3 line\r\n" + half + "last line, no line break"
	if len(orig) <= 8<<20 {
		t.Fatalf("the file is %d bytes, want more than 8 MiB", len(orig))
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "big.txt", orig)
		res := e.ok(t, "edit_file", args(t, map[string]any{"path": "big.txt",
			"edits": []Edit{{OldText: "old line\nnext", NewText: "new line\nand two\nnext"}}}))
		want := half + "new line\r\nand two\r\nnext \xc3 line\r\n" + half + "last line, no line break"
		if got := e.read(t, "big.txt"); got != want {
			t.Errorf("the edited file is %d bytes, want %d; it differs from the expected text", len(got), len(want))
		}
		var got EditFileResult
		structured(t, res, &got)
		if got.Bytes != int64(len(want)) || got.Applied != 1 || got.DiffTruncated {
			t.Errorf("result: bytes %d, applied %d, diff_truncated %v; want %d, 1, false", got.Bytes, got.Applied, got.DiffTruncated, len(want))
		}
		wantContains(t, got.Diff, "-old line\r\n", "+new line\r\n+and two\r\n")
	})
}

// TestEditFileReservesThreeTimesTheFile: an edit holds the text, the
// edited text and a diff of up to both, so it reserves three times the
// file from the memory budget before it reads, and waits while other
// calls hold more than the rest.
func TestEditFileReservesThreeTimesTheFile(t *testing.T) {
	const budget, fileSize = 1 << 20, 100 << 10
	cases := []struct {
		name   string
		others int64 // what another call holds meanwhile
		waits  bool
	}{
		{"the budget less three times the file held by others", budget - 3*fileSize, false},
		{"a byte more held by others", budget - 3*fileSize + 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := newMemFs()
			sb := security.NewSandbox(mem, security.SandboxOptions{})
			srv := server.New(server.Options{MemoryBudget: budget, ToolTimeout: 5 * time.Second, MaxRepeats: -1})
			if err := newToolset(sb).register(srv); err != nil {
				t.Fatal(err)
			}
			holding, release := make(chan struct{}), make(chan struct{})
			err := server.AddTool(srv, server.ToolSpec{Name: "hog", Description: "d", Level: security.Read},
				func(ctx context.Context, call *server.Call, in hogArgs) (ListDirectoryResult, error) {
					if err := call.Reserve(ctx, in.Bytes); err != nil {
						return ListDirectoryResult{}, err
					}
					holding <- struct{}{}
					<-release
					return ListDirectoryResult{}, nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if err := afero.WriteFile(mem, "f.txt", []byte("old\n"+strings.Repeat("x", fileSize-4)), 0o644); err != nil {
				t.Fatal(err)
			}
			go func() {
				_, _ = srv.CallTool(context.Background(), "hog", []byte(fmt.Sprintf(`{"bytes":%d}`, tc.others)))
			}()
			<-holding
			defer func() { release <- struct{}{} }()
			// A wait is cut short by cancellation; one that is not
			// waiting never sees it.
			ctx, cancel := context.WithCancel(context.Background())
			if tc.waits {
				time.AfterFunc(100*time.Millisecond, cancel)
			}
			defer cancel()
			res, err := srv.CallTool(ctx, "edit_file", []byte(`{"path":"f.txt","edits":[{"old_text":"old","new_text":"new"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			if waited := strings.Contains(text(res), "while it waited for memory"); waited != tc.waits {
				t.Fatalf("waited for memory: %v, want %v: %s", waited, tc.waits, text(res))
			}
			if !tc.waits && res.IsError {
				t.Fatalf("the edit failed: %s", text(res))
			}
		})
	}
}
