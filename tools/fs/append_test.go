package fs

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

func TestAppendFile(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		file    string // the file to check afterwards
		content string
		created bool
		summary string
		err     string
	}{
		{name: "text is added at the end exactly as given", args: `{"path":"log.txt","content":"two\n"}`,
			file: "log.txt", content: "one\ntwo\n", summary: `Appended 4 bytes to "log.txt" (now 8 bytes).`},
		{name: "no newline is added, and none is needed before", args: `{"path":"log.txt","content":"two"}`,
			file: "log.txt", content: "one\ntwo"},
		{name: "CRLF, tabs and text beyond ASCII are added as given", args: `{"path":"log.txt","content":"\tnaïve 😀\r\n"}`,
			file: "log.txt", content: "one\n\tnaïve 😀\r\n"},
		{name: "nothing added leaves the file as it was", args: `{"path":"log.txt","content":""}`,
			file: "log.txt", content: "one\n", summary: `Appended 0 bytes to "log.txt" (now 4 bytes).`},
		{name: "a missing file is created, as >> does", args: `{"path":"d/new.txt","content":"first\n"}`,
			file: "d/new.txt", content: "first\n", created: true, summary: `Created "d/new.txt" with 6 bytes.`},
		{name: "an empty file takes text", args: `{"path":"empty.txt","content":"x"}`,
			file: "empty.txt", content: "x"},
		{name: "a missing directory is an error", args: `{"path":"no/such.txt","content":"x"}`,
			err: `the directory "no" does not exist; create it with create_directory first`},
		{name: "a directory is refused", args: `{"path":"d","content":"x"}`,
			err: `"d" is a directory, and only files can be written`},
		{name: "a binary file is refused", args: `{"path":"data.bin","content":"x"}`,
			err: `"data.bin" is not a text file (it is binary); append_file changes text files only`},
		{name: "an image is refused", args: `{"path":"pic.png","content":"x"}`,
			err: `"pic.png" is not a text file (it is an image); append_file changes text files only`},
		{name: "a size past the write limit after the append is refused", args: `{"path":"log.txt","content":"0123456789abcdefghij"}`,
			err: `appending 20 bytes to "log.txt" (4 bytes now) would make it 24 bytes, more than the 20 bytes one call may write (the server's --max-write-bytes limit); nothing was written`},
		{name: "the write limit may be reached exactly", args: `{"path":"log.txt","content":"0123456789abcdef"}`,
			file: "log.txt", content: "one\n0123456789abcdef"},
		{name: "a new file past the write limit is refused", args: `{"path":"big.txt","content":"0123456789abcdefghijk"}`,
			err: `is 21 bytes, more than the 20 bytes one call may write`},
		{name: "the server's temporary names are refused", args: `{"path":".toolserver-0123456789abcdef.tmp","content":"x"}`,
			err: "is a name the server keeps for its own temporary files"},
		{name: "control characters are refused", args: `{"path":"log.txt","content":"a\u0000"}`,
			err: `"content"`},
	}
	bothFS(t, security.Limits{MaxWriteBytes: 20}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e.writeAll(t, map[string]string{"log.txt": "one\n", "empty.txt": "", "data.bin": "\x00\x01\x02", "pic.png": pngHeader + "\x00"})
				e.mkdir(t, "d")
				_ = e.fs.Remove("d/new.txt")
				before := e.snapshot(t)
				res := e.call(t, "append_file", tt.args)
				if !outcome(t, res, tt.err) {
					if after := e.snapshot(t); after != before {
						t.Errorf("a refused append changed the tree:\n%s\nwas\n%s", after, before)
					}
					return
				}
				if got := e.read(t, tt.file); got != tt.content {
					t.Errorf("file = %q, want %q", got, tt.content)
				}
				var got AppendFileResult
				structured(t, res, &got)
				if got.Created != tt.created || got.Size != int64(len(tt.content)) || got.Path != tt.file || got.Version == "" {
					t.Errorf("result = %+v", got)
				}
				wantContains(t, anyVersion(text(res)), tt.summary, "[version V]")
				noTempFiles(t, e)
			})
		}
	})
}

func TestAppendFileKeepsTheModeAndMakesNewFilesReadable(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeMode(t, "script.sh", "#!/bin/sh\n", 0o755)
		e.ok(t, "append_file", `{"path":"script.sh","content":"echo hi\n"}`)
		e.ok(t, "append_file", `{"path":"fresh.txt","content":"f"}`)
		for name, want := range map[string]fs.FileMode{"script.sh": 0o755, "fresh.txt": 0o644} {
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

func TestAppendFileDryRunChangesNothing(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "log.txt", "one\n")
		before := e.snapshot(t)
		res := e.ok(t, "append_file", `{"path":"log.txt","content":"two\n","dry_run":true}`)
		wantContains(t, text(res), `Dry run: append_file would add 4 bytes to the end of "log.txt" (4 bytes now, 8 bytes after). Nothing was written.`)
		res = e.ok(t, "append_file", `{"path":"new.txt","content":"two\n","dry_run":true}`)
		wantContains(t, text(res), `Dry run: append_file would create "new.txt" with 4 bytes. Nothing was written.`)
		if after := e.snapshot(t); after != before {
			t.Errorf("dry run changed the tree:\n%s\nwas\n%s", after, before)
		}
	})
}

func TestManyAppendsAtOnceAllLandWhole(t *testing.T) {
	const n = 40
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "log.txt", "")
		var wg sync.WaitGroup
		lines := make([]string, n)
		for i := range n {
			lines[i] = fmt.Sprintf("entry %02d %s\n", i, strings.Repeat("=", 100*i))
			wg.Go(func() {
				if res := e.call(t, "append_file", args(t, map[string]any{"path": "log.txt", "content": lines[i]})); res.IsError {
					t.Errorf("append %d: %s", i, text(res))
				}
			})
		}
		wg.Wait()
		got := e.read(t, "log.txt")
		for i, l := range lines {
			if c := strings.Count(got, l); c != 1 {
				t.Errorf("entry %d appears %d times whole, want once", i, c)
			}
		}
		if want := len(strings.Join(lines, "")); len(got) != want {
			t.Errorf("the file holds %d bytes, want %d", len(got), want)
		}
	})
}

// cutFs is a file system whose appends fail half-way with ENOSPC, as a
// disk that fills up does, and, with failTruncate, cannot be truncated
// either.
type cutFs struct {
	afero.Fs
	failTruncate bool
	writeNothing bool // the write fails before a byte of it lands
}

func (c cutFs) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	f, err := c.Fs.OpenFile(name, flag, perm)
	if err != nil || flag&os.O_APPEND == 0 {
		return f, err
	}
	return cutFile{File: f, fs: c}, nil
}

type cutFile struct {
	afero.File
	fs cutFs
}

func (f cutFile) Write(p []byte) (int, error) {
	half := len(p) / 2
	if f.fs.writeNothing {
		half = 0
	}
	n, err := f.File.Write(p[:half])
	if err != nil {
		return n, err
	}
	return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (f cutFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f cutFile) Truncate(size int64) error {
	if f.fs.failTruncate {
		return &fs.PathError{Op: "truncate", Path: f.Name(), Err: syscall.EIO}
	}
	return f.File.Truncate(size)
}

func TestAFailedAppendIsCutBack(t *testing.T) {
	for _, tt := range []struct {
		name         string
		failTruncate bool
		writeNothing bool
		want         string
		content      string
	}{
		// Nothing landed: the file is not truncated (which would change its
		// times, and so its version), so a truncate that would fail is
		// never tried.
		{name: "a write that landed nothing leaves the file untouched", failTruncate: true, writeNothing: true, want: "no space is left on the disk", content: "one\n"},
		{name: "the file is as it was", want: "no space is left on the disk", content: "one\n"},
		{name: "a file that cannot be cut back is named", failTruncate: true, content: "one\ntw",
			want: `the append to "log.txt" failed (no space is left on the disk to write "log.txt"; free some space or write less)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mem := newMemFs()
			e := newEnv(t, "cut", cutFs{Fs: mem, failTruncate: tt.failTruncate, writeNothing: tt.writeNothing}, "", security.Limits{})
			e.write(t, "log.txt", "one\n")
			got := e.fail(t, "append_file", `{"path":"log.txt","content":"two\n"}`)
			wantContains(t, got, tt.want)
			if tt.failTruncate && !tt.writeNothing {
				wantContains(t, got, `and the file could not be cut back to its former 4 bytes, so it may end with part of the text; read its end (read_file with tail) before you append again`)
			}
			if tt.writeNothing && strings.Contains(got, "cut back") {
				t.Errorf("a write that landed nothing was cut back: %s", got)
			}
			if b, _ := afero.ReadFile(mem, "log.txt"); string(b) != tt.content {
				t.Errorf("log.txt holds %q, want %q", b, tt.content)
			}
		})
	}
}

func TestAppendFileReadsOnlyTheStartOfTheFile(t *testing.T) {
	var read atomic.Int64
	mem := newMemFs()
	content := strings.Repeat(bigLines(100), 2000) // 1.6 MB
	if err := afero.WriteFile(mem, "log.txt", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "counting", countingFs{mem, &read}, "", security.Limits{})
	v := e.versionOfFile(t, "log.txt")
	read.Store(0)
	e.ok(t, "append_file", args(t, map[string]any{"path": "log.txt", "content": "last\n", "expected_version": v}))
	if n := read.Load(); n > 2*sniffLen {
		t.Errorf("an append to a %d-byte file read %d bytes of it", len(content), n)
	}
	if got := e.read(t, "log.txt"); got != content+"last\n" {
		t.Errorf("the file does not end with the text appended: %q", got[len(got)-20:])
	}
}

func TestAppendFileWithoutAnExpectedVersionReadsTheFileOnceForItsVersion(t *testing.T) {
	// A file whose version holds its content: the version before the
	// append is not asked for, so only the start is read before, and the
	// file whole once after, for the version the result gives.
	var read atomic.Int64
	mem := newMemFs()
	content := strings.Repeat(bigLines(100), 50) // 40 KB
	if err := afero.WriteFile(mem, "log.txt", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(content) <= sniffLen || len(content)+5 > versionContentMax {
		t.Fatalf("the file of %d bytes must be longer than the start read and have its content in its version", len(content))
	}
	e := newEnv(t, "counting", countingFs{mem, &read}, "", security.Limits{})
	var r AppendFileResult
	structured(t, e.ok(t, "append_file", `{"path":"log.txt","content":"last\n"}`), &r)
	if n, most := read.Load(), int64(sniffLen)+r.Size; n > most || r.Version == "" {
		t.Errorf("an append without expected_version to a %d-byte file read %d bytes of it, more than its start and the new file once (%d); version %q",
			len(content), n, most, r.Version)
	}
}

func TestAppendFileDryRunWithAnExpectedVersionCountsTheFileItAddsTo(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "log.txt", "one\n")
		v := e.versionOfFile(t, "log.txt")
		var r AppendFileResult
		structured(t, e.ok(t, "append_file", args(t, map[string]any{"path": "log.txt", "content": "two\n", "expected_version": v, "dry_run": true})), &r)
		if r.Size != 8 || r.Bytes != 4 {
			t.Errorf("a dry run of 4 bytes onto 4 gave size %d, bytes %d", r.Size, r.Bytes)
		}
	})
}

// eioFs is a file system whose files cannot be read: every read of a
// file opened to read fails with EIO, as a failing disk's does.
type eioFs struct{ afero.Fs }

func (e eioFs) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	f, err := e.Fs.OpenFile(name, flag, perm)
	if err != nil || flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return f, err
	}
	return eioFile{f}, nil
}

type eioFile struct{ afero.File }

func (f eioFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: f.Name(), Err: syscall.EIO}
}

func (f eioFile) ReadAt([]byte, int64) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: f.Name(), Err: syscall.EIO}
}

func TestAppendFileToAFileThatCannotBeReadWritesNothing(t *testing.T) {
	mem := newMemFs()
	e := newEnv(t, "eio", eioFs{mem}, "", security.Limits{})
	if err := afero.WriteFile(mem, "log.txt", []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.fail(t, "append_file", `{"path":"log.txt","content":"two\n"}`)
	if b, _ := afero.ReadFile(mem, "log.txt"); string(b) != "one\n" {
		t.Errorf("log.txt holds %q after an append whose start could not be read", b)
	}
}
