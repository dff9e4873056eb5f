package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/servertest"
)

// TestTranscripts replays every testdata/transcripts/*.txt against the
// real binary, with servertest (see [servertest.Transcript] for the
// format); a "# flags:" comment adds command-line flags. After the last
// line, stdin is closed: the server must write nothing more and exit 0.
// Run with -update to rewrite the expected lines.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("../../testdata/transcripts/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts found: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			t.Parallel()
			tr, err := servertest.ReadTranscript(f)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary, append([]string{"--root", playground(t)}, tr.Flags...)...)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr := &lockedWriter{b: &strings.Builder{}}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			tr.Run(t, servertest.Dial(t, stdin, stdout))
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case err := <-waited:
				if err != nil {
					t.Fatalf("toolserver exited with %v; stderr:\n%s", err, stderr)
				}
			case <-time.After(servertest.Timeout):
				t.Fatal("toolserver did not exit after stdin closed")
			}
		})
	}
}
