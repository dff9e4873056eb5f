package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README and the pages of docs/ are what users read; nothing compiles
// them. This file holds them to the code: the README stays a user's README
// of a few hundred lines, no page carries a tracker number or a work
// diary, every toolserver flag a page names exists, every test, benchmark,
// fuzz target or example a page cites as its backing is declared in the
// repository, and the files server/doc.go walks through exist.

// repoRoot is the repository, seen from this package.
const repoRoot = "../.."

// maxREADMELines bounds the README: what is longer belongs in docs/.
const maxREADMELines = 450

// docFlagWord is a --flag word in Markdown: at the start of a line or
// after a space, a quote, a bracket, a comma or a backtick.
var docFlagWord = regexp.MustCompile("(?:^|[\\s\"'\\[(,`])--([a-z][a-z0-9-]*)")

// citedName is a test, benchmark, fuzz target or example named in
// backticks, as the pages cite what backs a claim.
var citedName = regexp.MustCompile("`((?:Test|Benchmark|Fuzz|Example)[A-Za-z0-9_]*)`")

// notebook matches what belongs in a lab notebook or an issue's notes, not
// in a user's page: tracker numbers, goal rows, commit hashes, the state
// of the machine during a run.
var notebook = regexp.MustCompile(`\bMISSED\b|(?i:\bissues? #?\d+|\bnot met\b|as the issue asks|load average|\bcommits? [0-9a-f]{7,40}\b)|\(\b[0-9a-f]{7,12}\b\)`)

// userDocs returns the README and the pages of docs/, by their path in the
// repository.
func userDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	paths := []string{"README.md"}
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("docs/ holds no pages")
	}
	for _, p := range pages {
		paths = append(paths, filepath.ToSlash(strings.TrimPrefix(p, repoRoot+string(filepath.Separator))))
	}
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(repoRoot, p))
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = string(b)
	}
	return docs
}

func TestTheREADMEIsAUsersREADME(t *testing.T) {
	docs := userDocs(t)
	readme := docs["README.md"]
	if n := strings.Count(readme, "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines; keep it to %d and move the rest to docs/", n, maxREADMELines)
	}
	// CI runs this command as the README's (.ci/run).
	if !strings.Contains(readme, "```sh\ngo test -race ./...\n```") {
		t.Error("README.md lacks its test command, go test -race ./..., in a fenced block")
	}
	for _, link := range regexp.MustCompile(`\]\((docs/[a-z]+\.md)`).FindAllStringSubmatch(readme, -1) {
		if _, ok := docs[link[1]]; !ok {
			t.Errorf("README.md links to %s, which does not exist", link[1])
		}
	}
}

func TestUserDocsCarryNoNotebook(t *testing.T) {
	for path, text := range userDocs(t) {
		for i, line := range strings.Split(text, "\n") {
			if m := notebook.FindString(line); m != "" {
				t.Errorf("%s:%d: %q belongs in a notebook, not a user's page: %s", path, i+1, m, line)
			}
		}
	}
}

// TestEveryFlagTheDocsNameExists checks the --flag words of the pages
// against toolserver's flags (the serve command's and call's --json).
// Lines that name toolagent speak of its flags, which its own tests hold
// to docs/agent.md, and so does docs/agent.md as a whole.
func TestEveryFlagTheDocsNameExists(t *testing.T) {
	_, serve := newConfig("serve", io.Discard)
	_, call := newConfig("call", io.Discard)
	for path, text := range userDocs(t) {
		if path == "docs/agent.md" {
			continue
		}
		for i, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "toolagent") {
				continue
			}
			for _, m := range docFlagWord.FindAllStringSubmatch(line, -1) {
				name := m[1]
				if name == "help" || serve.Lookup(name) != nil || call.Lookup(name) != nil {
					continue
				}
				t.Errorf("%s:%d names --%s, which toolserver does not have", path, i+1, name)
			}
		}
	}
}

// TestEveryTestTheDocsCiteExists checks that each test, benchmark, fuzz
// target or example a page cites is declared in a _test.go file of the
// repository (the bench's module included).
func TestEveryTestTheDocsCiteExists(t *testing.T) {
	declared := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)[A-Za-z0-9_]*)\(`)
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != repoRoot {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			declared[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !declared["TestEveryTestTheDocsCiteExists"] {
		t.Fatal("the walk found none of the repository's tests")
	}
	for path, text := range userDocs(t) {
		for i, line := range strings.Split(text, "\n") {
			for _, m := range citedName.FindAllStringSubmatch(line, -1) {
				if !declared[m[1]] {
					t.Errorf("%s:%d cites %s, which no _test.go declares", path, i+1, m[1])
				}
			}
		}
	}
}

// TestTheServerDocWalksFilesThatExist checks the file names of the road of
// one call in server/doc.go.
func TestTheServerDocWalksFilesThatExist(t *testing.T) {
	dir := filepath.Join(repoRoot, "server")
	b, err := os.ReadFile(filepath.Join(dir, "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`\b[a-z_]+\.go\b`).FindAllString(string(b), -1)
	if len(names) < 10 {
		t.Fatalf("server/doc.go names %d files; the road of one call names more", len(names))
	}
	for _, name := range names {
		if name == "doc.go" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("server/doc.go names %s, which server/ does not hold", name)
		}
	}
}
