package fs

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/security"
)

func grepFixture(t *testing.T, e *env) {
	e.write(t, "a.go", "package a\n\nfunc Hello() {}\n// TODO: hello\n")
	e.write(t, "b/c.txt", "Hello world\r\nbye\r\n")
	e.write(t, "bin.dat", "Hello\x00")
	e.write(t, "pic.png", pngHeader+"Hello")
	e.write(t, "big.txt", strings.Repeat("Hello\n", 50))
	e.write(t, "bad.txt", "Hello \xff\n")
}

func TestGrep(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		want  []string // path:line:text
		note  string
		trunc bool
		err   string
	}{
		{name: "plain text is found in every file, binary and large files skipped and counted",
			args: `{"query":"Hello"}`,
			want: []string{"a.go:3:func Hello() {}", "b/c.txt:1:Hello world", "bad.txt:1:Hello \uFFFD"},
			note: "Skipped 2 binary files, 1 file larger than 200 bytes."},
		{name: "ignore_case finds every case",
			args: `{"query":"hello","ignore_case":true,"glob":"*.go"}`,
			want: []string{"a.go:3:func Hello() {}", "a.go:4:// TODO: hello"}},
		{name: "a regex matches within lines",
			args: `{"query":"^func \\w+\\(","regex":true}`,
			want: []string{"a.go:3:func Hello() {}"}},
		{name: "a dollar matches before a CRLF line ending",
			args: `{"query":"world$","regex":true}`,
			want: []string{"b/c.txt:1:Hello world"}},
		{name: "regex metacharacters are literal without regex",
			args: `{"query":"Hello()"}`,
			want: []string{"a.go:3:func Hello() {}"}},
		{name: "glob limits the files searched",
			args: `{"query":"Hello","glob":"*.txt"}`,
			want: []string{"b/c.txt:1:Hello world", "bad.txt:1:Hello \uFFFD"}},
		{name: "glob with a slash is matched against the path below path",
			args: `{"query":"Hello","glob":"b/*"}`,
			want: []string{"b/c.txt:1:Hello world"}},
		{name: "a file as path searches only it",
			args: `{"path":"a.go","query":"a"}`,
			want: []string{"a.go:1:package a"}},
		{name: "a directory as path searches below it",
			args: `{"path":"b","query":"bye"}`,
			want: []string{"b/c.txt:2:bye"}},
		{name: "max_results keeps the first results in order, with a cursor to read on",
			args: `{"query":"e","max_results":2}`,
			want: []string{"a.go:1:package a", "a.go:3:func Hello() {}"}, trunc: true,
			note: "2 matching lines in 1 file (2 files searched).\nShowing the first 2 matching lines; more may match: pass cursor \"bGluZXMvMy9hLmdv\" with the same arguments to read on"},
		{name: "no match is not an error",
			args: `{"query":"absent"}`, want: nil, note: "No line matches in 3 files searched."},
		{name: "an invalid regex is an error that names the problem",
			args: `{"query":"(abc","regex":true}`,
			err:  `query "(abc" is not a valid regular expression: missing closing ) in "(abc"; fix it (RE2 syntax), or leave regex out to search for the text as it is`},
		{name: "a regex RE2 does not support is an error",
			args: `{"query":"(?=x)","regex":true}`,
			err:  `is not a valid regular expression: invalid or unsupported Perl syntax`},
		{name: "a query with a line break is refused",
			args: `{"query":"a\nb"}`, err: "query holds a line break"},
		{name: "a malformed glob is a clear error",
			args: `{"query":"a","glob":"[x"}`, err: `glob: the pattern "[x" is malformed`},
		{name: "a missing path is an error",
			args: `{"path":"nope","query":"a"}`, err: `"nope" does not exist`},
	}
	bothFS(t, security.Limits{MaxReadBytes: 200}, func(t *testing.T, e *env) {
		grepFixture(t, e)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.call(t, "grep", tt.args)
				if !outcome(t, res, tt.err) {
					return
				}
				var got GrepResult
				structured(t, res, &got)
				var lines []string
				for _, m := range got.Matches {
					lines = append(lines, m.Path+":"+itoa(m.Line)+":"+m.Text)
					if !utf8.ValidString(m.Text) {
						t.Errorf("invalid UTF-8 in %q", m.Text)
					}
				}
				if strings.Join(lines, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("matches =\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(tt.want, "\n"))
				}
				if len(tt.want) > 0 {
					wantContains(t, text(res), strings.Join(tt.want, "\n")+"\n")
				}
				if got.Truncated != tt.trunc {
					t.Errorf("truncated = %v", got.Truncated)
				}
				wantContains(t, text(res), tt.note)
			})
		}
	})
}

func TestGrepLongLinesStayShort(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "long.txt", strings.Repeat("x", 1000)+"NEEDLE"+strings.Repeat("y", 1000)+"\n")
		res := e.ok(t, "grep", `{"query":"NEEDLE","glob":"long.txt"}`)
		want := "long.txt:1:…" + strings.Repeat("x", 80) + "NEEDLE" + strings.Repeat("y", 154) + "…\n"
		wantContains(t, text(res), want)

		e.write(t, "start.txt", "NEEDLE"+strings.Repeat("é", 500)+"\n")
		e.write(t, "end.txt", strings.Repeat("é", 500)+"NEEDLE\n")
		res = e.ok(t, "grep", `{"query":"NEEDLE","glob":"{start,end}.txt"}`)
		var got GrepResult
		structured(t, res, &got)
		for _, m := range got.Matches {
			if len(m.Text) > maxGrepLine+10 || !strings.Contains(m.Text, "NEEDLE") || !utf8.ValidString(m.Text) {
				t.Errorf("%s: %q (%d bytes)", m.Path, m.Text, len(m.Text))
			}
		}
		if !strings.HasPrefix(got.Matches[0].Text, "…é") || !strings.HasPrefix(got.Matches[1].Text, "NEEDLEé") {
			t.Errorf("cuts at the wrong end: %+v", got.Matches)
		}
	})
}
