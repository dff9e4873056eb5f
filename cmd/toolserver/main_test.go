package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/internal/testbin"
)

// binary is the toolserver built once for the tests that run it as a
// subprocess, exactly as an MCP host does.
var binary string

// binaryEnv names the environment variable that hands a test run again in
// a child process (see internal/testmount) the binary already built.
const binaryEnv = "TOOLSERVER_TEST_BINARY"

func TestMain(m *testing.M) {
	if bin := os.Getenv(binaryEnv); bin != "" {
		binary = bin
		os.Exit(m.Run())
	}
	bin, cleanup, err := testbin.Build(".", "toolserver")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// playground is the sample tree the binary serves in tests.
func playground(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../testdata/playground")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// proc is a running toolserver with its pipes.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *lockedWriter
	waited chan error
}

func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startEnv(t, nil, args...)
}

// startEnv starts the binary with env added to the test's environment.
func startEnv(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	return startBinary(t, binary, env, args...)
}

// startBinary is startEnv for the binary bin.
func startBinary(t *testing.T, bin string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, stdin: stdin, lines: make(chan string, 1024), stderr: &lockedWriter{b: &strings.Builder{}}, waited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				p.lines <- l
			}
			if err != nil {
				close(p.lines)
				return
			}
		}
	}()
	go func() { p.waited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
	})
	return p
}

func (p *proc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("write to toolserver: %v", err)
	}
}

func (p *proc) recv() string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("toolserver closed stdout; stderr:\n%s", p.stderr)
		}
		if !strings.HasSuffix(l, "\n") {
			p.t.Fatalf("stdout line without newline: %q", l)
		}
		return strings.TrimSuffix(l, "\n")
	case <-time.After(10 * time.Second):
		p.t.Fatalf("no line on stdout within 10s; stderr:\n%s", p.stderr)
		return ""
	}
}

// finish closes stdin and checks that the server exits 0 without writing
// anything more to stdout.
func (p *proc) finish() {
	p.t.Helper()
	p.stdin.Close()
	select {
	case err := <-p.waited:
		if err != nil {
			p.t.Fatalf("toolserver exited with %v; stderr:\n%s", err, p.stderr)
		}
	case <-time.After(10 * time.Second):
		p.t.Fatal("toolserver did not exit after stdin closed")
	}
	for l := range p.lines {
		p.t.Errorf("unexpected output after the last response: %q", l)
	}
}

// lockedWriter lets the test read stderr while the process writes it.
type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(b)
}

// String returns what was written so far.
func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
