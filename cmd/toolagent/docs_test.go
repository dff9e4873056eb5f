package main

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestEveryFlagTheDocsNameExists holds docs/agent.md, and the lines of
// docs/performance.md that name toolagent, to toolagent's flags: every
// --flag word they use is one that --help lists.
func TestEveryFlagTheDocsNameExists(t *testing.T) {
	var help strings.Builder
	if code := run(context.Background(), []string{"-h"}, func(string) string { return "" }, io.Discard, &help, false); code != exitOK {
		t.Fatalf("toolagent -h: exit %d", code)
	}
	flags := map[string]bool{"help": true}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllStringSubmatch(help.String(), -1) {
		flags[m[1]] = true
	}
	if !flags["parallel"] || !flags["script"] {
		t.Fatalf("read no flags from --help:\n%s", help.String())
	}
	word := regexp.MustCompile("(?:^|[\\s\"'\\[(,`])--([a-z][a-z0-9-]*)")
	for _, c := range []struct {
		path string
		all  bool // every line, or only those that name toolagent
	}{{"../../docs/agent.md", true}, {"../../docs/performance.md", false}} {
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if !c.all && !strings.Contains(line, "toolagent") {
				continue
			}
			for _, m := range word.FindAllStringSubmatch(line, -1) {
				if !flags[m[1]] {
					t.Errorf("%s:%d names --%s, which toolagent does not have", c.path, i+1, m[1])
				}
			}
		}
	}
}
