package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

// treeOf returns a ReadDirFunc over the paths given (a trailing "/" for
// a directory), whose entries come in reverse name order, and which fails
// with EIO after giving its entries for each directory in bad.
func treeOf(paths []string, bad ...string) ReadDirFunc {
	m := fstest.MapFS{}
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			m[strings.TrimSuffix(p, "/")] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		} else {
			m[p] = &fstest.MapFile{}
		}
	}
	return func(ctx context.Context, dir string, fn func(fs.DirEntry) error) error {
		es, err := fs.ReadDir(m, dir)
		if err != nil {
			return err
		}
		slices.Reverse(es)
		for _, e := range es {
			if err := fn(e); err != nil {
				return err
			}
		}
		if slices.Contains(bad, dir) {
			return syscall.EIO
		}
		return nil
	}
}

func TestWalkReadsEachDirectoryThenEntersItsSubdirectoriesInNameOrder(t *testing.T) {
	w := Walker[struct{}]{ReadDir: treeOf([]string{"top/b/", "top/b/x", "top/a/", "top/a/y", "top/c", "top/a/z/", "top/a/z/w"})}
	var got []string
	err := w.Walk(t.Context(), "top", struct{}{}, func(p, sub string, d fs.DirEntry, err error) error {
		got = append(got, p+"="+sub)
		return err
	})
	want := "top/c=c top/b=b top/a=a top/a/z=a/z top/a/y=a/y top/a/z/w=a/z/w top/b/x=b/x"
	if err != nil || strings.Join(got, " ") != want {
		t.Errorf("Walk = %v, visiting\n%s\nwant\n%s", err, strings.Join(got, " "), want)
	}
}

// TestPruneLeavesADirectoryUnreadWhenTheWalkComesToIt: Prune is asked
// for each directory as the walk is about to enter it, after its parent
// was read (so that what the walk found before can decide), and a pruned
// directory's entries are neither read nor counted as waiting.
func TestPruneLeavesADirectoryUnreadWhenTheWalkComesToIt(t *testing.T) {
	var asked, got []string
	r := &run[struct{}]{
		w: &Walker[struct{}]{
			ReadDir: treeOf([]string{"top/a/", "top/a/x", "top/b/", "top/b/y", "top/b/c/", "top/b/c/z", "top/d/", "top/d/w", "top/f"}),
			Prune: func(dir string) bool {
				asked = append(asked, dir+fmt.Sprint(len(got)))
				return dir == "top/b" || dir == "top/d" && slices.Contains(got, "top/a/x")
			},
		},
		ctx: context.Background(),
		fn: func(p, sub string, d fs.DirEntry, err error) error {
			got = append(got, p)
			return err
		},
	}
	if err := r.dir("top", "", nil, 0, struct{}{}); err != nil {
		t.Fatal(err)
	}
	if want := "top/f top/d top/b top/a top/a/x"; strings.Join(got, " ") != want {
		t.Errorf("visited %s, want %s", strings.Join(got, " "), want)
	}
	if want := "top/a4 top/b5 top/d5"; strings.Join(asked, " ") != want {
		t.Errorf("Prune asked %s (with how many entries seen), want %s", strings.Join(asked, " "), want)
	}
	if r.pending != 0 {
		t.Errorf("after the walk %d directories still count as waiting", r.pending)
	}
}

// TestWalkPendingAfterAFailedRead: a directory whose read fails after it
// gave subdirectories is reported once, and the subdirectories it gave,
// which are not entered, no longer count as waiting: the count of waiting
// directories, which bounds the walk, kept them for the rest of the walk.
func TestWalkPendingAfterAFailedRead(t *testing.T) {
	var errs []string
	r := &run[struct{}]{
		w:   &Walker[struct{}]{ReadDir: treeOf([]string{"top/bad/d1/", "top/bad/d2/", "top/ok/d3/"}, "top/bad")},
		ctx: context.Background(),
		fn: func(p, sub string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, p)
			}
			return nil
		},
	}
	if err := r.dir("top", "", nil, 0, struct{}{}); err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0] != "top/bad" {
		t.Errorf("errors reported for %v, want once for top/bad", errs)
	}
	if r.pending != 0 {
		t.Errorf("after the walk %d directories still count as waiting", r.pending)
	}
}

func TestWalkStopsAtItsBounds(t *testing.T) {
	deep := "top/" + strings.Repeat("d/", MaxDepth+1)
	var paths []string
	for d := strings.TrimSuffix(deep, "/"); d != "top"; d = path.Dir(d) {
		paths = append(paths, d+"/")
	}
	for i := range MaxPending + 5 {
		paths = append(paths, fmt.Sprintf("wide/%05d/", i))
	}
	paths = append(paths, "wide/")
	read := treeOf(paths)

	var tooDeep []string
	w := Walker[struct{}]{ReadDir: read}
	_ = w.Walk(t.Context(), "top", struct{}{}, func(p, sub string, d fs.DirEntry, err error) error {
		if errors.Is(err, ErrTooDeep) {
			tooDeep = append(tooDeep, sub)
		}
		return nil
	})
	if want := strings.TrimSuffix(strings.Repeat("d/", MaxDepth+1), "/"); len(tooDeep) != 1 || tooDeep[0] != want {
		t.Errorf("too deep: %d entries, want the one %d levels down", len(tooDeep), MaxDepth+1)
	}

	tooMany := 0
	_ = w.Walk(t.Context(), "wide", struct{}{}, func(p, sub string, d fs.DirEntry, err error) error {
		if errors.Is(err, ErrTooManyDirs) {
			tooMany++
		}
		return nil
	})
	if tooMany != 5 {
		t.Errorf("%d directories not entered as too many, want 5", tooMany)
	}

	w.MaxEntries = 100
	seen, budget := 0, 0
	err := w.Walk(t.Context(), "wide", struct{}{}, func(p, sub string, d fs.DirEntry, err error) error {
		if errors.Is(err, ErrBudget) {
			budget++
		} else {
			seen++
		}
		return nil
	})
	if err != nil || seen != 100 || budget != 1 {
		t.Errorf("with a budget of 100: %v, %d seen, told %d times", err, seen, budget)
	}
}

// depthFilter skips names starting with "x" and counts, as state, the
// directories entered down to each one; it records enters and leaves.
type depthFilter struct{ log *[]string }

func (f depthFilter) Enter(ctx context.Context, parent int, dir string) (int, func()) {
	*f.log = append(*f.log, "enter "+dir)
	return parent + 1, func() { *f.log = append(*f.log, "leave "+dir) }
}

func (f depthFilter) Skip(depth int, p string, d fs.DirEntry) bool {
	return strings.HasPrefix(d.Name(), "x") || depth > 2
}

func TestAFilterEntersEachDirectoryOnceAndLeavesItSkipping(t *testing.T) {
	var log, seen []string
	w := Walker[int]{ReadDir: treeOf([]string{"t/a/", "t/a/b/", "t/a/b/c", "t/a/xskip/", "t/a/xskip/f", "t/xf"}), Filter: depthFilter{&log}}
	err := w.Walk(t.Context(), "t", 0, func(p, sub string, d fs.DirEntry, err error) error {
		seen = append(seen, p)
		return err
	})
	if err != nil || strings.Join(seen, " ") != "t/a t/a/b" {
		t.Errorf("Walk = %v, seeing %q", err, seen)
	}
	if got := strings.Join(log, ", "); got != "enter t, enter t/a, enter t/a/b, leave t/a/b, leave t/a, leave t" {
		t.Errorf("the filter saw %s", got)
	}
}
