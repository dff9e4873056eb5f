package fs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// hookFs is a file system that calls onOpen before opening a file and
// onEOF when a read of a file reaches its end.
type hookFs struct {
	afero.Fs
	onOpen func(name string)
	onEOF  func(name string)
}

func (h hookFs) Open(name string) (afero.File, error) {
	return h.OpenFile(name, os.O_RDONLY, 0)
}

func (h hookFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if h.onOpen != nil {
		h.onOpen(name)
	}
	f, err := h.Fs.OpenFile(name, flag, perm)
	if err != nil || h.onEOF == nil {
		return f, err
	}
	return hookFile{File: f, onEOF: func() { h.onEOF(name) }}, nil
}

type hookFile struct {
	afero.File
	onEOF func()
}

func (f hookFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if err == io.EOF {
		f.onEOF()
	}
	return n, err
}

// hookedToolset returns the file tools over a memory file system wrapped
// in h, with files written by write.
func hookedToolset(t *testing.T, h *hookFs, write map[string]string) *toolset {
	t.Helper()
	mem := afero.NewMemMapFs()
	for name, data := range write {
		if err := afero.WriteFile(mem, name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.Fs = mem
	sb := security.NewSandbox(h, security.SandboxOptions{})
	return &toolset{sb: sb, lim: sb.Limits()}
}

func TestGrepStopsWithinAFileOfACancel(t *testing.T) {
	// 2,000 files in one folder: the walk reads them in one batch, so
	// only checks between entries can stop it.
	files := map[string]string{}
	for i := range 2000 {
		files[fmt.Sprintf("many/f%04d.txt", i)] = "hello\n"
	}
	ctx, cancel := context.WithCancel(t.Context())
	var opened, afterCancel atomic.Int32
	h := &hookFs{onOpen: func(name string) {
		if !strings.HasSuffix(name, ".txt") {
			return
		}
		if ctx.Err() != nil {
			afterCancel.Add(1)
		}
		if opened.Add(1) == 10 {
			cancel()
		}
	}}
	ts := hookedToolset(t, h, files)
	_, err := ts.grep(ctx, nil, GrepArgs{Path: "many", Query: "hello"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("grep after a cancel = %v, want context.Canceled", err)
	}
	if n := afterCancel.Load(); n > 0 {
		t.Errorf("grep opened %d files after the cancel", n)
	}
}

func TestGrepStopsInsideALargeFileOnACancel(t *testing.T) {
	// A 1.2 MB file with no literal to look for first: grep scans every
	// line, and must look at ctx while it does.
	big := strings.Repeat("hello\n", 200_000)
	ctx, cancel := context.WithCancel(t.Context())
	h := &hookFs{onEOF: func(string) { cancel() }}
	ts := hookedToolset(t, h, map[string]string{"big.txt": big})
	res, err := ts.grep(ctx, nil, GrepArgs{Path: "big.txt", Query: "absent", IgnoreCase: true})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("grep of a file cancelled once it was read = %+v, %v; want context.Canceled", res, err)
	}
}
