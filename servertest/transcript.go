package servertest

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/server"
)

// update is the -update flag of a test binary that imports servertest.
var update = flag.Bool("update", false, "servertest: rewrite the expected lines of transcripts from what the server says now")

// Any is the placeholder that stands, in an expected line of a
// transcript, for any text: a version, a time, a random id.
const Any = "{{any}}"

// Transcript is a scripted session: the lines a client sends and the
// lines the server must write back, in order. In its file:
//
//	> {"jsonrpc":"2.0","id":1,"method":"ping"}    a line sent to the server
//	< {"jsonrpc":"2.0","id":1,"result":{}}        the next line it must write, exactly
//	<^ {"jsonrpc":"2.0","id":2,"result":{"tools"  the next line must start so
//	# a comment; "# flags: --read-only" lists flags for whoever starts the server
//
// In an expected line, {{any}} matches any text. Blank lines are ignored.
// When the transcript has been played, the server's input is closed and
// it must write nothing more.
type Transcript struct {
	// Path is the file the transcript was read from.
	Path string
	// Flags are the words of its "# flags:" comments, in order: what a
	// test that starts the server as a program passes it.
	Flags []string

	lines []string // the file's lines, for -update
	steps []step
}

// step is one "> ", "< " or "<^ " line of a transcript.
type step struct {
	line   int    // index in lines
	send   bool   // "> "
	prefix bool   // "<^ "
	text   string // after the marker
}

// ReadTranscript reads and checks a transcript file.
func ReadTranscript(path string) (*Transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tr := &Transcript{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		n := len(tr.lines)
		tr.lines = append(tr.lines, line)
		switch {
		case strings.HasPrefix(line, "# flags:"):
			tr.Flags = append(tr.Flags, strings.Fields(strings.TrimPrefix(line, "# flags:"))...)
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "> "):
			tr.steps = append(tr.steps, step{line: n, send: true, text: line[2:]})
		case strings.HasPrefix(line, "< "):
			tr.steps = append(tr.steps, step{line: n, text: line[2:]})
		case strings.HasPrefix(line, "<^ "):
			tr.steps = append(tr.steps, step{line: n, prefix: true, text: line[3:]})
		default:
			return nil, fmt.Errorf("%s:%d: a line must start with \"> \", \"< \", \"<^ \" or \"#\"", path, n+1)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tr, nil
}

// Run plays the transcript against c: it sends each "> " line and checks
// each line the server writes against the next expected one, then closes
// the server's input and checks that it writes nothing more. A mismatch
// fails the test, naming the file and line; with -update, the expected
// lines are instead rewritten from what the server wrote.
func (tr *Transcript) Run(t testing.TB, c *Client) {
	t.Helper()
	changed := false
	for _, s := range tr.steps {
		if s.send {
			c.Send(s.text)
			continue
		}
		got, err := c.next()
		if err != nil {
			t.Fatalf("%s:%d: expected a line, but %v", tr.Path, s.line+1, err)
		}
		if s.prefix && strings.HasPrefix(got, s.text) || !s.prefix && Match(s.text, got) {
			continue
		}
		if !*update {
			want := "want"
			if s.prefix {
				want = "want start"
			}
			t.Fatalf("%s:%d:\n got  %s\n %s %s", tr.Path, s.line+1, got, want, s.text)
		}
		tr.lines[s.line], changed = "< "+got, true
	}
	if err := c.Close(); err != nil {
		t.Fatalf("servertest: close the server's input: %v", err)
	}
	for {
		got, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: after the last line: %v", tr.Path, err)
		}
		if !*update {
			t.Fatalf("%s: the server wrote more than the transcript expects:\n %s", tr.Path, got)
		}
		tr.lines, changed = append(tr.lines, "< "+got), true
	}
	if changed {
		if err := os.WriteFile(tr.Path, []byte(strings.Join(tr.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatalf("servertest: -update: %v", err)
		}
		t.Logf("servertest: rewrote %s", tr.Path)
	}
}

// Match reports whether got matches the expected line want, in which
// each {{any}} stands for any text.
func Match(want, got string) bool {
	parts := strings.Split(want, Any)
	if len(parts) == 1 {
		return want == got
	}
	first, last := parts[0], parts[len(parts)-1]
	if !strings.HasPrefix(got, first) || !strings.HasSuffix(got[len(first):], last) {
		return false
	}
	rest := got[len(first) : len(got)-len(last)]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}

// RunTranscript reads the transcript at path and plays it against srv,
// served in memory from the first line: the handshake is the
// transcript's to make.
func RunTranscript(t testing.TB, srv *server.Server, path string) {
	t.Helper()
	tr, err := ReadTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	tr.Run(t, Connect(t, srv))
}
