//go:build !windows

package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// countingWriter records every Write call separately.
type countingWriter struct{ writes [][]byte }

func (w *countingWriter) Write(b []byte) (int, error) {
	w.writes = append(w.writes, bytes.Clone(b))
	return len(b), nil
}

// echoInput has short lines, an empty line, a 2 MiB line, a CRLF line, a
// line longer than the echo's buffer and a last line without newline.
func echoInput() [][]byte {
	big := bytes.Repeat([]byte("0123456789abcdef"), 2<<20/16)
	huge := bytes.Repeat([]byte("x"), echoBufSize+12345)
	return [][]byte{
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"),
		[]byte("\n"),
		append(big, '\n'),
		[]byte("héllo\r\n"),
		append(huge, '\n'),
		[]byte("no newline at the end"),
	}
}

func TestRunEchoOneWritePerLine(t *testing.T) {
	lines := echoInput()
	var w countingWriter
	// Hand the input over in small pieces, as a pipe would.
	if err := runEcho(&chunkReader{data: bytes.Join(lines, nil), n: 65521}, &w); err != nil {
		t.Fatal(err)
	}
	if len(w.writes) != len(lines) {
		t.Fatalf("got %d writes, want one per line: %d", len(w.writes), len(lines))
	}
	for i := range lines {
		if !bytes.Equal(w.writes[i], lines[i]) {
			t.Errorf("line %d: got %d bytes, want %d bytes, equal=false", i, len(w.writes[i]), len(lines[i]))
		}
	}
}

// chunkReader returns data n bytes at a time at most.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(b []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	k := copy(b[:min(len(b), r.n)], r.data)
	r.data = r.data[k:]
	return k, nil
}

// TestEchoSubcommandByteForByte runs the echo as a process, as the bench
// does, and checks that it returns its input byte for byte, the 2 MiB line
// included.
func TestEchoSubcommandByteForByte(t *testing.T) {
	input := bytes.Join(echoInput(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, echoSpec().Argv[0], echoSpec().Argv[1:]...)
	cmd.Env = append(cmd.Environ(), echoSpec().Env...)
	cmd.Stdin = bytes.NewReader(input)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("echo: %v, stderr: %s", err, stderr.String())
	}
	if !bytes.Equal(out.Bytes(), input) {
		t.Fatalf("echo output differs: %d bytes in, %d bytes out", len(input), out.Len())
	}
}

// TestEchoProcessLineByLine talks to the echo the way the bench does: one
// line out, one line back, in blocking and in poller mode.
func TestEchoProcessLineByLine(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := startProcess(ctx, echoSpec())
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("z", 2<<20)
	for i, blocking := range []bool{false, true, false} {
		if err := p.setBlocking(blocking); err != nil {
			t.Fatal(err)
		}
		for _, line := range []string{"a", big, `{"id":3}`} {
			if err := p.write([]byte(line + "\n")); err != nil {
				t.Fatal(err)
			}
			got, err := p.readLine()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != line {
				t.Fatalf("pass %d: got %d bytes back, want %d", i, len(got), len(line))
			}
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}
