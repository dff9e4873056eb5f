package fs

import (
	"testing"

	"github.com/stdiotools/toolserver/security"
)

// The rule for new names (security.Sandbox.CheckNewName) reaches the
// tools through the sandbox's file system: these tests check it on the
// tools that create names, and that names which exist already stay
// usable.

func TestNewNamesWithInvisibleCharactersAreRefused(t *testing.T) {
	// "notes" followed by the tag characters for "ignore all", which no
	// one sees.
	tagged := "notes\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E0020\U000E0061\U000E006C\U000E006C.txt"
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "src.txt", "source")
		before := e.snapshot(t)
		msg := e.fail(t, "write_file", args(t, map[string]any{"path": tagged, "content": "x"}))
		wantContains(t, msg, `its name has U+E0069, a tag character, at position 6, not allowed in new names; remove it`)
		msg = e.fail(t, "write_file", args(t, map[string]any{"path": "zw\u200dj.txt", "content": "x"}))
		wantContains(t, msg, `U+200D, a default-ignorable (invisible) character, at position 3`)
		msg = e.fail(t, "create_directory", args(t, map[string]any{"path": "a/b\uFE0F/c"}))
		wantContains(t, msg, `"a/b\u{FE0F}": its name has U+FE0F, a variation selector, at position 2`)
		msg = e.fail(t, "copy_file", args(t, map[string]any{"source": "src.txt", "destination": "blank\u2800.txt"}))
		wantContains(t, msg, `U+2800, a filler character`)
		msg = e.fail(t, "move_file", args(t, map[string]any{"source": "src.txt", "destination": "pua\uE000.txt"}))
		wantContains(t, msg, `U+E000, a private-use character`)
		if after := e.snapshot(t); after != before {
			t.Errorf("refused calls changed the tree:\n%s\nwas\n%s", after, before)
		}
	})
}

func TestNewNamesMustBeNFCAndDistinct(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "README.md", "readme")
		e.write(t, "docs/cafe\u0301.txt", "decomposed")
		e.mkdir(t, "notes")
		before := e.snapshot(t)
		msg := e.fail(t, "write_file", args(t, map[string]any{"path": "notes/cafe\u0301.md", "content": "x"}))
		wantContains(t, msg, `its name is not Unicode NFC and may look like another; use "notes/café.md"`)
		msg = e.fail(t, "write_file", args(t, map[string]any{"path": "Readme.md", "content": "x"}))
		wantContains(t, msg, `cannot create "Readme.md": the existing "README.md" differs only in case or Unicode form; use "README.md"`)
		msg = e.fail(t, "copy_file", args(t, map[string]any{"source": "README.md", "destination": "docs/café.txt"}))
		wantContains(t, msg, `the existing "docs/cafe\u{301}.txt" differs only in case or Unicode form`)
		if after := e.snapshot(t); after != before {
			t.Errorf("refused calls changed the tree:\n%s\nwas\n%s", after, before)
		}
		// The existing names stay usable: read, replaced, listed.
		wantContains(t, text(e.ok(t, "read_file", args(t, map[string]any{"path": "docs/cafe\u0301.txt"}))), "decomposed")
		e.ok(t, "write_file", args(t, map[string]any{"path": "docs/cafe\u0301.txt", "content": "rewritten"}))
		if got := e.read(t, "docs/cafe\u0301.txt"); got != "rewritten" {
			t.Errorf("after write_file the decomposed name holds %q", got)
		}
		e.ok(t, "list_directory", args(t, map[string]any{"path": "docs"}))
		// A case-only rename of a file is no collision with itself.
		e.ok(t, "move_file", args(t, map[string]any{"source": "README.md", "destination": "Readme.md"}))
	})
}

func TestExistingNamesWithInvisibleCharactersStayUsable(t *testing.T) {
	tagged := "tag\U000E0041.txt"
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, tagged, "hidden")
		wantContains(t, text(e.ok(t, "read_file", args(t, map[string]any{"path": tagged}))), "hidden")
		e.ok(t, "list_directory", args(t, map[string]any{"path": "."}))
		e.ok(t, "write_file", args(t, map[string]any{"path": tagged, "content": "replaced"}))
		e.ok(t, "move_file", args(t, map[string]any{"source": tagged, "destination": "plain.txt"}))
		e.ok(t, "delete_file", args(t, map[string]any{"path": "plain.txt"}))
	})
}
