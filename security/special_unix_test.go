//go:build unix

package security

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

// withTimeout runs f and fails the test if it does not return within d.
func withTimeout(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	tt := newTestTree(t)
	if err := syscall.Mkfifo(filepath.Join(tt.root, "fifo"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	t.Run("reading a named pipe is refused promptly", func(t *testing.T) {
		withTimeout(t, 5*time.Second, func() {
			f, _, err := tt.sb.OpenRead("fifo", false)
			if f != nil {
				f.Close()
			}
			pe, ok := errors.AsType[*PathError](err)
			if !ok || pe.Reason != Special {
				t.Errorf("OpenRead(fifo) = %v, want Reason Special", err)
				return
			}
			if want := `"fifo" is a named pipe, not a regular file; only regular files can be read`; err.Error() != want {
				t.Errorf("message %q, want %q", err.Error(), want)
			}
		})
	})
	t.Run("reading a named pipe is refused in Chinese", func(t *testing.T) {
		zh := NewSandbox(tt.fs, SandboxOptions{Lang: i18n.Chinese})
		withTimeout(t, 5*time.Second, func() {
			_, _, err := zh.OpenRead("fifo", true)
			if want := `"fifo" 是命名管道，不是普通文件；只能读取普通文件`; err == nil || err.Error() != want {
				t.Errorf("OpenRead(fifo) = %v, want %q", err, want)
			}
		})
	})
	t.Run("writing a named pipe without a reader is refused promptly", func(t *testing.T) {
		withTimeout(t, 5*time.Second, func() {
			_, err := tt.sb.OpenWrite("fifo", os.O_WRONLY, 0)
			if want := `"fifo" is a named pipe, not a regular file; only regular files can be written`; err == nil || err.Error() != want {
				t.Errorf("OpenWrite(fifo) = %v, want %q", err, want)
			}
		})
	})
	t.Run("opening a named pipe through the Fs does not block", func(t *testing.T) {
		withTimeout(t, 5*time.Second, func() {
			f, err := tt.fs.Open("fifo")
			if err != nil {
				t.Errorf("Open(fifo) = %v", err)
				return
			}
			f.Close()
		})
	})
	t.Run("reading a socket is refused promptly", func(t *testing.T) {
		sock := filepath.Join(tt.root, "sock")
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Skipf("cannot make a socket: %v", err)
		}
		defer l.Close()
		withTimeout(t, 5*time.Second, func() {
			_, _, err := tt.sb.OpenRead("sock", false)
			if want := `"sock" is a socket, not a regular file; only regular files can be read`; err == nil || err.Error() != want {
				t.Errorf("OpenRead(sock) = %v, want %q", err, want)
			}
		})
	})
	t.Run("reading a device is refused", func(t *testing.T) {
		// A character device like /dev/null (1, 3); making one needs privileges.
		if err := syscall.Mknod(filepath.Join(tt.root, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skipf("cannot make a device: %v", err)
		}
		withTimeout(t, 5*time.Second, func() {
			_, _, err := tt.sb.OpenRead("null", false)
			if want := `"null" is a device, not a regular file; only regular files can be read`; err == nil || err.Error() != want {
				t.Errorf("OpenRead(null) = %v, want %q", err, want)
			}
			_, err = tt.sb.OpenWrite("null", os.O_WRONLY, 0)
			if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != Special {
				t.Errorf("OpenWrite(null) = %v, want Reason Special", err)
			}
		})
	})
	t.Run("a directory is refused where a file is wanted", func(t *testing.T) {
		_, _, err := tt.sb.OpenRead("notes", false)
		if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != IsDir {
			t.Errorf("OpenRead(notes) = %v, want Reason IsDir", err)
		}
		_, err = tt.sb.OpenWrite("notes", os.O_RDONLY, 0)
		if pe, ok := errors.AsType[*PathError](err); !ok || pe.Reason != IsDir {
			t.Errorf("OpenWrite(notes) = %v, want Reason IsDir", err)
		}
	})
}
