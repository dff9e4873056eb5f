package fs

import (
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// errnoFs is a file system whose changes fail with errno, as a full,
// limited or read-only one's do: opening a file to write, writing to
// one, making a directory and renaming. Reading works.
type errnoFs struct {
	afero.Fs
	errno syscall.Errno
}

func (e errnoFs) fail(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: e.errno}
}

func (e errnoFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) == 0 {
		return e.Fs.OpenFile(name, flag, perm)
	}
	switch e.errno {
	case syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG:
		// These come from the writes, once the file is open.
		f, err := e.Fs.OpenFile(name, flag, perm)
		if err != nil {
			return nil, err
		}
		return errnoFile{File: f, fs: e}, nil
	}
	return nil, e.fail("openat", name)
}

func (e errnoFs) Create(name string) (afero.File, error) {
	return e.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (e errnoFs) Mkdir(name string, _ os.FileMode) error    { return e.fail("mkdirat", name) }
func (e errnoFs) MkdirAll(name string, _ os.FileMode) error { return e.fail("mkdirat", name) }
func (e errnoFs) Rename(oldname, newname string) error {
	return &os.LinkError{Op: "renameat", Old: oldname, New: newname, Err: e.errno}
}

// errnoFile is a file open for writing on an errnoFs: every write fails.
type errnoFile struct {
	afero.File
	fs errnoFs
}

func (f errnoFile) Write(p []byte) (int, error) {
	return 0, f.fs.fail("write", f.Name())
}

func (f errnoFile) WriteString(s string) (int, error) {
	return 0, f.fs.fail("write", f.Name())
}

func (f errnoFile) WriteAt(p []byte, off int64) (int, error) {
	return 0, f.fs.fail("write", f.Name())
}

func (f errnoFile) ReadFrom(r interface{ Read([]byte) (int, error) }) (int64, error) {
	return 0, f.fs.fail("write", f.Name())
}

func TestEveryWriteToolSaysWhatAFullOrLimitedFileSystemMeans(t *testing.T) {
	errnos := []struct {
		errno  syscall.Errno
		en, zh string // a part of the sentence
	}{
		{syscall.ENOSPC, "no space is left on the disk", "磁盘上没有空间"},
		{syscall.EDQUOT, "disk quota is used up", "磁盘配额已用完"},
		{syscall.EFBIG, "would exceed the largest file size the server may write (a ulimit); write less", "最大文件大小"},
		{syscall.EROFS, "is on a read-only file system, so it cannot be changed", "只读文件系统"},
		{syscall.EMFILE, "the server has too many files open", "打开的文件过多"},
		{syscall.ENAMETOOLONG, "longer than the file system allows", "超过了文件系统允许的长度"},
	}
	tools := []struct{ tool, args, path string }{
		{"write_file", `{"path":"d/new.txt","content":"hello"}`, `"d/new.txt"`},
		{"write_file", `{"path":"d/a.txt","content":"hello"}`, `"d/a.txt"`},
		{"edit_file", `{"path":"d/a.txt","edits":[{"old_text":"old","new_text":"new"}]}`, `"d/a.txt"`},
		{"append_file", `{"path":"d/a.txt","content":"more"}`, `"d/a.txt"`},
		{"append_file", `{"path":"d/new.txt","content":"more"}`, `"d/new.txt"`},
		{"copy_file", `{"source":"d/a.txt","destination":"d/b.txt"}`, `"d/b.txt"`},
		{"copy_file", `{"source":"d","destination":"e"}`, `"e`},
		{"move_file", `{"source":"d/a.txt","destination":"d/b.txt"}`, `"d/a.txt"`},
		{"create_directory", `{"path":"x/y"}`, `"x/y"`},
	}
	for _, en := range []bool{true, false} {
		lang := i18n.English
		if !en {
			lang = i18n.Chinese
		}
		for _, e := range errnos {
			if !en && e.errno != syscall.EFBIG && e.errno != syscall.EDQUOT {
				continue // the catalog test holds every sentence to both languages
			}
			want := e.en
			if !en {
				want = e.zh
			}
			for _, tt := range tools {
				if (e.errno == syscall.ENOSPC || e.errno == syscall.EDQUOT || e.errno == syscall.EFBIG) &&
					(tt.tool == "move_file" || tt.tool == "create_directory") {
					continue // neither writes data
				}
				t.Run(e.errno.Error()+"/"+tt.tool+tt.args, func(t *testing.T) {
					mem := afero.NewMemMapFs()
					if err := mem.MkdirAll("d", 0o755); err != nil {
						t.Fatal(err)
					}
					if err := afero.WriteFile(mem, "d/a.txt", []byte("old"), 0o644); err != nil {
						t.Fatal(err)
					}
					sb := security.NewSandbox(errnoFs{Fs: mem, errno: e.errno}, security.SandboxOptions{Lang: lang})
					srv := server.New(server.Options{})
					if err := Register(srv, sb); err != nil {
						t.Fatal(err)
					}
					env := &env{fs: mem, sb: sb, srv: srv}
					got := env.fail(t, tt.tool, tt.args)
					wantContains(t, got, want, tt.path)
					if strings.Contains(got, "unexpected") || strings.Contains(got, "意外") {
						t.Errorf("the error is vague: %s", got)
					}
					if tt.tool == "copy_file" && strings.Contains(got, "what was copied is in") {
						t.Errorf("the error points to a copy that was never made: %s", got)
					}
					if b, _ := afero.ReadFile(mem, "d/a.txt"); string(b) != "old" {
						t.Errorf("d/a.txt holds %q after the failure", b)
					}
					names, _ := afero.ReadDir(mem, "d")
					for _, n := range names {
						if n.Name() != "a.txt" {
							t.Errorf("the failure left %s in d", n.Name())
						}
					}
				})
			}
		}
	}
}
