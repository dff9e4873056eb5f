package fs

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/gitignore"
	"github.com/stdiotools/toolserver/security"
)

// gitVerdicts builds ignoreTree as a real repository for git, and returns
// every path in it but .git (directories ending in "/") and the set git
// check-ignore says is ignored. git knows no .ignore files: each one's
// lines go at the end of the .gitignore beside it, which is how the tools
// apply them. The user's and the system's git configuration are kept out.
func gitVerdicts(t *testing.T, git string) (all []string, ignored map[string]bool) {
	t.Helper()
	dir := t.TempDir()
	env := append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
	run := func(stdin string, args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: nothing ignored
				t.Fatalf("git %s: %v", strings.Join(args, " "), err)
			}
		}
		return string(out)
	}
	run("", "init", "-q")
	files := map[string]string{}
	for p, c := range ignoreTree {
		if path.Base(p) == ".ignore" {
			p = path.Join(path.Dir(p), ".gitignore")
			c = ignoreTree[p] + c
		} else if _, merged := files[p]; merged {
			continue
		}
		files[p] = c
	}
	writeHostFiles(t, dir, files)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == ".":
			return nil
		case rel == ".git":
			return filepath.SkipDir
		case d.IsDir():
			rel += "/"
		}
		all = append(all, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ignored = map[string]bool{}
	var in strings.Builder
	for _, p := range all {
		in.WriteString(strings.TrimSuffix(p, "/") + "\x00")
	}
	for _, p := range strings.Split(run(in.String(), "check-ignore", "--no-index", "-z", "--stdin"), "\x00") {
		if p != "" {
			if slices.Contains(all, p+"/") {
				p += "/"
			}
			ignored[p] = true
		}
	}
	return all, ignored
}

// writeHostFiles writes files below the host directory dir; a name
// ending in "/" is an empty directory.
func writeHostFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestIgnoredEntriesAgreeWithGitCheckIgnore holds what search_files finds
// in ignoreTree to what git check-ignore says is not ignored, from the
// top and from two directories below it.
func TestIgnoredEntriesAgreeWithGitCheckIgnore(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	all, ignored := gitVerdicts(t, git)
	patterns := 0
	for p, c := range ignoreTree {
		if b := path.Base(p); b == ".gitignore" || b == ".ignore" || b == "exclude" {
			patterns += len(gitignore.Parse(c))
		}
	}
	t.Logf("%d paths, %d patterns; git ignores %d paths", len(all), patterns, len(ignored))
	if patterns < 30 || len(ignored) < 30 || len(all)-len(ignored) < 30 {
		t.Fatalf("the tree tests too little: %d patterns, %d of %d paths ignored", patterns, len(ignored), len(all))
	}

	// The .ignore files are in the tree the tools see, and not ignored.
	for p := range ignoreTree {
		if path.Base(p) == ".ignore" {
			all = append(all, p)
		}
	}
	slices.Sort(all)
	e := newRealEnv(t, security.Limits{})
	e.writeAll(t, ignoreTree)
	for _, start := range []string{".", "sub", "sub/inner"} {
		t.Run(start, func(t *testing.T) {
			var want []string
			skipped := 1 // .git
			for _, p := range all {
				if start != "." && (!strings.HasPrefix(p, start+"/") || p == start+"/") {
					continue
				}
				switch parent := path.Dir(strings.TrimSuffix(p, "/")) + "/"; {
				case !ignored[p]:
					want = append(want, p)
				case !ignored[parent]:
					skipped++ // counted once, not entered
				}
			}
			if start != "." {
				skipped-- // .git is at the top
			}
			res := e.ok(t, "search_files", args(t, map[string]any{"path": start, "pattern": "**"}))
			var got SearchFilesResult
			structured(t, res, &got)
			if !slices.Equal(got.Matches, want) {
				for _, p := range got.Matches {
					if !slices.Contains(want, p) {
						t.Errorf("%s is found; git ignores it", p)
					}
				}
				for _, p := range want {
					if !slices.Contains(got.Matches, p) {
						t.Errorf("%s is not found; git does not ignore it", p)
					}
				}
			}
			if got.Ignored != skipped {
				t.Errorf("ignored = %d, want %d", got.Ignored, skipped)
			}
		})
	}
}
