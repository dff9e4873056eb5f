//go:build !windows

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// httpAddrOf returns the address a server's command line tells it to
// serve HTTP at: the value of its -http or --http flag, as HOST:PORT with
// a host and a port other than 0, since toolbench must know where to
// connect.
func httpAddrOf(argv []string) (string, error) {
	addr, found := "", false
	for i := 1; i < len(argv); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(argv[i], "-"), "=")
		if name != "http" || !strings.HasPrefix(argv[i], "-") {
			continue
		}
		if !hasValue && i+1 < len(argv) {
			i++
			value, hasValue = argv[i], true
		}
		addr, found = value, hasValue
	}
	if !found {
		return "", fmt.Errorf("%q serves no HTTP: give it -http HOST:PORT (toolserver: --http)", strings.Join(argv, " "))
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host == "" || port == "0" || port == "" {
		return "", fmt.Errorf("%q: -http %q: give a HOST:PORT with a port, such as 127.0.0.1:8090, for toolbench to connect to", strings.Join(argv, " "), addr)
	}
	return addr, nil
}

// freeLoopbackAddr returns an address on 127.0.0.1 with a port that was
// free a moment ago, for the floor to listen on.
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// httpTarget is one server of the HTTP suite: its process, listening at
// addr, and the client toolbench posts to it with (keep-alive HTTP/1.1,
// its own connections). It times round trips one at a time (as a
// roundTripper) or many in flight (burst).
type httpTarget struct {
	spec   Spec
	addr   string
	url    string
	cmd    *exec.Cmd
	output *tailBuffer // its stdout and stderr
	exited chan struct{}
	// waitErr is the result of the process's Wait, set before exited is
	// closed.
	waitErr error
	client  *http.Client
	header  http.Header
	tpl     callTemplate
	// want is the file's text as a server's JSON answer carries it; every
	// answer must hold it.
	want   []byte
	nextID atomic.Int64
	stall  time.Duration
	one    httpCall // the buffers of the calls made one at a time
}

// httpCall holds the buffers of one caller's requests and answers.
type httpCall struct {
	req  []byte
	resp bytes.Buffer
}

// errStalled ends a round or a start that took longer than -stall.
var errStalled = errors.New("timed out (see -stall)")

// startHTTPTarget starts spec, which is to listen at addr, and waits until
// it does. Nothing may listen there before: toolbench would measure
// whatever did. Each call reads path with read_file, and its answer must
// carry text. k is how many calls go in flight at most.
func startHTTPTarget(ctx context.Context, spec Spec, addr, path string, text []byte, k int, stall time.Duration) (*httpTarget, error) {
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("%s: something already listens at %s; stop it, or give the server another port", spec.Label, addr)
	}
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("%s: empty command line", spec.Label)
	}
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	h := &httpTarget{
		spec:   spec,
		addr:   addr,
		url:    "http://" + addr + "/mcp",
		output: &tailBuffer{limit: 8 << 10},
		exited: make(chan struct{}),
		client: &http.Client{Transport: &http.Transport{
			Protocols:           protocols,
			MaxIdleConnsPerHost: 2 * k, // every connection of a burst stays open for the next
			DisableCompression:  true,
		}},
		// Every request shares this map, which the client only reads.
		header: http.Header{
			"Accept":               {"application/json, text/event-stream"},
			"Content-Type":         {"application/json"},
			"Mcp-Protocol-Version": {protocolVersion},
		},
		tpl:   readCall(path, 0, 0),
		want:  appendJSONString(nil, text),
		stall: stall,
	}
	h.want = h.want[1 : len(h.want)-1] // without its quotes
	h.cmd = exec.CommandContext(ctx, spec.Argv[0], spec.Argv[1:]...)
	if len(spec.Env) > 0 {
		h.cmd.Env = append(h.cmd.Environ(), spec.Env...)
	}
	h.cmd.Stdout, h.cmd.Stderr = h.output, h.output
	h.cmd.WaitDelay = time.Second
	if err := h.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: start: %w", spec.Label, err)
	}
	go func() {
		h.waitErr = h.cmd.Wait()
		close(h.exited)
	}()
	if err := h.waitListening(ctx); err != nil {
		h.kill()
		return nil, err
	}
	return h, nil
}

// waitListening waits until the target accepts connections at its
// address, for -stall at most.
func (h *httpTarget) waitListening(ctx context.Context) error {
	deadline := time.Now().Add(h.stall)
	for {
		c, err := net.DialTimeout("tcp", h.addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not listening at %s after %v (see -stall): %v%s", h.spec.Label, h.addr, h.stall, err, h.outputTail())
		}
		select {
		case <-h.exited:
			return fmt.Errorf("%s exited before it listened at %s: %v%s", h.spec.Label, h.addr, h.waitErr, h.outputTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// call makes one call with the target's own buffers (roundTripper).
func (h *httpTarget) call(ctx context.Context) (time.Duration, error) {
	return h.post(ctx, &h.one)
}

// round bounds the round's calls by -stall and lets the target go idle
// after them (roundTripper).
func (h *httpTarget) round(ctx context.Context, calls func(context.Context) error) error {
	ctx, cancel := context.WithTimeoutCause(ctx, h.stall, errStalled)
	defer cancel()
	if err := calls(ctx); err != nil {
		return h.stallErr(ctx, err)
	}
	settlePid(h.cmd.Process.Pid, settleLimit)
	return nil
}

// stallErr names a call that failed because its round ran out of time.
func (h *httpTarget) stallErr(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errStalled) {
		return fmt.Errorf("%s: %w%s", h.spec.Label, errStalled, h.outputTail())
	}
	return err
}

// send posts the next read_file call with c's buffers and reads the whole
// answer into c.resp. It returns the time from the start of the request
// to the end of the answer's body, taken before anything is checked, and
// the call's id and response (its body read and closed).
func (h *httpTarget) send(ctx context.Context, c *httpCall) (time.Duration, int64, *http.Response, error) {
	id := h.nextID.Add(1)
	c.req = h.tpl.appendLine(c.req[:0], id)
	c.req = c.req[:len(c.req)-1] // one message a POST, no line end
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(c.req))
	if err != nil {
		return 0, id, nil, err
	}
	req.Header = h.header
	c.resp.Reset()
	start := time.Now()
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, id, nil, fmt.Errorf("%s: call id %d: %w%s", h.spec.Label, id, err, h.outputTail())
	}
	_, err = c.resp.ReadFrom(resp.Body)
	end := time.Now()
	resp.Body.Close()
	if err != nil {
		return 0, id, nil, fmt.Errorf("%s: call id %d: reading the answer: %w%s", h.spec.Label, id, err, h.outputTail())
	}
	return end.Sub(start), id, resp, nil
}

// post makes one call with c's buffers and checks its answer
// (checkAnswer): the time send took.
func (h *httpTarget) post(ctx context.Context, c *httpCall) (time.Duration, error) {
	d, id, resp, err := h.send(ctx, c)
	if err != nil {
		return 0, err
	}
	if err := h.checkAnswer(resp.StatusCode, c.resp.Bytes(), id); err != nil {
		return 0, fmt.Errorf("%s: call id %d: %w", h.spec.Label, id, err)
	}
	return d, nil
}

// checkAnswer holds every answer to what the read must return: status 200
// and the file's text; a server's answer must also carry the call's id,
// a result, and neither a JSON-RPC error nor a tool error. (The floor
// answers one fixed body.) These checks do not decode the answer, so
// that they cost little beside the round trip; probe decodes one.
func (h *httpTarget) checkAnswer(status int, body []byte, id int64) error {
	if status != http.StatusOK {
		return fmt.Errorf("status %d: %s", status, snippet(body))
	}
	if !h.spec.Floor {
		if err := checkID(body, id); err != nil {
			return err
		}
		if err := quickCheck(body); err != nil {
			return err
		}
	}
	if !bytes.Contains(body, h.want) {
		return fmt.Errorf("the answer does not hold the file's text: %s", snippet(body))
	}
	return nil
}

// probe makes one call and checks its answer whole: what checkAnswer
// checks, one JSON answer (not an SSE stream) whose text is exactly the
// file's, and, from a server, a JSON-RPC response to the call. It returns
// the answer's size in bytes.
func (h *httpTarget) probe(ctx context.Context, text []byte) (int, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, h.stall, errStalled)
	defer cancel()
	var c httpCall
	_, id, resp, err := h.send(ctx, &c)
	if err != nil {
		return 0, h.stallErr(ctx, err)
	}
	body := c.resp.Bytes()
	if err = h.checkAnswer(resp.StatusCode, body, id); err == nil && !h.spec.Floor {
		_, err = checkResponse(body, id, "tools/call")
	}
	if ct := resp.Header.Get("Content-Type"); err == nil && !strings.HasPrefix(ct, "application/json") {
		err = fmt.Errorf("answered %q, not one JSON answer (is it serving statelessly, with JSON answers?): %s", ct, snippet(body))
	}
	if err == nil {
		var got string
		if got, err = resultText(body, false); err == nil && got != string(text) {
			err = fmt.Errorf("answered %d bytes of text that differ from the %d of the file: %q", len(got), len(text), snippetString(got))
		}
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", h.spec.Label, err)
	}
	return len(body), nil
}

// burst makes calls calls, k in flight (k callers, each sending its next
// call when its answer is in), and returns the time from the first
// request to the last answer. Every answer is checked as it comes
// (checkAnswer), so that a wrong one stops the burst.
func (h *httpTarget) burst(ctx context.Context, k, calls int) (time.Duration, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, h.stall, errStalled)
	defer cancel()
	var sent atomic.Int64
	errs := make(chan error, k)
	var wg sync.WaitGroup
	start := time.Now()
	for range min(k, calls) {
		wg.Go(func() {
			var c httpCall
			for sent.Add(1) <= int64(calls) {
				if _, err := h.post(ctx, &c); err != nil {
					errs <- err // before cancel: the first error is the cause
					cancel()
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return 0, h.stallErr(ctx, err)
	}
	return elapsed, nil
}

// peakRSS returns the target's peak resident set size so far, in bytes.
func (h *httpTarget) peakRSS() (int64, error) {
	rss, err := peakRSSOf(h.cmd.Process.Pid)
	if err != nil {
		return 0, fmt.Errorf("%s: peak RSS: %w", h.spec.Label, err)
	}
	return rss, nil
}

// stop asks the target to end (SIGTERM), as a service manager would, and
// waits for it; one that outlives exitGrace is killed. A server that
// exits with an error, or had already exited, fails.
func (h *httpTarget) stop() error {
	h.client.CloseIdleConnections()
	select {
	case <-h.exited:
		return fmt.Errorf("%s exited while measured: %v%s", h.spec.Label, h.waitErr, h.outputTail())
	default:
	}
	_ = h.cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(exitGrace)
	defer timer.Stop()
	select {
	case <-h.exited:
	case <-timer.C:
		h.kill()
		return fmt.Errorf("%s did not exit within %v of SIGTERM; killed%s", h.spec.Label, exitGrace, h.outputTail())
	}
	if h.waitErr != nil {
		return fmt.Errorf("%s: %w%s", h.spec.Label, h.waitErr, h.outputTail())
	}
	return nil
}

// kill ends the target at once, for when a measure has failed.
func (h *httpTarget) kill() {
	h.client.CloseIdleConnections()
	_ = h.cmd.Process.Kill()
	<-h.exited
}

func (h *httpTarget) outputTail() string {
	s := bytes.TrimSpace(h.output.Bytes())
	if len(s) == 0 {
		return ""
	}
	return "\n--- output of " + h.spec.Label + " (tail) ---\n" + string(s)
}
