package atomicfile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// realWriter returns a Writer over a RootFs on a fresh directory, which
// holds d/a.txt, with unnamed files where the system has them if unnamed
// is set, and the directory.
func realWriter(t *testing.T, unnamed bool) (*Writer, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d/a.txt"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	w := &Writer{Fs: root}
	if unnamed {
		w.CreateUnnamed = func(dir string, perm fs.FileMode) (Unnamed, error) {
			u, err := root.CreateUnnamed(dir, perm)
			if errors.Is(err, errors.ErrUnsupported) {
				t.Skip("no O_TMPFILE here")
			}
			if err != nil {
				return nil, err
			}
			return u, nil
		}
	}
	return w, dir
}

// entries returns the names in the directory dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteReplacesAFileWholeWithItsMode(t *testing.T) {
	for _, unnamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "named", true: "unnamed"}[unnamed], func(t *testing.T) {
			w, dir := realWriter(t, unnamed)
			for _, name := range []string{"d/a.txt", "d/new.txt"} {
				n, err := w.Write(t.Context(), name, 0o640, true, FromText(t.Context(), "new text"))
				if err != nil || n != 8 {
					t.Fatalf("Write(%s) = %d, %v", name, n, err)
				}
				fi, err := os.Stat(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != "new text" || fi.Mode().Perm() != 0o640 {
					t.Errorf("%s holds %q with mode %v, want %q and 0640 whatever the umask", name, b, fi.Mode().Perm(), "new text")
				}
			}
			if got := entries(t, filepath.Join(dir, "d")); !slices.Equal(got, []string{"a.txt", "new.txt"}) {
				t.Errorf("d holds %q: a temporary file was left", got)
			}
		})
	}
}

func TestAFailedWriteLeavesTheFileAsItWas(t *testing.T) {
	boom := errors.New("boom")
	for _, unnamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "named", true: "unnamed"}[unnamed], func(t *testing.T) {
			w, dir := realWriter(t, unnamed)
			_, err := w.Write(t.Context(), "d/a.txt", 0o644, true, func(f afero.File) (int64, error) {
				n, _ := f.WriteString("half")
				return int64(n), boom
			})
			if !errors.Is(err, boom) {
				t.Errorf("Write = %v, want the fill's error", err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if _, err := w.Write(ctx, "d/a.txt", 0o644, true, FromText(ctx, "new")); !errors.Is(err, context.Canceled) {
				t.Errorf("Write with its context done = %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "d/a.txt")); string(b) != "old" {
				t.Errorf("d/a.txt holds %q after failed writes", b)
			}
			if got := entries(t, filepath.Join(dir, "d")); !slices.Equal(got, []string{"a.txt"}) {
				t.Errorf("d holds %q: a temporary file was left", got)
			}
		})
	}
}

func TestAWriteThatCannotMakeItsTemporaryFileSaysSo(t *testing.T) {
	w, _ := realWriter(t, false)
	w.OpenTemp = func(string, fs.FileMode) (afero.File, error) { return nil, fs.ErrPermission }
	_, err := w.Write(t.Context(), "d/a.txt", 0o644, true, FromText(t.Context(), "new"))
	if ce, ok := errors.AsType[*CreateError](err); !ok || !errors.Is(ce, fs.ErrPermission) {
		t.Errorf("Write = %v, want a *CreateError of the open's error", err)
	}
}

// unnamedRecorder is an unnamed file that logs its links, the syncs of
// its directory and its closing.
type unnamedRecorder struct {
	Unnamed
	log *[]string
}

func (u unnamedRecorder) Link(tmp, name string) error {
	*u.log = append(*u.log, "link "+name)
	return u.Unnamed.Link(tmp, name)
}

func (u unnamedRecorder) SyncDir() error {
	*u.log = append(*u.log, "syncdir")
	return u.Unnamed.SyncDir()
}

func (u unnamedRecorder) Close() error {
	*u.log = append(*u.log, "close")
	return u.Unnamed.Close()
}

// TestAWriteWithoutANameSyncsItsDirectoryAfterTheLink: on a real file
// system, a file written without a name (O_TMPFILE) is linked into
// place, then its directory is synced, before the directory is let go;
// unless the caller syncs it, or syncs are off.
func TestAWriteWithoutANameSyncsItsDirectoryAfterTheLink(t *testing.T) {
	tests := []struct {
		name            string
		syncDir, noSync bool
		want            string
	}{
		{"synced", true, false, "link a.txt, syncdir, close"},
		{"synced later by the caller", false, false, "link a.txt, close"},
		{"syncs turned off", true, true, "link a.txt, close"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := realWriter(t, true)
			var log []string
			create := w.CreateUnnamed
			w.CreateUnnamed = func(dir string, perm fs.FileMode) (Unnamed, error) {
				u, err := create(dir, perm)
				if err != nil {
					return nil, err
				}
				return unnamedRecorder{u, &log}, nil
			}
			w.NoDirSync = tt.noSync
			if n, err := w.Write(t.Context(), "d/a.txt", 0o644, tt.syncDir, FromText(t.Context(), "new")); err != nil || n != 3 {
				t.Fatalf("Write = %d, %v", n, err)
			}
			if got := strings.Join(log, ", "); got != tt.want {
				t.Errorf("the unnamed file saw %q, want %q", got, tt.want)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "d/a.txt")); string(b) != "new" {
				t.Errorf("d/a.txt holds %q", b)
			}
		})
	}
}

// failingSyncFs is a memory file system whose directories cannot be
// synced.
type failingSyncFs struct{ afero.Fs }

func (f failingSyncFs) Open(name string) (afero.File, error) {
	file, err := f.Fs.Open(name)
	if err != nil {
		return nil, err
	}
	return failingSyncFile{file}, nil
}

type failingSyncFile struct{ afero.File }

func (failingSyncFile) Sync() error { return syscall.EIO }

func TestAWriteWhoseDirectoryCannotBeSyncedIsInPlaceAndSaysSo(t *testing.T) {
	fsys := failingSyncFs{afero.NewMemMapFs()}
	w := &Writer{Fs: fsys}
	n, err := w.Write(t.Context(), "d/a.txt", 0o644, true, FromText(t.Context(), "new"))
	se, ok := errors.AsType[*DirSyncError](err)
	if !ok || se.Dir != "d" || !errors.Is(err, syscall.EIO) || n != 3 {
		t.Fatalf("Write = %d, %v; want 3 bytes and a *DirSyncError for d", n, err)
	}
	if b, err := afero.ReadFile(fsys, "d/a.txt"); err != nil || string(b) != "new" {
		t.Errorf("d/a.txt holds %q, %v: the write is in place all the same", b, err)
	}
	if _, err := w.Write(t.Context(), "d/b.txt", 0o644, false, FromText(t.Context(), "b")); err != nil {
		t.Errorf("a write whose directory the caller syncs = %v", err)
	}
}
