package fs

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

func TestGetFileInfo(t *testing.T) {
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	bothFS(t, security.Limits{MaxReadBytes: 100}, func(t *testing.T, e *env) {
		e.writeMode(t, "text.txt", "héllo\nworld", 0o640)
		if err := e.fs.Chtimes("text.txt", mtime, mtime); err != nil {
			t.Fatal(err)
		}
		e.write(t, "pic.png", pngHeader+"\x00")
		e.write(t, "bin", "a\x00b")
		e.write(t, "big.txt", strings.Repeat("x", 101))
		e.write(t, "bad.txt", "a\xffb")
		e.write(t, "dir/a", "")
		e.write(t, "dir/b", "")

		t.Run("a text file has its size, mode, time, lines and characters", func(t *testing.T) {
			var got FileInfo
			structured(t, e.ok(t, "get_file_info", `{"path":"text.txt"}`), &got)
			if got.Type != "file" || got.Kind != "text" || got.Size != 12 || got.Mode != "0640" || !got.Modified.Equal(mtime) ||
				*got.Bytes != 12 || *got.Chars != 11 || *got.Lines != 2 || got.InvalidUTF8 {
				t.Errorf("got %+v", got)
			}
			if e.real() && got.Accessed == nil {
				t.Error("a real file should have an access time")
			}
		})
		t.Run("an image has its media type and no line count", func(t *testing.T) {
			var got FileInfo
			structured(t, e.ok(t, "get_file_info", `{"path":"pic.png"}`), &got)
			if got.Kind != "image" || got.MIMEType != "image/png" || got.Lines != nil {
				t.Errorf("got %+v", got)
			}
		})
		t.Run("a binary file is described, not refused", func(t *testing.T) {
			var got FileInfo
			structured(t, e.ok(t, "get_file_info", `{"path":"bin"}`), &got)
			if got.Kind != "binary" || got.MIMEType != "application/octet-stream" || got.Size != 3 {
				t.Errorf("got %+v", got)
			}
		})
		t.Run("text over the read limit is not counted, and the note says why", func(t *testing.T) {
			var got FileInfo
			structured(t, e.ok(t, "get_file_info", `{"path":"big.txt"}`), &got)
			if got.Lines != nil || got.Note != "Lines and characters are counted for text files up to 100 bytes." {
				t.Errorf("got %+v", got)
			}
		})
		t.Run("invalid UTF-8 is flagged", func(t *testing.T) {
			var got FileInfo
			structured(t, e.ok(t, "get_file_info", `{"path":"bad.txt"}`), &got)
			if !got.InvalidUTF8 || *got.Chars != 3 {
				t.Errorf("got %+v", got)
			}
		})
		t.Run("a directory has its number of entries", func(t *testing.T) {
			var got FileInfo
			structured(t, e.ok(t, "get_file_info", `{"path":"dir"}`), &got)
			if got.Type != "dir" || got.Entries == nil || *got.Entries != 2 || got.Mode != "0755" {
				t.Errorf("got %+v", got)
			}
		})
		t.Run("the root can be described", func(t *testing.T) {
			e.ok(t, "get_file_info", `{"path":"."}`)
		})
		t.Run("a missing path is an error", func(t *testing.T) {
			wantContains(t, e.fail(t, "get_file_info", `{"path":"nope"}`), `"nope" does not exist`)
		})
	})
}

func TestGetFileInfoOfLinksAndPipes(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "dir/target.txt", "t")
	e.symlink(t, "target.txt", "dir/rel")
	e.symlink(t, "../../../etc/passwd", "dir/up")
	e.symlink(t, e.dir+"/dir/target.txt", "abs")
	if err := syscall.Mkfifo(e.dir+"/pipe", 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, target string
		outside            bool
	}{
		{"a link inside the root shows its target root-relative", "dir/rel", "dir/target.txt", false},
		{"a link leading above the root says so without saying where", "dir/up", "", true},
		{"an absolute link counts as outside, and its host path is not shown", "abs", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.ok(t, "get_file_info", args(t, map[string]string{"path": tt.path}))
			var got FileInfo
			structured(t, res, &got)
			if got.Type != "symlink" || got.LinkTarget != tt.target || got.LinkOutside != tt.outside {
				t.Errorf("got %+v", got)
			}
			if containsAny(text(res), e.dir, "/etc/passwd") {
				t.Errorf("the result shows where an outside link points: %s", text(res))
			}
		})
	}
	t.Run("a named pipe is described without blocking", func(t *testing.T) {
		var got FileInfo
		structured(t, e.ok(t, "get_file_info", `{"path":"pipe"}`), &got)
		if got.Type != "other" || got.Kind != "named pipe" || got.Mode != "0600" {
			t.Errorf("got %+v", got)
		}
	})
}
