//go:build !windows

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Spec says how to launch one target.
type Spec struct {
	// Label names the target in the report and in errors.
	Label string
	// Argv is the program and its arguments.
	Argv []string
	// Env holds extra KEY=VALUE pairs added to toolbench's environment.
	Env []string
	// Echo marks the line echo: its answers are the request lines themselves
	// and are checked byte for byte.
	Echo bool
	// Floor marks the work floor ("toolbench floor"): no MCP handshake, and
	// its answers are checked by checkFloorAnswer.
	Floor bool
}

// exitGrace is how long a target may take to exit once its stdin is closed.
const exitGrace = 5 * time.Second

// Process is one running target, spoken to over pipes to its stdin and
// from its stdout. Its stderr is kept (the last few KiB) for error messages.
//
// The pipes work in one of two modes. By default they go through the Go
// poller, so that deadlines and goroutines work (throughput, cold starts).
// In blocking mode (setBlocking) each read and write is one plain system
// call: a client waiting for a line sleeps in read(2) and is woken by the
// target's write, without the poller's extra EAGAIN, epoll and scheduler
// round. That is the floor a latency measure should stand on, and it keeps
// the latency distribution from splitting in two modes depending on whether
// the kernel lets the woken target preempt the client.
type Process struct {
	spec     Spec
	cmd      *exec.Cmd
	in       *os.File // our end of the target's stdin
	out      *os.File // our end of the target's stdout
	inFd     int      // in's descriptor, for blocking mode
	outFd    int      // out's descriptor, for blocking mode
	blocking bool
	stalled  atomic.Bool // the watchdog killed the target
	r        *bufio.Reader
	long     []byte // a line longer than r's buffer
	stderr   *tailBuffer
	ended    bool // Close or kill has run
}

// startProcess launches spec. The process is killed when ctx is done.
func startProcess(ctx context.Context, spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("%s: empty command line", spec.Label)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.CommandContext(ctx, spec.Argv[0], spec.Argv[1:]...)
	if len(spec.Env) > 0 {
		cmd.Env = append(os.Environ(), spec.Env...)
	}
	stderr := &tailBuffer{limit: 8 << 10}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("%s: start: %w", spec.Label, err)
	}
	p := &Process{spec: spec, cmd: cmd, in: inW, out: outR, stderr: stderr}
	p.r = bufio.NewReaderSize(stdoutReader{p}, 64<<10)
	if p.inFd, err = rawFd(inW); err == nil {
		p.outFd, err = rawFd(outR)
	}
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("%s: %w", spec.Label, err)
	}
	return p, nil
}

// rawFd returns the descriptor of f without switching f to blocking mode,
// as f.Fd would.
func rawFd(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	fd := -1
	err = rc.Control(func(d uintptr) { fd = int(d) })
	return fd, err
}

// setBlocking switches both pipes to blocking system calls (on) or back to
// the Go poller.
func (p *Process) setBlocking(on bool) error {
	for _, fd := range []int{p.inFd, p.outFd} {
		if err := syscall.SetNonblock(fd, !on); err != nil {
			return fmt.Errorf("%s: set blocking %v: %w", p.spec.Label, on, err)
		}
	}
	p.blocking = on
	return nil
}

// toPoller leaves blocking mode before the pipes are closed: a raw read
// still running on a closed descriptor's number could hit a reused one,
// while the poller's reads end cleanly on close.
func (p *Process) toPoller() {
	if p.blocking {
		_ = p.setBlocking(false)
	}
}

// watchdog kills the target should d pass before the returned stop is
// called; reads then fail with a time-out error. It bounds blocking mode,
// where deadlines do not apply.
func (p *Process) watchdog(d time.Duration) (stop func()) {
	t := time.AfterFunc(d, func() {
		p.stalled.Store(true)
		_ = p.cmd.Process.Kill()
	})
	return func() { t.Stop() }
}

// stdoutReader reads the target's stdout in the mode that is set.
type stdoutReader struct{ p *Process }

// Read implements io.Reader.
func (r stdoutReader) Read(b []byte) (int, error) {
	if !r.p.blocking {
		return r.p.out.Read(b)
	}
	for {
		n, err := syscall.Read(r.p.outFd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// setDeadline bounds the reads and writes from now on to d from now.
func (p *Process) setDeadline(d time.Duration) {
	t := time.Now().Add(d)
	// Pipes from os.Pipe are pollable, so these do not fail on Linux; if they
	// did, the overall -timeout still applies.
	_ = p.out.SetReadDeadline(t)
	_ = p.in.SetWriteDeadline(t)
}

// write sends b, one or more complete lines, to the target's stdin.
func (p *Process) write(b []byte) error {
	if !p.blocking {
		if _, err := p.in.Write(b); err != nil {
			return p.ioErr("write to", err)
		}
		return nil
	}
	for len(b) > 0 {
		n, err := syscall.Write(p.inFd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return p.ioErr("write to", err)
		}
		b = b[n:]
	}
	return nil
}

// readLine returns the next line of the target's stdout without its line
// end. The slice is valid until the next call.
func (p *Process) readLine() ([]byte, error) {
	line, err := p.r.ReadSlice('\n')
	if err == nil {
		return trimEOL(line), nil
	}
	if err != bufio.ErrBufferFull {
		return nil, p.ioErr("read from", err)
	}
	p.long = append(p.long[:0], line...)
	for {
		line, err = p.r.ReadSlice('\n')
		p.long = append(p.long, line...)
		if err == nil {
			return trimEOL(p.long), nil
		}
		if err != bufio.ErrBufferFull {
			return nil, p.ioErr("read from", err)
		}
	}
}

func trimEOL(line []byte) []byte {
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line
}

// ioErr describes a failed read or write, with the target's stderr.
func (p *Process) ioErr(op string, err error) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) || p.stalled.Load():
		err = errors.New("timed out (see -stall)")
	case errors.Is(err, io.EOF):
		err = errors.New("stdout closed: the target exited")
	}
	return fmt.Errorf("%s: %s stdio: %w%s", p.spec.Label, op, err, p.stderrTail())
}

func (p *Process) stderrTail() string {
	s := bytes.TrimSpace(p.stderr.Bytes())
	if len(s) == 0 {
		return ""
	}
	return "\n--- stderr of " + p.spec.Label + " (tail) ---\n" + string(s)
}

// peakRSS returns the process's peak resident set size (VmHWM) in bytes,
// read from /proc while it runs.
func (p *Process) peakRSS() (int64, error) { return peakRSSOf(p.cmd.Process.Pid) }

// cpuTime returns the CPU time all threads of the process have used so far.
func (p *Process) cpuTime() (time.Duration, error) { return cpuTimeOf(p.cmd.Process.Pid) }

// peakRSSOf returns the peak resident set size (VmHWM) in bytes of the
// running process pid, from /proc.
func peakRSSOf(pid int) (int64, error) {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(status) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("VmHWM: %v", err)
		}
		return kb << 10, nil
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// cpuTimeOf returns the CPU time all threads of process pid have used so
// far, summed from /proc/PID/task/*/schedstat (nanoseconds, accounted at
// each context switch).
func cpuTimeOf(pid int) (time.Duration, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread has just exited
		}
		field, _, _ := bytes.Cut(b, []byte(" "))
		ns, err := strconv.ParseInt(string(field), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("schedstat: %v", err)
		}
		sum += time.Duration(ns)
	}
	return sum, nil
}

// Settling: a target counts as idle once it used less than settleIdle of
// CPU over settleTick.
const (
	settleTick = time.Millisecond
	settleIdle = 20 * time.Microsecond
)

// settle waits, up to limit, until the target has stopped using the CPU
// (settlePid).
func (p *Process) settle(limit time.Duration) { settlePid(p.cmd.Process.Pid, limit) }

// settlePid waits, up to limit, until process pid has stopped using the
// CPU. A server may go on working after its last answer (the Go collector
// finishing a cycle, the scavenger returning memory); on a CPU shared by
// all targets that work would otherwise fall into the next target's round
// and be charged to it. Where /proc cannot tell, settlePid returns at once.
func settlePid(pid int, limit time.Duration) {
	prev, err := cpuTimeOf(pid)
	for end := time.Now().Add(limit); err == nil && time.Now().Before(end); {
		time.Sleep(settleTick)
		var now time.Duration
		if now, err = cpuTimeOf(pid); err == nil && now-prev < settleIdle {
			return
		}
		prev = now
	}
}

// Close closes the target's stdin, drains what it still writes, and waits
// for it to exit; a target that outlives exitGrace is killed. It reports a
// non-zero exit.
func (p *Process) Close() error {
	if p.ended {
		return nil
	}
	p.ended = true
	p.toPoller()
	p.in.Close()
	_ = p.out.SetReadDeadline(time.Time{})
	go func() {
		_, _ = io.Copy(io.Discard, p.r)
	}()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	timer := time.NewTimer(exitGrace)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		_ = p.cmd.Process.Kill()
		<-done
		err = fmt.Errorf("did not exit within %v after its stdin was closed; killed", exitGrace)
	}
	p.out.Close()
	if err != nil {
		return fmt.Errorf("%s: %w%s", p.spec.Label, err, p.stderrTail())
	}
	return nil
}

// kill ends the target at once, for when a measure has failed.
func (p *Process) kill() {
	if p.ended {
		return
	}
	p.ended = true
	p.toPoller()
	_ = p.cmd.Process.Kill()
	p.in.Close()
	_ = p.cmd.Wait()
	p.out.Close()
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
}

// Write implements io.Writer.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// Bytes returns a copy of what is kept.
func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.buf)
}
