package security

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestReadDirGivesEveryEntryOnceWithItsType(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "d")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 150 { // several chunks of entries, and batches
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		if err := os.Mkdir(filepath.Join(sub, fmt.Sprintf("d%02d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("f000", filepath.Join(sub, "link")); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	rfs, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rfs.Close()
	for _, n := range []int{-1, 1, 7, 512} {
		t.Run(fmt.Sprintf("in batches of %d", n), func(t *testing.T) {
			f, err := rfs.Open("d")
			if err != nil {
				t.Fatal(err)
			}
			var got []fs.DirEntry
			for {
				batch, err := f.(fs.ReadDirFile).ReadDir(n)
				got = append(got, batch...)
				if errors.Is(err, io.EOF) || n <= 0 && err == nil {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(batch) == 0 || len(batch) > n {
					t.Fatalf("a batch of %d entries for n=%d", len(batch), n)
				}
			}
			f.Close()
			slices.SortFunc(got, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
			if len(got) != len(want) {
				t.Fatalf("%d entries, want %d", len(got), len(want))
			}
			for i, w := range want {
				g := got[i]
				if g.Name() != w.Name() || g.Type() != w.Type() {
					t.Fatalf("entry %d is %s %v, want %s %v", i, g.Name(), g.Type(), w.Name(), w.Type())
				}
				// Info looks the entry up through the root, after Close too.
				if fi, err := g.Info(); err != nil || fi.Name() != w.Name() || fi.Mode().Type() != w.Type() {
					t.Fatalf("Info of %s: %v, %v", w.Name(), fi, err)
				}
			}
		})
	}
}

// A directory closed twice gives its buffer back once: two directories
// read side by side afterwards never share one.
func TestReadDirBuffersAreNeverShared(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 600 { // more than one read of the buffer
			if err := os.WriteFile(filepath.Join(dir, d, fmt.Sprintf("%s%03d-%s", d, i, strings.Repeat(d, 20))), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rfs, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rfs.Close()
	f, err := rfs.Open("a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.(fs.ReadDirFile).ReadDir(1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f.Close()
	a, _ := rfs.Open("a")
	b, _ := rfs.Open("b")
	defer a.Close()
	defer b.Close()
	seen := map[string]int{}
	for done := 0; done < 2; {
		done = 0
		for _, f := range []afero.File{a, b} {
			des, err := f.(fs.ReadDirFile).ReadDir(50)
			if errors.Is(err, io.EOF) {
				done++
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, de := range des {
				if de.Name()[0] != f.Name()[0] {
					t.Fatalf("%s lists %q", f.Name(), de.Name())
				}
				seen[de.Name()]++
			}
		}
	}
	if len(seen) != 1200 {
		t.Errorf("%d names seen, want 1200", len(seen))
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%q seen %d times", name, n)
		}
	}
}
