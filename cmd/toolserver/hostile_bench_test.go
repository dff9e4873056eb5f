//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkHostileTrees measures the peak resident memory of the server
// (VmHWM) while 64 calls run at once on a folder that nobody vetted: a
// folder of 200,000 empty files, and a tree 3,000 levels deep. It is a
// benchmark, not a test, because it builds trees of that size (a few
// seconds) and reports what it finds, as "peak-MiB" per case, whatever
// that is; the goal is 256 MiB:
//
//	go test -run '^$' -bench HostileTrees -benchtime 1x ./cmd/toolserver/
func BenchmarkHostileTrees(b *testing.B) {
	dir := b.TempDir()
	wide := filepath.Join(dir, "wide")
	if err := os.Mkdir(wide, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 200_000 {
		f, err := os.Create(filepath.Join(wide, "f"+strconv.Itoa(i)))
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	if err := deepTree(filepath.Join(dir, "deep"), 3000); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		call func(i int) string
	}{
		{"list-wide", func(i int) string { return `{"name":"list_directory","arguments":{"path":"wide"}}` }},
		{"grep-wide", func(i int) string { return `{"name":"grep","arguments":{"path":"wide","query":"x"}}` }},
		{"grep-deep", func(i int) string { return `{"name":"grep","arguments":{"path":"deep","query":"x"}}` }},
		{"mix", func(i int) string {
			switch i % 3 {
			case 0:
				return `{"name":"list_directory","arguments":{"path":"wide"}}`
			case 1:
				return `{"name":"grep","arguments":{"path":"wide","query":"x"}}`
			}
			return `{"name":"directory_tree","arguments":{"path":"deep","depth":10}}`
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				peak, err := peakRSS(dir, 64, tc.call)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
			}
		})
	}
}

// deepTree makes a chain of n directories below top, each made relative
// to the one before, since the whole path is longer than the kernel takes.
func deepTree(top string, n int) error {
	if err := os.Mkdir(top, 0o755); err != nil {
		return err
	}
	r, err := os.OpenRoot(top)
	if err != nil {
		return err
	}
	for range n {
		if err := r.Mkdir("d", 0o755); err != nil {
			r.Close()
			return err
		}
		next, err := r.OpenRoot("d")
		r.Close()
		if err != nil {
			return err
		}
		r = next
	}
	return r.Close()
}

// peakRSS starts the server on root, sends n calls at once, waits for
// every answer and returns the server's peak resident memory.
func peakRSS(root string, n int, call func(i int) string) (int64, error) {
	cmd := exec.Command(binary, "--root", root, "--log-level", "error", "--max-repeats", "-1", "--tool-timeout", "60s")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	go func() {
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		for i := range n {
			fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", i+1, call(i))
		}
	}()
	r := bufio.NewReaderSize(stdout, 1<<20)
	for range n + 1 {
		if _, err := r.ReadString('\n'); err != nil {
			return 0, fmt.Errorf("reading the answers: %w", err)
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	_ = stdin.Close()
	_, _ = io.Copy(io.Discard, r)
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", cmd.Process.Pid)
}
