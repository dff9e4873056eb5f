package security

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// TestReviewUnnamedLinkFollowsASwappedDirectory: CreateUnnamed checks
// the directory when the unnamed file is made, but UnnamedFile.Link looks
// the directory up again by path, unchecked. If, in between (while a
// large write_file or copy_file fills the file), the directory is moved
// away and a link to the nested read-only root put in its place (two
// move_file calls with other keys, e.g. through an alias link), the file
// is linked into the read-only root. Here the swap is done on the host.
// Fixed: Link uses the directory CreateUnnamed opened.
func TestReviewUnnamedLinkFollowsASwappedDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("O_TMPFILE is Linux only")
	}
	f := newMultiFixture(t)
	uc, ok := f.sb.fs.(*guardFs).Fs.(interface {
		CreateUnnamed(string, os.FileMode) (*UnnamedFile, error)
	})
	if !ok {
		t.Skip("no CreateUnnamed")
	}
	u, err := uc.CreateUnnamed("src:/deep", 0o644)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("O_TMPFILE unsupported here")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if _, err := io.WriteString(u, "planted"); err != nil {
		t.Fatal(err)
	}
	// The swap a concurrent call could make.
	if err := os.Rename(filepath.Join(f.base, "src/deep"), filepath.Join(f.base, "src/deep.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("vendor", filepath.Join(f.base, "src/deep")); err != nil {
		t.Fatal(err)
	}
	linkErr := u.Link(".toolserver-review.tmp", "planted.txt")
	if _, err := os.Stat(filepath.Join(f.base, "src/vendor/planted.txt")); err == nil {
		t.Errorf("Link after the swap (err %v) put a file into the read-only root vendor", linkErr)
	}
	// It goes into the directory that was checked, wherever it is now.
	if b, err := os.ReadFile(filepath.Join(f.base, "src/deep.old/planted.txt")); linkErr != nil || err != nil || string(b) != "planted" {
		t.Errorf("Link = %v; the file in the directory it was made in: %q, %v", linkErr, b, err)
	}
}

// TestReviewAmbiguityOffersAnAmbiguousReading: with an entry "notes:" in
// the first root, "notes:/todo.md" is refused as ambiguous, and the
// sentence offers "notes:/todo.md" as one of the two readings to write.
// Written again, it is refused again: the model cannot get out of the
// loop from the message ("notes:todo.md" would work, but is not shown).
func TestReviewAmbiguityOffersAnAmbiguousReading(t *testing.T) {
	f := newMultiFixture(t)
	if err := os.Mkdir(filepath.Join(f.base, "src", "notes:"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := f.sb.Resolve("notes:/todo.md")
	var pe *PathError
	if !errors.As(err, &pe) || pe.Reason != Ambiguous {
		t.Fatalf("Resolve = %v; want Ambiguous", err)
	}
	for _, reading := range []string{pe.a1, pe.a2} {
		if _, err := f.sb.Resolve(reading); err != nil {
			t.Errorf("the message %q offers %q, which Resolve refuses: %v", pe.Error(), reading, err)
		}
	}
}

// TestReviewRestrictWhileResolving runs Restrict, RestrictHost, Deny and
// Resolve, Key, Allowed, Roots at once, for the race detector.
func TestReviewRestrictWhileResolving(t *testing.T) {
	f := newMultiFixture(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			switch i % 4 {
			case 0:
				f.sb.Restrict([]string{"src:/deep", "notes:"})
			case 1:
				f.sb.RestrictHost([]string{filepath.Join(f.base, "notes")})
			case 2:
				f.sb.Deny()
			case 3:
				f.sb.Restrict(nil)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 2000; i++ {
			f.sb.Resolve("src:/deep/inner/x.txt")
			f.sb.ResolveWrite("src:/lnk/v.txt")
			f.sb.Key("vendor:/v.txt")
			f.sb.Allowed()
			f.sb.Roots()
		}
		close(stop)
	}()
	wg.Wait()
}

// reviewAsNobody runs the test named name again as the user nobody when
// the tests run as root (who may open any directory), and reports
// whether the caller should run the body itself.
func reviewAsNobody(t *testing.T, name string) bool {
	if os.Getenv("REVIEW_AS_NOBODY") == "1" || os.Getuid() != 0 {
		return true
	}
	if runtime.GOOS != "linux" {
		t.Skip("needs a non-root user")
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
	var roots []Root
	for _, r := range []struct {
		name, dir string
		ro        bool
	}{{"src", "src", false}, {"vendor", "src/vendor", true}} {
		dir := filepath.Join(base, r.dir)
		rfs, err := OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rfs.Close() })
		roots = append(roots, Root{Name: r.name, Fs: rfs, HostPath: dir, ReadOnly: r.ro})
	}
	sb, err := NewRoots(roots, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, rerr := sb.ResolveWrite("src:/drop/x")
	werr := afero.WriteFile(sb.Fs(), "src:/drop/x", []byte("planted"), 0o644)
	merr := sb.Fs().MkdirAll("src:/drop/d/e", 0o755)
	if err := os.WriteFile(filepath.Join(base, "src/a"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	nerr := sb.Fs().Rename("src:/a", "src:/drop/a")
	t.Logf("ResolveWrite = %v; WriteFile = %v; MkdirAll = %v; Rename = %v", rerr, werr, merr, nerr)
	for _, name := range []string{"x", "d", "a"} {
		if _, err := os.Lstat(filepath.Join(base, "src/vendor/drop", name)); err == nil {
			t.Errorf("%s was made in the read-only root vendor through src:/drop", name)
		}
	}
}
