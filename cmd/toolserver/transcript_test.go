package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTranscripts replays every testdata/transcripts/*.txt against the real
// binary. In a transcript, "> " lines are sent to the server's stdin and
// "< " lines are the exact lines expected on its stdout, in order ("<^ "
// lines only the start of one, for answers too long to keep by heart);
// "#" lines are comments, and a "# flags:" comment adds command-line flags.
// After the last line, stdin is closed: the server must exit 0 and write
// nothing more.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("../../testdata/transcripts/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts found: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			t.Parallel()
			runTranscript(t, f)
		})
	}
}

func runTranscript(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--root", playground(t)}
	var steps []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# flags:"):
			args = append(args, strings.Fields(strings.TrimPrefix(line, "# flags:"))...)
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "> ") || strings.HasPrefix(line, "< ") || strings.HasPrefix(line, "<^ "):
			steps = append(steps, line)
		default:
			t.Fatalf("%s:%d: a line must start with \"> \", \"< \", \"<^ \" or \"#\"", file, n)
		}
	}
	p := start(t, args...)
	for _, s := range steps {
		if strings.HasPrefix(s, "> ") {
			p.send(s[2:])
			continue
		}
		if prefix, ok := strings.CutPrefix(s, "<^ "); ok {
			if got := p.recv(); !strings.HasPrefix(got, prefix) {
				t.Fatalf("\n got       %s\n want start %s", got, prefix)
			}
			continue
		}
		if got, want := p.recv(), s[2:]; got != want {
			t.Fatalf("\n got  %s\n want %s", got, want)
		}
	}
	p.finish()
}
