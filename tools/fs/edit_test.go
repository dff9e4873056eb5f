package fs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestEditFileReplaceAllCannotGrowTheTextPastTheEditLimit(t *testing.T) {
	bothFS(t, security.Limits{MaxEditBytes: 64}, func(t *testing.T, e *env) {
		e.write(t, "f.txt", strings.Repeat("x\n", 16)) // 32 bytes
		// 16 replacements of x by 4 bytes: 32 + 16*3 = 80 bytes, past 64.
		msg := e.fail(t, "edit_file", `{"path":"f.txt","edits":[{"old_text":"x","new_text":"yyyy","replace_all":true}]}`)
		wantContains(t, msg, `edits[0] with replace_all would make 16 replacements and grow the text of "f.txt" to 80 bytes, more than the 64 bytes edit_file changes; nothing was written`)
		if got := e.read(t, "f.txt"); got != strings.Repeat("x\n", 16) {
			t.Fatalf("the file changed: %q", got)
		}
		// Exactly the limit is allowed: 32 + 16*2 = 64.
		res := e.ok(t, "edit_file", `{"path":"f.txt","edits":[{"old_text":"x","new_text":"yyy","replace_all":true}]}`)
		var got EditFileResult
		structured(t, res, &got)
		if got.Replacements != 16 || got.Bytes != 64 {
			t.Fatalf("replacements %d, bytes %d", got.Replacements, got.Bytes)
		}
	})
}

func TestEditFile(t *testing.T) {
	const goFile = "package main\n\nfunc main() {\n\tx := 1\n\tprintln(x)\n}\n"
	tests := []struct {
		name    string
		file    string // content of f.txt before
		edits   string // the edits argument
		want    string // content after; "" means unchanged
		diff    string // the whole diff, when given
		fuzzy   []FuzzyMatch
		summary string
		err     string
	}{
		{name: "an exact match is replaced and the diff shown",
			file: goFile, edits: `[{"old_text":"x := 1","new_text":"x := 2"}]`,
			want:    strings.Replace(goFile, "x := 1", "x := 2", 1),
			diff:    "--- a/f.txt\n+++ b/f.txt\n@@ -1,6 +1,6 @@\n package main\n \n func main() {\n-\tx := 1\n+\tx := 2\n \tprintln(x)\n }\n",
			summary: `Applied 1 edit to "f.txt"`},
		{name: "edits apply in order, each to the text the one before left",
			file: "a\nb\n", edits: `[{"old_text":"a","new_text":"c"},{"old_text":"c\nb","new_text":"d"}]`,
			want: "d\n"},
		{name: "an empty new_text deletes old_text",
			file: "keep\ndrop\nkeep too\n", edits: `[{"old_text":"drop\n","new_text":""}]`,
			want: "keep\nkeep too\n"},
		{name: "old_text with plain line breaks matches a CRLF file, and the file stays CRLF",
			file: "one\r\ntwo\r\nthree\r\n", edits: `[{"old_text":"one\ntwo\n","new_text":"uno\ndos\n"}]`,
			want: "uno\r\ndos\r\nthree\r\n"},
		{name: "new_text in a CRLF file gets CRLF line endings",
			file: "a\r\nb\r\n", edits: `[{"old_text":"a","new_text":"x\ny"}]`,
			want: "x\r\ny\r\nb\r\n"},
		{name: "old_text written with CRLF matches a file with plain line breaks",
			file: "a\nb\nc\n", edits: `[{"old_text":"a\r\nb","new_text":"z"}]`,
			want: "z\nc\n"},
		{name: "a change at a last line without a newline says so in the diff",
			file: "a\nb", edits: `[{"old_text":"b","new_text":"c"}]`,
			want: "a\nc",
			diff: "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{name: "old_text matching only with other indentation is used, re-indented and reported",
			file: "class A:\n    def f(self):\n        return 1\n", edits: `[{"old_text":"def f(self):\n    return 1\n","new_text":"def f(self):\n    return 2\n"}]`,
			want:    "class A:\n    def f(self):\n        return 2\n",
			fuzzy:   []FuzzyMatch{{Edit: 0, Line: 2, Lines: 2, Reindented: true}},
			summary: "Note: edits[0].old_text did not occur exactly; it matched lines 2-3 when whitespace at the start and end of each line is ignored, and new_text was re-indented to the file's indentation"},
		{name: "old_text differing only in trailing spaces matches without re-indenting",
			file: "a  \nb\t\nc\n", edits: `[{"old_text":"a\nb","new_text":"x"}]`,
			want:  "x\nc\n",
			fuzzy: []FuzzyMatch{{Edit: 0, Line: 1, Lines: 2}}},
		{name: "tabs in the file and spaces in old_text match, and new_text gets the tabs",
			file: goFile, edits: `[{"old_text":"    x := 1\n    println(x)","new_text":"    y := 1\n    println(y)"}]`,
			want:  strings.Replace(goFile, "\tx := 1\n\tprintln(x)", "\ty := 1\n\tprintln(y)", 1),
			fuzzy: []FuzzyMatch{{Edit: 0, Line: 4, Lines: 2, Reindented: true}}},
		{name: "edits that change nothing write nothing",
			file: "same\n", edits: `[{"old_text":"same","new_text":"same"}]`,
			summary: `The 1 edit leave "f.txt" unchanged; nothing was written.`},
		{name: "old_text found more than once is an error naming the count and lines",
			file: "x\ny\nx\ny\nx\n", edits: `[{"old_text":"x","new_text":"z"}]`,
			err: `edits[0].old_text occurs 3 times in "f.txt" (lines 1, 3 and 5), and must occur once; add surrounding lines to it to make it unique, or set replace_all to replace every one; the file was not changed`},
		{name: "overlapping occurrences count as several",
			file: "aaa\n", edits: `[{"old_text":"aa","new_text":"b"}]`,
			err: `occurs 2 times in "f.txt" (all on line 1), and must occur once`},
		{name: "several occurrences on one line name the line once",
			file: "x x x x\n", edits: `[{"old_text":"x","new_text":"z"}]`,
			err: `edits[0].old_text occurs 4 times in "f.txt" (all on line 1), and must occur once`},
		{name: "occurrences on several lines list each line once",
			file: "x x\ny\nx\nx x x\n", edits: `[{"old_text":"x","new_text":"z"}]`,
			err: `edits[0].old_text occurs 6 times in "f.txt" (on lines 1, 3 and 4), and must occur once`},
		{name: "many lines are listed up to the limit, then counted",
			file: strings.Repeat("x x\n", 12), edits: `[{"old_text":"x","new_text":"z"}]`,
			err: `occurs 24 times in "f.txt" (on lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more), and must occur once`},
		{name: "old_text found nowhere is an error with a hint",
			file: goFile, edits: `[{"old_text":"func main() {\n\tx := 3","new_text":""}]`,
			err: `edits[0].old_text was not found in "f.txt" (its first line matches line 3, but the lines after it differ); read the file again with read_file and copy the text exactly, with its whitespace and line breaks; the file was not changed`},
		{name: "a failing second edit leaves the file as it was",
			file: "a\nb\n", edits: `[{"old_text":"a","new_text":"c"},{"old_text":"nope","new_text":"d"}]`,
			err: `edits[1].old_text was not found in "f.txt"; read the file again with read_file and copy the text exactly, with its whitespace and line breaks (each edit applies to the text the edits before it left); the file was not changed`},
		{name: "old_text that matches several places ignoring whitespace is an error",
			file: "  a\n  b\n\ta\n\tb\n", edits: `[{"old_text":"a\nb","new_text":"c"}]`,
			err: `edits[0].old_text does not occur exactly in "f.txt", and ignoring whitespace at the start and end of lines it matches 2 places (lines 1 and 3)`},
		{name: "replace_all replaces every occurrence and counts them",
			file: "x\ny\nx\ny\nx\n", edits: `[{"old_text":"x","new_text":"z","replace_all":true}]`,
			want: "z\ny\nz\ny\nz\n", summary: `Applied 1 edit to "f.txt" (now 10 bytes). They made 3 replacements.`},
		{name: "replace_all replaces overlapping occurrences from the left, as strings.ReplaceAll",
			file: "aaaa\n", edits: `[{"old_text":"aa","new_text":"b","replace_all":true}]`,
			want: "bb\n", summary: "They made 2 replacements."},
		{name: "replace_all of a single occurrence is one replacement, and says nothing more",
			file: "a\nb\n", edits: `[{"old_text":"b","new_text":"c","replace_all":true}]`,
			want: "a\nc\n"},
		{name: "replace_all with plain line breaks matches a CRLF file",
			file: "a\r\nb\r\na\r\nb\r\n", edits: `[{"old_text":"a\nb","new_text":"c","replace_all":true}]`,
			want: "c\r\nc\r\n", summary: "They made 2 replacements."},
		{name: "replace_all counts the replacements of every edit, beside plain ones",
			file: "x x\ny\n", edits: `[{"old_text":"x","new_text":"w","replace_all":true},{"old_text":"y","new_text":"v"}]`,
			want: "w w\nv\n", summary: "Applied 2 edits to \"f.txt\" (now 6 bytes). They made 3 replacements."},
		{name: "replace_all falls back to one place matched ignoring whitespace",
			file: "  a\n  b\n", edits: `[{"old_text":"a\nb","new_text":"c","replace_all":true}]`,
			want: "  c\n", fuzzy: []FuzzyMatch{{Edit: 0, Line: 1, Lines: 2, Reindented: true}}},
		{name: "replace_all of text found nowhere is the usual error",
			file: "a\n", edits: `[{"old_text":"zz","new_text":"c","replace_all":true}]`,
			err: `edits[0].old_text was not found in "f.txt"`},
		{name: "an empty old_text is refused", file: "a\n", edits: `[{"old_text":"","new_text":"x"}]`,
			err: `"edits[0].old_text"`},
		{name: "no edits are refused", file: "a\n", edits: `[]`, err: `"edits"`},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e.write(t, "f.txt", tt.file)
				res := e.call(t, "edit_file", `{"path":"f.txt","edits":`+tt.edits+`}`)
				if !outcome(t, res, tt.err) {
					if got := e.read(t, "f.txt"); got != tt.file {
						t.Errorf("a failed edit changed the file to %q", got)
					}
					return
				}
				want := tt.want
				if want == "" {
					want = tt.file
				}
				if got := e.read(t, "f.txt"); got != want {
					t.Errorf("file = %q, want %q", got, want)
				}
				var got EditFileResult
				structured(t, res, &got)
				if tt.diff != "" && got.Diff != tt.diff {
					t.Errorf("diff =\n%s\nwant\n%s", got.Diff, tt.diff)
				}
				if (got.Diff == "") != (want == tt.file) {
					t.Errorf("diff %q for a change %q -> %q", got.Diff, tt.file, want)
				}
				if len(got.FuzzyMatches) != len(tt.fuzzy) {
					t.Fatalf("fuzzy_matches = %+v, want %+v", got.FuzzyMatches, tt.fuzzy)
				}
				for i := range tt.fuzzy {
					if got.FuzzyMatches[i] != tt.fuzzy[i] {
						t.Errorf("fuzzy_matches[%d] = %+v, want %+v", i, got.FuzzyMatches[i], tt.fuzzy[i])
					}
				}
				wantContains(t, text(res), tt.summary, got.Diff)
				noTempFiles(t, e)
			})
		}
	})
}

func TestEditFileDryRunShowsTheDiffAndChangesNothing(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "f.txt", "a\nb\n")
		before := e.snapshot(t)
		res := e.ok(t, "edit_file", `{"path":"f.txt","edits":[{"old_text":"b","new_text":"c"}],"dry_run":true}`)
		wantContains(t, text(res), `Dry run: 1 edit would change "f.txt" as shown below. Nothing was written.`, "-b\n+c\n")
		if got := object(t, res); got["dry_run"] != true || got["applied"] != 1.0 {
			t.Errorf("structured = %v", got)
		}
		if after := e.snapshot(t); after != before {
			t.Errorf("dry run changed the tree:\n%s", after)
		}
	})
}

func TestEditFileRefusals(t *testing.T) {
	bothFS(t, security.Limits{MaxEditBytes: 16}, func(t *testing.T, e *env) {
		e.write(t, "bin", "a\x00b")
		e.write(t, "big.txt", strings.Repeat("x", 17))
		e.mkdir(t, "dir")
		for _, c := range []struct{ name, path, err string }{
			{"a missing file is an error that points to write_file", "nope.txt", `"nope.txt" does not exist; edit_file changes existing files, and write_file creates new ones`},
			{"a binary file is refused", "bin", `"bin" is not a text file (it is binary); edit_file changes text files only`},
			{"a file over the edit limit is refused", "big.txt", `"big.txt" is 17 bytes, more than the 16 bytes edit_file works on`},
			{"a directory is refused", "dir", `"dir" is a directory`},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantContains(t, e.fail(t, "edit_file", args(t, map[string]any{"path": c.path, "edits": []Edit{{OldText: "a", NewText: "b"}}})), c.err)
			})
		}
	})
}

func TestEditFileKeepsTheMode(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.writeMode(t, "run.sh", "echo 1\n", 0o750)
		e.ok(t, "edit_file", `{"path":"run.sh","edits":[{"old_text":"1","new_text":"2"}]}`)
		fi, err := e.fs.Stat("run.sh")
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o750 {
			t.Errorf("mode = %v, want 0750", fi.Mode().Perm())
		}
	})
}

// everyFourth returns n lines "L0001\n"…, with every fourth one made
// "X0004\n"… when changed.
func everyFourth(n int, changed bool) []string {
	lines := make([]string, n)
	for i := range lines {
		c := 'L'
		if changed && (i+1)%4 == 0 {
			c = 'X'
		}
		lines[i] = fmt.Sprintf("%c%04d\n", c, i+1)
	}
	return lines
}

func TestEditFileCutsALongDiffWithANote(t *testing.T) {
	// The diff is cut at the read limit when that is lower than 64 KiB.
	const limit = 2000
	old, edited := everyFourth(300, false), everyFourth(300, true)
	oldText, newText := strings.Join(old, ""), strings.Join(edited, "")
	for _, dry := range []bool{true, false} {
		t.Run(fmt.Sprintf("dry_run=%v", dry), func(t *testing.T) {
			bothFS(t, security.Limits{MaxReadBytes: limit}, func(t *testing.T, e *env) {
				e.write(t, "f.txt", oldText)
				full := unifiedDiff("f.txt", oldText, newText)
				res := e.ok(t, "edit_file", args(t, map[string]any{"path": "f.txt", "dry_run": dry,
					"edits": []Edit{{OldText: oldText, NewText: newText}}}))
				var got EditFileResult
				structured(t, res, &got)
				if len(got.Diff) > limit || !strings.HasPrefix(full, got.Diff) || !strings.HasSuffix(got.Diff, "\n") {
					t.Fatalf("diff of %d bytes is not the start of the whole one, in whole lines, within %d bytes", len(got.Diff), limit)
				}
				if !got.DiffTruncated || got.DiffBytes != len(full) {
					t.Errorf("diff_truncated = %v, diff_bytes = %d; want true, %d", got.DiffTruncated, got.DiffBytes, len(full))
				}
				if len(text(res)) > limit+1000 {
					t.Errorf("the text is %d bytes", len(text(res)))
				}
				// The note names the first line the shown part does not
				// reach: the line after the last one it shows.
				shown := strings.SplitAfter(strings.TrimSuffix(got.Diff, "\n"), "\n")
				lastOld, lastNew := "", ""
				for _, l := range shown[2:] {
					switch l[0] {
					case ' ':
						lastOld, lastNew = l[1:], l[1:]
					case '-':
						lastOld = l[1:]
					case '+':
						lastNew = l[1:]
					}
				}
				lastOld, lastNew = strings.TrimSuffix(lastOld, "\n")+"\n", strings.TrimSuffix(lastNew, "\n")+"\n"
				oldNext := slices.Index(old, lastOld) + 2
				newNext := slices.Index(edited, lastNew) + 2
				wantContains(t, text(res), fmt.Sprintf("The diff is %s, with 75 lines added and 75 lines removed in all; only its first %s are shown",
					byteSize(int64(len(full))), byteSize(int64(len(got.Diff)))))
				if dry {
					wantContains(t, got.Note, fmt.Sprintf("which stop before line %d of the file as it is (line %d once edited). Nothing was written", oldNext, newNext),
						fmt.Sprintf("read_file with offset=%d reads the file as it is from there.", oldNext))
					if e.read(t, "f.txt") != oldText {
						t.Error("a dry run wrote the file")
					}
					return
				}
				wantContains(t, got.Note, fmt.Sprintf("which stop before line %d of the edited file. Every edit was applied: read_file with offset=%d reads the edited file from there.", newNext, newNext))
				wantContains(t, text(e.ok(t, "read_file", fmt.Sprintf(`{"path":"f.txt","offset":%d,"limit":1}`, newNext))), edited[newNext-1])
				if e.read(t, "f.txt") != newText {
					t.Error("the edit was not written whole")
				}
			})
		})
	}
}

func TestEditFileDiffIsCappedAt64KiB(t *testing.T) {
	// A rewrite of a 1.2 MB file made a diff of twice that; 64 KiB of it
	// are returned.
	var sb strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&sb, "line %06d\n", i)
	}
	oldText := sb.String()
	newText := strings.ToUpper(oldText)
	e := newRealEnv(t, security.Limits{})
	e.write(t, "big.txt", oldText)
	res := e.ok(t, "edit_file", args(t, map[string]any{"path": "big.txt", "dry_run": true,
		"edits": []Edit{{OldText: oldText, NewText: newText}}}))
	var got EditFileResult
	structured(t, res, &got)
	if len(got.Diff) > maxDiffBytes || len(got.Diff) < maxDiffBytes-100 || !got.DiffTruncated || got.DiffBytes < 2*len(oldText) {
		t.Errorf("diff of %d bytes (truncated %v) out of %d", len(got.Diff), got.DiffTruncated, got.DiffBytes)
	}
	if n := len(text(res)); n > maxDiffBytes+1000 {
		t.Errorf("the text is %d bytes", n)
	}
	wantContains(t, text(res), "only its first 65", "are shown, which stop before line ")
}
