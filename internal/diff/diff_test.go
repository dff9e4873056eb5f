package diff

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	long := func(n int) string {
		var sb strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&sb, "%d\n", i)
		}
		return sb.String()
	}
	tests := []struct {
		name, old, new, want string
	}{
		{"equal texts have no diff", "a\n", "a\n", ""},
		{"a changed line shows up to three lines around it",
			long(10), strings.Replace(long(10), "5\n", "five\n", 1),
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"a line added at the start",
			"a\nb\n", "x\na\nb\n", "@@ -1,2 +1,3 @@\n+x\n a\n b\n"},
		{"a line added to an empty text",
			"", "a\n", "@@ -0,0 +1 @@\n+a\n"},
		{"everything removed",
			"a\n", "", "@@ -1 +0,0 @@\n-a\n"},
		{"a last line without a newline is marked",
			"a", "b", "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"},
		{"adding the final newline is a change",
			"x\na", "x\na\n", "@@ -1,2 +1,2 @@\n x\n-a\n\\ No newline at end of file\n+a\n"},
		{"changes far apart make two hunks",
			long(20), strings.Replace(strings.Replace(long(20), "2\n", "two\n", 1), "19\n", "nineteen\n", 1),
			"@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"},
		{"changes close together make one hunk",
			long(12), strings.Replace(strings.Replace(long(12), "3\n", "three\n", 1), "9\n", "nine\n", 1),
			"@@ -1,12 +1,12 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n 8\n-9\n+nine\n 10\n 11\n 12\n"},
		{"CRLF lines keep their carriage return",
			"a\r\nb\r\n", "a\r\nc\r\n", "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
		{"lines added in the middle",
			"a\nb\nc\n", "a\nb\nx\ny\nc\n", "@@ -1,3 +1,5 @@\n a\n b\n+x\n+y\n c\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unified("f", tt.old, tt.new)
			want := tt.want
			if want != "" {
				want = "--- a/f\n+++ b/f\n" + want
			}
			if got != want {
				t.Errorf("diff =\n%s\nwant\n%s", got, want)
			}
			if applied, err := applyDiff(tt.old, got); err != nil || applied != tt.new {
				t.Errorf("applying the diff gives %q, %v; want %q", applied, err, tt.new)
			}
		})
	}
}

func TestUnifiedDiffOfVeryDifferentTextsIsStillCorrect(t *testing.T) {
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d := Unified("f", a.String(), b.String())
	if got, err := applyDiff(a.String(), d); err != nil || got != b.String() {
		t.Fatalf("applying the diff failed: %v", err)
	}
}

// applyDiff applies a unified diff made by unifiedDiff to old: the test's
// own reading of the format.
func applyDiff(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	lines := splitLines(diff)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- a/") || !strings.HasPrefix(lines[1], "+++ b/") {
		return "", fmt.Errorf("bad headers")
	}
	src := splitLines(old)
	var out []string
	next := 0 // the next line of src to copy
	for i := 2; i < len(lines); {
		var aStart, aLen, bStart, bLen int
		h := strings.TrimSuffix(lines[i], "\n")
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", new(string), new(string)); err != nil {
			return "", fmt.Errorf("bad hunk header %q", h)
		}
		f := strings.Fields(h)
		aStart, aLen = parseRange(f[1][1:])
		bStart, bLen = parseRange(f[2][1:])
		_ = bStart
		from := aStart - 1
		if aLen == 0 {
			from = aStart
		}
		if from < next || from > len(src) {
			return "", fmt.Errorf("hunk %q out of order", h)
		}
		out = append(out, src[next:from]...)
		next = from
		i++
		gotA, gotB := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			body := l[1:]
			if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				if next >= len(src) || src[next] != body {
					return "", fmt.Errorf("context %q does not match", body)
				}
				out = append(out, body)
				next++
				gotA++
				gotB++
			case '-':
				if next >= len(src) || src[next] != body {
					return "", fmt.Errorf("removed line %q does not match", body)
				}
				next++
				gotA++
			case '+':
				out = append(out, body)
				gotB++
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
			i++
		}
		if gotA != aLen || gotB != bLen {
			return "", fmt.Errorf("hunk %q has %d and %d lines", h, gotA, gotB)
		}
	}
	out = append(out, src[next:]...)
	return strings.Join(out, ""), nil
}

// parseRange parses "start,len" or "start" (len 1).
func parseRange(s string) (int, int) {
	start, n, ok := strings.Cut(s, ",")
	a, _ := strconv.Atoi(start)
	if !ok {
		return a, 1
	}
	b, _ := strconv.Atoi(n)
	return a, b
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("x", "")
	f.Add("a\r\nb", "a\nb\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\nx\n4\n5\n6\n7\n8\ny\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		d := Unified("f", old, new)
		if (d == "") != (old == new) {
			t.Fatalf("diff %q for %q -> %q", d, old, new)
		}
		got, err := applyDiff(old, d)
		if err != nil {
			t.Fatalf("diff of %q -> %q does not apply: %v\n%s", old, new, err, d)
		}
		if got != new {
			t.Fatalf("applying the diff of %q -> %q gives %q\n%s", old, new, got, d)
		}
		// Diffing only the window between the common start and end is
		// diffing the whole texts, also with many equal lines around.
		const pad = "p1\np2\np3\np4\np5\np6\np7\np8\n"
		for _, w := range [][2]string{{"", ""}, {pad, ""}, {"", pad}, {pad, pad}, {pad + "x", "y\n" + pad}} {
			o, n := w[0]+old+w[1], w[0]+new+w[1]
			if o == n {
				continue
			}
			if got, want := Unified("f", o, n), windowDiff("f", o, n, 0); got != want {
				t.Fatalf("diff of %q -> %q in its window:\n%s\nof the whole texts:\n%s", o, n, got, want)
			}
		}
	})
}

func TestCutKeepsWholeLinesAndSaysWhereToReadOn(t *testing.T) {
	const d = "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"
	if got := Unified("f", long(20), strings.Replace(strings.Replace(long(20), "2\n", "two\n", 1), "19\n", "nineteen\n", 1)); got != d {
		t.Fatalf("the diff cut below is\n%s", got)
	}
	tests := []struct {
		name             string
		after            string // the cut falls just after this line
		oldNext, newNext int
	}{
		{"within the first hunk", " 3\n", 4, 4},
		{"after a removed line", "-2\n", 3, 2},
		{"after an added line", "+two\n", 3, 3},
		{"after a hunk header", "@@ -16,5 +16,5 @@\n", 16, 16},
		{"in the second hunk", "-19\n", 20, 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end := strings.Index(d, tt.after) + len(tt.after)
			for _, limit := range []int{end, end + 1, end + len(" 4")} {
				shown, oldNext, newNext := Cut(d, limit)
				if shown != d[:end] || oldNext != tt.oldNext || newNext != tt.newNext {
					t.Errorf("Cut at %d = %q, %d, %d; want %q, %d, %d", limit, shown, oldNext, newNext, d[:end], tt.oldNext, tt.newNext)
				}
			}
		})
	}
	if shown, oldNext, newNext := Cut(d, len(d)); shown != d || oldNext != 0 || newNext != 0 {
		t.Errorf("Cut of a diff that fits = %q, %d, %d", shown, oldNext, newNext)
	}
	if added, removed := Stat(d); added != 2 || removed != 2 {
		t.Errorf("Stat = %d added, %d removed; want 2 and 2", added, removed)
	}
}

// long returns the lines "1" to "n".
func long(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "%d\n", i)
	}
	return sb.String()
}
