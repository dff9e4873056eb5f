package security

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
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

// TestReviewAmbiguityOffersAnAmbiguousReading: with an entry
// "notes:todo.md" in the first root, "notes:todo.md" is refused as
// ambiguous, and each reading the sentence offers resolves when written
// back, to the thing it names: the model is never sent round in a loop.
func TestReviewAmbiguityOffersAnAmbiguousReading(t *testing.T) {
	f := newMultiFixture(t)
	if err := os.Mkdir(filepath.Join(f.base, "src", "notes:todo.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := f.sb.Resolve("notes:todo.md")
	var pe *PathError
	if !errors.As(err, &pe) || pe.Reason != Ambiguous {
		t.Fatalf("Resolve = %v; want Ambiguous", err)
	}
	for _, reading := range []string{pe.a1, pe.a2} {
		if got, err := f.sb.Resolve(reading); err != nil || got != reading {
			t.Errorf("the message %q offers %q, which resolves to %q, %v", pe.Error(), reading, got, err)
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
