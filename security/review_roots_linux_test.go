//go:build linux

package security

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// reviewAsNobody runs the test named name again as the user nobody when
// the tests run as root (who may open any directory), and reports
// whether the caller should run the body itself.
func reviewAsNobody(t *testing.T, name string) bool {
	if os.Getenv("REVIEW_AS_NOBODY") == "1" || os.Getuid() != 0 {
		return true
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp("", "review-nobody-")
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	copyExe := filepath.Join(dir, "security.test")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(copyExe, b, 0o755); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(copyExe, "-test.run=^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "REVIEW_AS_NOBODY=1", "TMPDIR=/tmp", "GOCOVERDIR=")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("as nobody: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "--- PASS") || testing.Verbose() {
		t.Logf("as nobody:\n%s", out)
	}
	return false
}

// TestReviewClimbFailsOpenOnAnUnreadableDirectory: protection.climb lets
// a change through when it cannot open a directory on the way. A folder
// in the nested read-only root that the server may write and search but
// not list (mode -wx, a drop box) cannot be opened O_RDONLY, so
// ResolveWrite of a path through a link in the writable root that leads
// into it passes (the path says src:/drop/x, not src:/vendor/...). It is
// not exploitable today only because os.Root opens every directory on
// the way O_RDONLY too, and so fails with EACCES; the test guards that
// nothing lands in the read-only root. Run as a user other than root.
func TestReviewClimbFailsOpenOnAnUnreadableDirectory(t *testing.T) {
	if !reviewAsNobody(t, "TestReviewClimbFailsOpenOnAnUnreadableDirectory") {
		return
	}
	base := t.TempDir()
	for _, d := range []string{"src/vendor/drop"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("vendor/drop", filepath.Join(base, "src/drop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(base, "src/vendor/drop"), 0o300); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(base, "src/vendor/drop"), 0o755)
	sb := rootsIn(t, base, rootSpec{"src", "src", false}, rootSpec{"vendor", "src/vendor", true})
	_, rerr := sb.ResolveWrite("src:/drop/x")
	werr := afero.WriteFile(sb.Fs(), "src:/drop/x", []byte("planted"), 0o644)
	merr := sb.Fs().MkdirAll("src:/drop/d/e", 0o755)
	if err := os.WriteFile(filepath.Join(base, "src/a"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	nerr := sb.Fs().Rename("src:/a", "src:/drop/a")
	t.Logf("ResolveWrite = %v; WriteFile = %v; MkdirAll = %v; Rename = %v", rerr, werr, merr, nerr)
	if !errors.Is(nerr, syscall.EROFS) {
		t.Errorf("Rename(src:/a, src:/drop/a) = %v; want a read-only refusal", nerr)
	}
	if !isReadOnlyRoot(rerr) {
		t.Errorf("ResolveWrite(src:/drop/x) = %v; want a read-only refusal (the link leads into vendor by its path)", rerr)
	}
	for _, name := range []string{"x", "d", "a"} {
		if _, err := os.Lstat(filepath.Join(base, "src/vendor/drop", name)); err == nil {
			t.Errorf("%s was made in the read-only root vendor through src:/drop", name)
		}
	}
}
