package fs

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// fillListFolder creates n files in dir of e with names of different
// lengths and sizes and times that many share, and returns them sorted
// by each order as list_directory documents it: name; size, largest
// first; modified, newest first; ties by name.
func fillListFolder(t testing.TB, e *env, dir string, n int) map[string][]string {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), 7))
	if err := e.fs.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type file struct {
		name string
		size int
		mt   time.Time
	}
	files := make([]file, n)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range files {
		f := file{
			name: fmt.Sprintf("%s%d.txt", strings.Repeat("ab", r.IntN(4)), r.IntN(1<<30)<<20|i),
			size: r.IntN(50),
			mt:   base.Add(time.Duration(r.IntN(100)) * time.Second),
		}
		files[i] = f
		if err := afero.WriteFile(e.fs, dir+"/"+f.name, make([]byte, f.size), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := e.fs.Chtimes(dir+"/"+f.name, f.mt, f.mt); err != nil {
			t.Fatal(err)
		}
	}
	orders := map[string]func(a, b file) int{
		"name":     func(a, b file) int { return strings.Compare(a.name, b.name) },
		"size":     func(a, b file) int { return cmp.Or(cmp.Compare(b.size, a.size), strings.Compare(a.name, b.name)) },
		"modified": func(a, b file) int { return cmp.Or(b.mt.Compare(a.mt), strings.Compare(a.name, b.name)) },
	}
	sorted := map[string][]string{}
	for by, order := range orders {
		slices.SortFunc(files, order)
		for _, f := range files {
			sorted[by] = append(sorted[by], f.name)
		}
	}
	return sorted
}

// TestListAtAnyOffsetShowsThePageOfTheWholeOrder: a page at any offset,
// near the start (kept in one pass) or far on (found by narrowing the
// directory in passes, see narrow), holds the entries of those ranks in
// each order, and its note counts them and gives the cursor of its last
// entry.
func TestListAtAnyOffsetShowsThePageOfTheWholeOrder(t *testing.T) {
	const page = 10
	for _, c := range []struct {
		fs string
		n  int
	}{{"mem", 2000}, {"real", 2000}} {
		t.Run(fmt.Sprintf("%s/%d", c.fs, c.n), func(t *testing.T) {
			e := newMemEnv(t, security.Limits{MaxListEntries: page})
			if c.fs == "real" {
				e = newRealEnv(t, security.Limits{MaxListEntries: page})
			}
			sorted := fillListFolder(t, e, "d", c.n)
			for _, by := range []string{"name", "size", "modified"} {
				for _, offset := range []int{1, 29, 30, 31, 45, c.n / 3, c.n/2 + 7, c.n - 11, c.n - 10, c.n - 1, c.n, c.n + 5} {
					res := e.ok(t, "list_directory", fmt.Sprintf(`{"path":"d","sort":%q,"offset":%d}`, by, offset))
					var got ListDirectoryResult
					structured(t, res, &got)
					var names []string
					for _, en := range got.Entries {
						names = append(names, en.Name)
					}
					want := sorted[by][min(offset, c.n):min(offset+page, c.n)]
					if !slices.Equal(names, want) || got.Total != c.n || got.Files != c.n {
						t.Fatalf("sort %s offset %d: got %v of %d, want %v of %d", by, offset, names, got.Total, want, c.n)
					}
					switch {
					case offset >= c.n:
						wantContains(t, text(res), fmt.Sprintf("offset %d is past the last of the %d entries", offset, c.n))
					case offset+page >= c.n:
						wantContains(t, text(res), fmt.Sprintf("Showing entries %d to %d of %d (sorted by %s), the last ones.", offset+1, c.n, c.n, by))
					default:
						wantContains(t, text(res), fmt.Sprintf("Showing entries %d to %d of %d (sorted by %s); %d more: call list_directory again with cursor=", offset+1, offset+page, c.n, by, c.n-offset-page))
						// The cursor goes on where the page stops.
						m := cursorRE.FindStringSubmatch(got.Note)
						var next ListDirectoryResult
						structured(t, e.ok(t, "list_directory", fmt.Sprintf(`{"path":"d","sort":%q,"cursor":%q}`, by, m[1])), &next)
						if len(next.Entries) == 0 || next.Entries[0].Name != sorted[by][offset+page] {
							t.Fatalf("sort %s offset %d: the cursor's page starts with %v, want %s", by, offset, next.Entries[:min(1, len(next.Entries))], sorted[by][offset+page])
						}
					}
				}
			}
		})
	}
}

// TestListingNarrowsInPassesOfBoundedMemory: with a page of 10 (and so
// the sketch's least buffer, 256), a sketch of 20,000 entries brackets a
// page within more entries than its buffer, so a second pass narrows the
// bracket, and a third keeps what is left of it: a few hundred entries,
// among them the page.
func TestListingNarrowsInPassesOfBoundedMemory(t *testing.T) {
	const n, page = 20_000, 10
	e := newRealEnv(t, security.Limits{MaxListEntries: page})
	sorted := fillListFolder(t, e, "d", n)
	for _, by := range []string{"name", "size", "modified"} {
		for _, offset := range []int{n/2 + 7, n - 11} {
			l := &listing{t: newToolset(e.sb), rel: "d", in: ListDirectoryArgs{Sort: by, Offset: offset}, order: entryOrder(by)}
			all, err := l.entries(context.Background(), nil, offset, page)
			if err != nil {
				t.Fatal(err)
			}
			skip := offset - l.below
			if l.passes != 3 || len(all) > listSketchMin || skip < 0 || skip+page > len(all) {
				t.Fatalf("sort %s offset %d: %d passes kept %d entries, the page from the %dth; want 3 passes keeping at most %d, the page among them",
					by, offset, l.passes, len(all), skip, listSketchMin)
			}
			var names []string
			for _, en := range all[skip : skip+page] {
				names = append(names, en.Name)
			}
			if want := sorted[by][offset : offset+page]; !slices.Equal(names, want) {
				t.Fatalf("sort %s offset %d: got %v, want %v", by, offset, names, want)
			}
		}
	}
}

// hogArgs are the arguments of the tool TestListDirectoryReservesWhatItHolds
// holds memory with.
type hogArgs struct {
	Bytes int64 `json:"bytes" description:"b"`
}

// TestListDirectoryReservesWhatItHolds: a listing reserves what it holds
// from the memory budget, so it waits while other calls hold all of it;
// and what it holds at an offset far on is a few pages, whatever the
// offset: it runs in a budget of 2 MiB of which other calls hold all but
// 512 KiB, where keeping every entry before its page of 7,000 (and as
// many again for a moment, see topk) took 1.3 MB.
func TestListDirectoryReservesWhatItHolds(t *testing.T) {
	const budget = 2 << 20
	dir := t.TempDir()
	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sb := security.NewSandbox(root, security.SandboxOptions{HostRoot: dir, Limits: security.Limits{MaxListEntries: 100}})
	srv := server.New(server.Options{MemoryBudget: budget, ToolTimeout: 5 * time.Second, MaxRepeats: -1})
	if err := newToolset(sb).register(srv); err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	err = server.AddTool(srv, server.ToolSpec{Name: "hog", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in hogArgs) (ListDirectoryResult, error) {
			if err := call.Reserve(ctx, in.Bytes); err != nil {
				return ListDirectoryResult{}, err
			}
			holding <- struct{}{}
			<-release
			return ListDirectoryResult{}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{name: "real", fs: root, sb: sb, srv: srv, dir: dir}
	sorted := fillListFolder(t, e, "d", 8000)
	hog := func(bytes int64) {
		go func() { _, _ = srv.CallTool(context.Background(), "hog", []byte(fmt.Sprintf(`{"bytes":%d}`, bytes))) }()
		<-holding
	}
	list := func(ctx context.Context) *server.CallToolResult {
		res, err := srv.CallTool(ctx, "list_directory", []byte(`{"path":"d","sort":"modified","offset":7000}`))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	hog(budget)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res := list(ctx)
	wantContains(t, text(res), "while it waited for memory")
	release <- struct{}{}

	hog(budget - 512<<10)
	res = list(context.Background())
	release <- struct{}{}
	var got ListDirectoryResult
	structured(t, res, &got)
	if len(got.Entries) != 100 || got.Entries[0].Name != sorted["modified"][7000] {
		t.Errorf("in 512 KiB: %d entries from %v, want 100 from %s: %s", len(got.Entries), got.Entries[:min(1, len(got.Entries))], sorted["modified"][7000], text(res))
	}
}
