package gitignore

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// mapSource is a Source over an fstest.MapFS, paths joined with "/".
type mapSource struct{ fstest.MapFS }

func (m mapSource) Lstat(p string) (fs.FileInfo, error) { return fs.Stat(m.MapFS, p) }

func (m mapSource) Read(ctx context.Context, p string, size, limit int64) ([]byte, error) {
	b, err := fs.ReadFile(m.MapFS, p)
	return b[:min(int64(len(b)), limit+1)], err
}

func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// stackOf returns a Stack over files, with generous bounds but for
// those set, and the files it did not apply.
func stackOf(files map[string]string, b Bounds) (*Stack, *[]string) {
	m := fstest.MapFS{}
	for p, c := range files {
		m[p] = &fstest.MapFile{Data: []byte(c)}
	}
	var unused []string
	s := &Stack{Source: mapSource{m}, Join: join, Bounds: Bounds{FileBytes: 1 << 20, HeldBytes: 4 << 20, Lines: 1000, ReadBytes: 64 << 20}}
	if b.FileBytes > 0 {
		s.Bounds.FileBytes = b.FileBytes
	}
	if b.HeldBytes > 0 {
		s.Bounds.HeldBytes = b.HeldBytes
	}
	if b.Lines > 0 {
		s.Bounds.Lines = b.Lines
	}
	if b.ReadBytes > 0 {
		s.Bounds.ReadBytes = b.ReadBytes
	}
	s.Unusable = func(p, reason string, err error) { unused = append(unused, p+" "+reason) }
	return s, &unused
}

func TestAStackAppliesEachDirectorysFilesInGitsOrder(t *testing.T) {
	s, unused := stackOf(map[string]string{
		".git/info/exclude": "*.swp\n",
		".gitignore":        "*.log\n!keep.log\n",
		".ignore":           "keep.log\n", // wins over the .gitignore beside it
		"sub/.gitignore":    "!app.log\n",
		"sub/repo/.git":     "gitdir: elsewhere\n", // a submodule's top
		"sub/repo/.ignore":  "*.tmp\n",
	}, Bounds{})
	top, c1 := s.Enter(t.Context(), nil, ".")
	sub, c2 := s.Enter(t.Context(), top, "sub")
	repo, c3 := s.Enter(t.Context(), sub, "sub/repo")
	for _, tc := range []struct {
		rules *Rules
		path  string
		want  bool
	}{
		{top, "a.swp", true}, {top, "a.log", true}, {top, "keep.log", true},
		{sub, "sub/app.log", false}, {sub, "sub/b.log", true},
		{repo, "sub/repo/b.log", false}, {repo, "sub/repo/x.tmp", true},
	} {
		if got := tc.rules.Ignored(tc.path, false); got != tc.want {
			t.Errorf("%s ignored: %v, want %v", tc.path, got, tc.want)
		}
	}
	if !s.IsTop(".") || s.IsTop("sub") || !s.IsTop("sub/repo") {
		t.Error("IsTop does not find the tops")
	}
	s.Release(c3)
	s.Release(c2)
	s.Release(c1)
	if s.Held() != 0 || len(*unused) != 0 {
		t.Errorf("after leaving every directory %d bytes held; not applied: %q", s.Held(), *unused)
	}
}

func TestAStackLeavesOutFilesOverItsBounds(t *testing.T) {
	big := strings.Repeat("x\n", 100)
	for _, tc := range []struct {
		name   string
		bounds Bounds
		want   []string
	}{
		{"a file too large", Bounds{FileBytes: 210}, []string{"d/.gitignore " + TooLarge}},
		{"too many bytes held", Bounds{HeldBytes: 300}, []string{"d/.gitignore " + TooManyPatterns}},
		{"too many lines", Bounds{Lines: 150}, []string{"d/.gitignore " + TooManyPatterns}},
		// The first file, 200 bytes of 300, is applied: it counts once
		// against the bound, not again once read.
		{"too much read", Bounds{ReadBytes: 300}, []string{"d/.gitignore " + ReadLimit}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, unused := stackOf(map[string]string{".gitignore": big, "d/.gitignore": big + big[:20]}, tc.bounds)
			top, _ := s.Enter(t.Context(), nil, ".")
			s.Enter(t.Context(), top, "d")
			if !slices.Equal(*unused, tc.want) {
				t.Errorf("not applied: %q, want %q", *unused, tc.want)
			}
		})
	}
}
