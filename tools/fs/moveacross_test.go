//go:build linux

package fs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/internal/atomicfile"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/servertest"
)

// The tests of this file move between the root and "mnt", which a
// mountFs makes another file system.

// crossFixture fills e with what the tests move: files with modes and
// old times, a directory with nested files, a link and an empty
// directory.
func crossFixture(t *testing.T, e *env) {
	e.writeMode(t, "a.txt", "aaa", 0o640)
	e.writeMode(t, "dir/run.sh", "#!/bin/sh\n", 0o750)
	e.write(t, "dir/sub/deep/y.txt", "y")
	e.mkdir(t, "dir/empty")
	e.symlink(t, "sub/deep/y.txt", "dir/link")
	e.write(t, "mnt/old.txt", "old")
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range []string{"a.txt", "dir/run.sh", "dir/sub/deep/y.txt", "dir/sub/deep", "dir/sub", "dir/empty", "dir"} {
		if err := e.fs.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// mtime returns the modification time of name, not followed.
func (e *env) mtime(t testing.TB, name string) time.Time {
	t.Helper()
	fi, err := lstat(e.fs, name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// noTempEntries fails the test if a temporary file or directory of a
// write or a move was left anywhere in e.
func noTempEntries(t *testing.T, e *env) {
	t.Helper()
	_ = filepath.WalkDir(e.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), atomicfile.TempPrefix) {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
}

func TestMoveFileAcrossFileSystems(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		gone    []string
		want    map[string]string // path: content, or "-> target" for a link
		summary string
		err     string
	}{
		{name: "a file is copied, then the original deleted",
			args: `{"source":"a.txt","destination":"mnt/a.txt"}`, gone: []string{"a.txt"},
			want:    map[string]string{"mnt/a.txt": "aaa"},
			summary: `Moved the file "a.txt" (3 bytes) to "mnt/a.txt". They are on different file systems, so it was copied, then the original deleted.`},
		{name: "a file comes back the other way",
			args: `{"source":"mnt/old.txt","destination":"old.txt"}`, gone: []string{"mnt/old.txt"},
			want: map[string]string{"old.txt": "old"}},
		{name: "a file replaces a file only with overwrite",
			args: `{"source":"a.txt","destination":"mnt/old.txt","overwrite":true}`, gone: []string{"a.txt"},
			want:    map[string]string{"mnt/old.txt": "aaa"},
			summary: `Moved the file "a.txt" (3 bytes) to "mnt/old.txt", replacing the file "mnt/old.txt" (3 bytes). They are on different file systems`},
		{name: "without overwrite an existing file stays",
			args: `{"source":"a.txt","destination":"mnt/old.txt"}`,
			err:  `destination "mnt/old.txt" already exists`},
		{name: "a directory moves with its files, links and empty directories",
			args: `{"source":"dir","destination":"mnt/dir"}`, gone: []string{"dir"},
			want: map[string]string{"mnt/dir/run.sh": "#!/bin/sh\n", "mnt/dir/sub/deep/y.txt": "y", "mnt/dir/link": "-> sub/deep/y.txt", "mnt/dir/empty/": ""},
			summary: `Moved the directory "dir" (2 files, 1 symbolic link and 3 subdirectories, 11 bytes) to "mnt/dir". ` +
				`They are on different file systems, so it was copied, then the original deleted.`},
		{name: "a directory never replaces a file",
			args: `{"source":"dir","destination":"mnt/old.txt","overwrite":true}`, err: `a file is only replaced by a file`},
		{name: "a directory never replaces a directory",
			args: `{"source":"dir","destination":"mnt","overwrite":true}`, err: `destination "mnt" is an existing directory`},
		{name: "a link is moved as a link, its target as stored",
			args: `{"source":"dir/link","destination":"mnt/link"}`, gone: []string{"dir/link"},
			want: map[string]string{"mnt/link": "-> sub/deep/y.txt"}},
		{name: "a link replaces a file with overwrite",
			args: `{"source":"dir/link","destination":"mnt/old.txt","overwrite":true}`, gone: []string{"dir/link"},
			want: map[string]string{"mnt/old.txt": "-> sub/deep/y.txt"}},
	}
	for _, sameDevices := range []bool{false, true} {
		t.Run(fmt.Sprintf("same devices %v", sameDevices), func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					e, m := newMountEnv(t, security.Limits{}, "mnt")
					m.sameDevices = sameDevices
					crossFixture(t, e)
					before := e.snapshot(t)
					times := map[string]time.Time{}
					for _, p := range []string{"a.txt", "dir", "dir/run.sh", "dir/sub/deep", "mnt/old.txt"} {
						times[p] = e.mtime(t, p)
					}
					res := e.call(t, "move_file", tt.args)
					if !outcome(t, res, tt.err) {
						if after := e.snapshot(t); after != before {
							t.Errorf("a refused move changed the tree:\n%s", after)
						}
						return
					}
					wantContains(t, text(res), tt.summary)
					if got := object(t, res)["copied"]; got != true {
						t.Errorf("copied = %v, want true", got)
					}
					for _, p := range tt.gone {
						if e.exists(t, p) {
							t.Errorf("%s is still there", p)
						}
					}
					for p, want := range tt.want {
						switch {
						case strings.HasPrefix(want, "-> "):
							got, err := m.ReadlinkIfPossible(p)
							if err != nil || got != want[3:] {
								t.Errorf("%s links to %q (%v), want %q", p, got, err, want[3:])
							}
						case strings.HasSuffix(p, "/"):
							if fi, err := e.fs.Stat(p); err != nil || !fi.IsDir() {
								t.Errorf("%s is not a directory: %v", p, err)
							}
						default:
							if got := e.read(t, p); got != want {
								t.Errorf("%s = %q, want %q", p, got, want)
							}
						}
					}
					noTempEntries(t, e)
				})
			}
		})
	}
}

func TestMoveFileAcrossFileSystemsKeepsModesAndTimes(t *testing.T) {
	e, _ := newMountEnv(t, security.Limits{}, "mnt")
	crossFixture(t, e)
	if err := e.fs.Chmod("dir/sub", 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.fs.Chmod("mnt/dir/sub", 0o755); _ = e.fs.Chmod("dir/sub", 0o755) })
	want := map[string]struct {
		mode fs.FileMode
		time time.Time
	}{}
	for _, p := range []string{"dir", "dir/run.sh", "dir/sub", "dir/sub/deep", "dir/sub/deep/y.txt", "dir/empty"} {
		fi, err := lstat(e.fs, p)
		if err != nil {
			t.Fatal(err)
		}
		want["mnt/"+p] = struct {
			mode fs.FileMode
			time time.Time
		}{fi.Mode(), fi.ModTime()}
	}
	want["mnt/a.txt"] = struct {
		mode fs.FileMode
		time time.Time
	}{0o640, e.mtime(t, "a.txt")}
	e.ok(t, "move_file", `{"source":"dir","destination":"mnt/dir"}`)
	e.ok(t, "move_file", `{"source":"a.txt","destination":"mnt/a.txt"}`)
	for p, w := range want {
		fi, err := lstat(e.fs, p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != w.mode || !fi.ModTime().Equal(w.time) {
			t.Errorf("%s: %v %v, want %v %v", p, fi.Mode(), fi.ModTime(), w.mode, w.time)
		}
	}
}

func TestMoveFileAcrossFileSystemsRefusesWhatItCannotMakeAgain(t *testing.T) {
	e, _ := newMountEnv(t, security.Limits{}, "mnt")
	crossFixture(t, e)
	e.symlink(t, "/etc/hostname", "abs")
	e.write(t, "mnt/deep/sub/f", "f")
	e.symlink(t, "../../../a.txt", "mnt/deep/sub/up")
	e.mkdir(t, "pipes")
	if err := syscall.Mkfifo(e.dir+"/pipes/p", 0o644); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot(t)
	wantContains(t, e.fail(t, "move_file", `{"source":"abs","destination":"mnt/abs"}`),
		`"abs" is a symbolic link whose target is absolute or leads out of the root from "mnt", and the sandbox makes only links that stay inside it; it cannot be moved to another file system, and nothing was moved`)
	wantContains(t, e.fail(t, "move_file", `{"source":"mnt/deep","destination":"deep"}`),
		`"mnt/deep" holds the symbolic link "mnt/deep/sub/up", whose target is absolute or would lead out of the root from "deep/sub", and the sandbox makes only links that stay inside it; the directory cannot be moved to another file system, and nothing was moved`)
	wantContains(t, e.fail(t, "move_file", `{"source":"pipes","destination":"mnt/pipes"}`),
		`"pipes" holds a named pipe, "pipes/p", which cannot be made again on another file system; move or delete it first, or copy the directory with copy_file, which leaves such files out; nothing was moved`)
	wantContains(t, e.fail(t, "move_file", `{"source":"pipes/p","destination":"mnt/p"}`),
		`"pipes/p" is a named pipe; between file systems move_file moves only files, directories and symbolic links, and nothing was moved`)
	if after := e.snapshot(t); after != before {
		t.Errorf("a refused move changed the tree:\n%s", after)
	}
	// Where the link still leads inside the root, it moves, as stored.
	e.mkdir(t, "other")
	e.ok(t, "move_file", `{"source":"mnt/deep","destination":"other/deep"}`)
	if e.read(t, "other/deep/sub/up") != "aaa" {
		t.Error("the moved link does not lead to a.txt")
	}
}

func TestMoveFileAcrossFileSystemsDryRun(t *testing.T) {
	for _, sameDevices := range []bool{false, true} {
		t.Run(fmt.Sprintf("same devices %v", sameDevices), func(t *testing.T) {
			e, m := newMountEnv(t, security.Limits{}, "mnt")
			m.sameDevices = sameDevices
			crossFixture(t, e)
			before := e.snapshot(t)
			res := e.ok(t, "move_file", `{"source":"dir","destination":"mnt/dir","dry_run":true}`)
			file := e.ok(t, "move_file", `{"source":"a.txt","destination":"mnt/a.txt","dry_run":true}`)
			same := e.ok(t, "move_file", `{"source":"a.txt","destination":"dir/a.txt","dry_run":true}`)
			if sameDevices {
				// Nothing tells before the rename.
				wantContains(t, text(res), `Dry run: move_file would move the directory "dir" to "mnt/dir". Nothing was moved.`)
			} else {
				wantContains(t, text(res), `Dry run: move_file would move the directory "dir" (2 files, 1 symbolic link and 3 subdirectories, 11 bytes) to "mnt/dir". `+
					`They are on different file systems, so it would be copied, then the original deleted. Nothing was moved.`)
				wantContains(t, text(file), `Dry run: move_file would move the file "a.txt" (3 bytes) to "mnt/a.txt". They are on different file systems, so it would be copied, then the original deleted. Nothing was moved.`)
				if object(t, res)["copied"] != true {
					t.Errorf("copied is not set: %s", text(res))
				}
			}
			wantContains(t, text(same), `Dry run: move_file would move the file "a.txt" (3 bytes) to "dir/a.txt". Nothing was moved.`)
			if after := e.snapshot(t); after != before {
				t.Errorf("a dry run changed the tree:\n%s", after)
			}
		})
	}
}

func TestMoveFileAcrossFileSystemsWithinTheLimits(t *testing.T) {
	for _, sameDevices := range []bool{false, true} {
		t.Run(fmt.Sprintf("same devices %v", sameDevices), func(t *testing.T) {
			e, m := newMountEnv(t, security.Limits{MaxWriteBytes: 256, MaxResults: 4}, "mnt")
			m.sameDevices = sameDevices
			e.write(t, "big.bin", strings.Repeat("x", 257))
			e.write(t, "huge/a", strings.Repeat("x", 200))
			e.write(t, "huge/b", strings.Repeat("x", 100))
			for i := range 5 {
				e.write(t, fmt.Sprintf("many/f%d", i), "")
			}
			before := e.snapshot(t)
			wantContains(t, e.fail(t, "move_file", `{"source":"big.bin","destination":"mnt/big.bin"}`),
				`"big.bin" is 257 bytes, more than the 256 bytes one call may write (the server's --max-write-bytes limit); moving it to another file system means copying it, so nothing was moved`)
			wantContains(t, e.fail(t, "move_file", `{"source":"huge","destination":"mnt/huge"}`),
				`"huge" is on another file system than "mnt", so moving it means copying it, and "huge" holds more than 256 bytes, the most one call may write (the server's --max-write-bytes limit); move its subdirectories one at a time; nothing was moved`)
			wantContains(t, e.fail(t, "move_file", `{"source":"many","destination":"mnt/many"}`),
				`"many" holds more than 4 entries, the most move_file moves at once; move its subdirectories one at a time; nothing was moved`)
			if after := e.snapshot(t); after != before {
				t.Errorf("a refused move changed the tree:\n%s", after)
			}
			// Within one file system a rename has no such limits.
			e.ok(t, "move_file", `{"source":"many","destination":"many2"}`)
		})
	}
}

func TestMoveFileAcrossFileSystemsWhenTheOriginalCannotBeDeleted(t *testing.T) {
	e, m := newMountEnv(t, security.Limits{}, "mnt")
	crossFixture(t, e)
	m.failRemove = func(name string) error {
		if name == "a.txt" || name == "dir/sub/deep/y.txt" {
			return &fs.PathError{Op: "remove", Path: name, Err: syscall.EACCES}
		}
		return nil
	}
	wantContains(t, e.fail(t, "move_file", `{"source":"a.txt","destination":"mnt/a.txt"}`),
		`"a.txt" was copied to "mnt/a.txt", which is on another file system, and the copy is complete, but the original could not be deleted: permission denied for "a.txt"; the server may not access it. Both exist now; compare them, then delete the one you do not want with delete_file`)
	if e.read(t, "a.txt") != "aaa" || e.read(t, "mnt/a.txt") != "aaa" {
		t.Error("the copy and the original should both be there")
	}
	wantContains(t, e.fail(t, "move_file", `{"source":"dir","destination":"mnt/dir"}`),
		`"dir" was copied to "mnt/dir", which is on another file system, and the copy is complete, but the original could not be deleted entirely: permission denied for "dir/sub/deep/y.txt"; the server may not access it. What remains of it is still at "dir"; check it against the copy, then delete it with delete_file`)
	if e.read(t, "dir/sub/deep/y.txt") != "y" || e.read(t, "mnt/dir/sub/deep/y.txt") != "y" || e.read(t, "mnt/dir/run.sh") != "#!/bin/sh\n" {
		t.Error("the copy should be whole, and the file that could not be deleted still there")
	}
	for _, p := range []string{"dir/run.sh", "dir/link", "dir/empty"} {
		if e.exists(t, p) {
			t.Errorf("%s was copied and should be gone", p)
		}
	}
	noTempEntries(t, e)
}

func TestMoveFileAcrossFileSystemsNeverDeletesWhatItDidNotCopy(t *testing.T) {
	e, m := newMountEnv(t, security.Limits{}, "mnt")
	crossFixture(t, e)
	// Once the first file is copied, it changes, and a file appears.
	m.onRead = func(name string) {
		if name == "dir/sub/deep/y.txt" {
			m.onRead = nil
			_ = afero.WriteFile(e.fs, "dir/sub/new.txt", []byte("new"), 0o644)
			_ = afero.WriteFile(e.fs, "dir/run.sh", []byte("changed"), 0o644)
		}
	}
	msg := e.fail(t, "move_file", `{"source":"dir","destination":"mnt/dir"}`)
	wantContains(t, msg, `"dir" was copied to "mnt/dir", which is on another file system, and the copy is complete, but the original could not be deleted entirely: `+
		`these changed or gained entries while they were being moved, so they were kept with the directories holding them: "dir/run.sh", "dir/sub". `+
		`What remains of it is still at "dir"; check it against the copy, then delete it with delete_file`)
	if e.read(t, "dir/sub/new.txt") != "new" || e.read(t, "dir/run.sh") != "changed" || e.exists(t, "dir/sub/deep") || e.exists(t, "dir/link") ||
		e.read(t, "mnt/dir/run.sh") != "#!/bin/sh\n" || e.exists(t, "mnt/dir/sub/new.txt") {
		t.Errorf("after %s:\n%s", msg, e.snapshot(t))
	}

	t.Run("a file that changes while it is copied is not moved", func(t *testing.T) {
		m.onRead = func(name string) {
			if name == "a.txt" {
				m.onRead = nil
				f, err := os.OpenFile(e.dir+"/a.txt", os.O_APPEND|os.O_WRONLY, 0)
				if err == nil {
					_, _ = f.WriteString("more")
					f.Close()
				}
			}
		}
		wantContains(t, e.fail(t, "move_file", `{"source":"a.txt","destination":"mnt/a.txt"}`),
			`"a.txt" was not moved to "mnt/a.txt", which is on another file system, and is as it was: "a.txt" changed while it was being copied, and nothing was written to "mnt/a.txt"; try again`)
		if e.exists(t, "mnt/a.txt") || e.read(t, "a.txt") != "aaamore" {
			t.Error("the changed file should stay, and nothing be written")
		}
	})
	noTempEntries(t, e)
}

func TestMoveFileAcrossFileSystemsCancelledMidCopy(t *testing.T) {
	for _, tc := range []struct {
		name, source, readAt string
		cancelAt             int // the read that cancels
	}{
		{"a file", "big.bin", "big.bin", 2},
		{"a directory", "dir", "dir/run.sh", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, m := newMountEnv(t, security.Limits{}, "mnt")
			crossFixture(t, e)
			e.write(t, "big.bin", strings.Repeat("0123456789abcdef", 1<<18)) // 4 MiB: several chunks
			before := e.snapshot(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			reads := 0
			m.onRead = func(name string) {
				if name == tc.readAt {
					if reads++; reads == tc.cancelAt {
						cancel()
					}
				}
			}
			res, err := e.srv.CallTool(ctx, "move_file", json.RawMessage(`{"source":"`+tc.source+`","destination":"mnt/moved"}`))
			m.onRead = nil
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError {
				t.Fatalf("the cancelled move succeeded: %s", text(res))
			}
			if reads < tc.cancelAt {
				t.Fatalf("the source was read %d times; the test did not cancel mid-copy", reads)
			}
			if after := e.snapshot(t); after != before {
				t.Errorf("a cancelled move changed the tree:\n%s", after)
			}
			noTempEntries(t, e)
		})
	}
}

func TestMoveFileAcrossFileSystemsReportsProgress(t *testing.T) {
	e, _ := newMountEnv(t, security.Limits{}, "mnt")
	chunk := strings.Repeat("0123456789abcdef", 1<<20) // 16 MiB
	e.write(t, "big.bin", chunk+chunk+"x")
	e.write(t, "tree/a", chunk)
	e.write(t, "tree/b", chunk)
	e.write(t, "tree/c", "c")
	c := servertest.Start(t, e.srv)
	progress := func(id int, args string) []string {
		c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"move_file","arguments":%s,"_meta":{"progressToken":"p"}}}`, id, args))
		var got []string
		for {
			l := c.Recv()
			var m struct {
				Method string
				Params struct {
					Progress, Total float64
					Message         string
				}
				Result json.RawMessage
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			if m.Method != "notifications/progress" {
				if !strings.Contains(string(m.Result), "different file systems") {
					t.Fatalf("got %s", l)
				}
				return got
			}
			got = append(got, fmt.Sprintf("%.0f/%.0f %s", m.Params.Progress, m.Params.Total, m.Params.Message))
		}
	}
	got := strings.Join(progress(1, `{"source":"big.bin","destination":"mnt/big.bin"}`), "; ")
	if got != "16777216/33554433 copied 16777216 bytes (16.0 MiB) of 33554433 bytes (32.0 MiB); 33554432/33554433 copied 33554432 bytes (32.0 MiB) of 33554433 bytes (32.0 MiB)" {
		t.Errorf("progress of a file: %s", got)
	}
	// The walk's order decides after which file the 16 MiB are passed.
	got = strings.Join(progress(2, `{"source":"tree","destination":"mnt/tree"}`), "; ")
	if got != "1/3 copied 1 of 3 files" && got != "2/3 copied 2 of 3 files" && got != "2/3 copied 2 of 3 files; 3/3 copied 3 of 3 files" && got != "1/3 copied 1 of 3 files; 3/3 copied 3 of 3 files" {
		t.Errorf("progress of a directory: %s", got)
	}
}

func TestMoveFileAcrossFileSystemsCleansUpAFailedCopy(t *testing.T) {
	e, m := newMountEnv(t, security.Limits{}, "mnt")
	crossFixture(t, e)
	before := e.snapshot(t)
	// While the first file is copied, a directory takes the place of the
	// second in the temporary copy, so that it cannot be written.
	m.onRead = func(name string) {
		if name != "dir/run.sh" {
			return
		}
		m.onRead = nil
		tmps, _ := filepath.Glob(e.dir + "/mnt/" + atomicfile.TempPrefix + "*" + atomicfile.TempSuffix)
		if len(tmps) != 1 {
			t.Errorf("temporary directories: %v", tmps)
			return
		}
		if err := os.Mkdir(tmps[0]+"/sub/deep/y.txt", 0o755); err != nil {
			t.Error(err)
		}
	}
	wantContains(t, e.fail(t, "move_file", `{"source":"dir","destination":"mnt/dir"}`),
		`"dir" was not moved to "mnt/dir", which is on another file system, and is as it was: the copy stopped after 1 of 2 files: `,
		`. What was copied was deleted`)
	if after := e.snapshot(t); after != before {
		t.Errorf("a failed move changed the tree:\n%s", after)
	}
	noTempEntries(t, e)

	t.Run("a destination that appears during the copy stops it", func(t *testing.T) {
		m.onRead = func(name string) {
			if name == "dir/run.sh" {
				m.onRead = nil
				e.mkdir(t, "mnt/dir")
			}
		}
		wantContains(t, e.fail(t, "move_file", `{"source":"dir","destination":"mnt/dir"}`),
			`"dir" was not moved to "mnt/dir", which is on another file system, and is as it was: the copy was made, but could not be put in place: "mnt/dir" appeared meanwhile. What was copied was deleted`)
		if err := e.fs.Remove("mnt/dir"); err != nil {
			t.Fatal(err)
		}
		if after := e.snapshot(t); after != before {
			t.Errorf("a failed move changed the tree:\n%s", after)
		}
		noTempEntries(t, e)
	})
}

func TestMoveFileAcrossFileSystemsKeepsHolesWithinTheCap(t *testing.T) {
	e, _ := newMountEnv(t, security.Limits{MaxWriteBytes: 3 << 30}, "mnt")
	src := sparseFile(t, e.dir, "sparse.bin", 2<<30)
	srcBlocks := blocks(t, src)
	wantContains(t, text(e.ok(t, "move_file", `{"source":"sparse.bin","destination":"mnt/moved.bin"}`)),
		`Moved the file "sparse.bin" (2147483648 bytes (2.0 GiB)) to "mnt/moved.bin". They are on different file systems, so it was copied, then the original deleted.`)
	if e.exists(t, "sparse.bin") {
		t.Error("the original is still there")
	}
	if got := blocks(t, filepath.Join(e.dir, "mnt/moved.bin")); got > 2*srcBlocks+64 {
		t.Errorf("the moved file occupies %d KiB; the sparse source only %d KiB", got/2, srcBlocks/2)
	}
	sparseFile(t, e.dir, "huge.bin", 4<<30)
	wantContains(t, e.fail(t, "move_file", `{"source":"huge.bin","destination":"mnt/moved2.bin"}`),
		`"huge.bin" is 4294967296 bytes (4.0 GiB), more than the 3221225472 bytes (3.0 GiB) one call may write (the server's --max-write-bytes limit); moving it to another file system means copying it, so nothing was moved`)
	if !e.exists(t, "huge.bin") || e.exists(t, "mnt/moved2.bin") {
		t.Error("a refused move changed the tree")
	}
}

func TestMountFsIsSeenAsAnotherFileSystem(t *testing.T) {
	e, m := newMountEnv(t, security.Limits{}, "mnt")
	e.write(t, "a", "a")
	err := m.Rename("a", "mnt/a")
	var le *os.LinkError
	if !errors.Is(err, syscall.EXDEV) || !errors.As(err, &le) {
		t.Fatalf("Rename = %v, want an *os.LinkError with EXDEV", err)
	}
	if err := m.Rename("a", "b"); err != nil {
		t.Fatal(err)
	}
}
