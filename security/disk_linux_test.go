package security

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCreateUnnamedIsInvisibleUntilLinked(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "f.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	u, err := r.CreateUnnamed("sub", 0o600)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no O_TMPFILE here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		ents, err := os.ReadDir(filepath.Join(dir, "sub"))
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range ents {
			n = append(n, e.Name())
		}
		return n
	}
	if got := names(); len(got) != 1 {
		t.Errorf("before Link the directory holds %v", got)
	}
	if err := u.Chmod(0o640); err != nil {
		t.Fatal(err)
	}
	if err := u.Link("tmp", "a/b"); err == nil {
		t.Error("Link accepted a name with a slash")
	}
	if err := u.Link(".tmp", "f.txt"); err != nil {
		t.Fatal(err)
	}
	if err := u.SyncDir(); err != nil {
		t.Errorf("SyncDir after Link: %v", err)
	}
	u.Close()
	if err := u.SyncDir(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("SyncDir after Close = %v, want ErrClosed", err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "sub", "f.txt"))
	if err != nil || string(got) != "new" {
		t.Errorf("after Link f.txt holds %q, %v", got, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "sub", "f.txt")); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if got := names(); len(got) != 1 {
		t.Errorf("after Link the directory holds %v", got)
	}
	if _, err := r.CreateUnnamed("../..", 0o600); err == nil {
		t.Error("CreateUnnamed left the root")
	}
	if avail, total, err := r.DiskSpace("sub"); err != nil || total == 0 || avail > total {
		t.Errorf("DiskSpace = %d, %d, %v", avail, total, err)
	}
	if _, _, err := r.DiskSpace("nope"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("DiskSpace of a missing directory: %v", err)
	}
}
