package otlp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/server"
)

// Exporter sends the spans of tool calls to an OTLP/HTTP endpoint. It is a
// server.Tracer: set it in server.Options.Tracer. Spans are queued and
// sent in batches by one goroutine, off the calls' path; [Exporter.Shutdown]
// sends what is left.
type Exporter struct {
	cfg    Config
	client *http.Client
	log    zerolog.Logger

	mu      sync.Mutex
	queue   []*server.CallSpan
	spans   int // spans in queue, counting each call's stages
	dropped int // calls dropped because the queue was full, since the last warning
	closed  bool

	wake chan struct{} // a batch is full
	stop chan struct{} // closed by Shutdown
	done chan struct{} // closed when the loop has sent its last batch
}

// New starts an exporter for cfg; log receives its warnings (an export that
// failed, spans dropped). client may be nil for a default client.
func New(cfg Config, client *http.Client, log zerolog.Logger) *Exporter {
	if client == nil {
		client = &http.Client{}
	}
	e := &Exporter{
		cfg:    cfg.withDefaults(),
		client: client,
		log:    log,
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go e.loop()
	return e
}

// CallTraced queues the spans of one call. When the queue is full the
// call's spans are dropped, and a warning later says how many. A call
// whose client's trace is not sampled (traceparent flags 00) is not
// exported, as the client decided for its whole trace.
func (e *Exporter) CallTraced(c *server.CallSpan) {
	if _, _, sampled, ok := parseTraceParent(c.TraceParent); ok && !sampled {
		return
	}
	n := 1 + len(c.Stages)
	e.mu.Lock()
	if e.closed || e.spans+n > e.cfg.QueueSize {
		e.dropped++
		e.mu.Unlock()
		return
	}
	e.queue = append(e.queue, c)
	e.spans += n
	full := e.spans >= e.cfg.BatchSize
	e.mu.Unlock()
	if full {
		select {
		case e.wake <- struct{}{}:
		default:
		}
	}
}

// Shutdown sends the spans still queued and stops the exporter. It
// returns when they are sent or ctx is done, whichever comes first.
func (e *Exporter) Shutdown(ctx context.Context) error {
	e.mu.Lock()
	already := e.closed
	e.closed = true
	e.mu.Unlock()
	if !already {
		close(e.stop)
	}
	select {
	case <-e.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("otlp: spans not all sent before shutdown: %w", ctx.Err())
	}
}

// loop sends a batch when one is full or the oldest span has waited
// BatchDelay, and everything at Shutdown.
func (e *Exporter) loop() {
	defer close(e.done)
	ticker := time.NewTicker(e.cfg.BatchDelay)
	defer ticker.Stop()
	for {
		select {
		case <-e.wake:
		case <-ticker.C:
		case <-e.stop:
			for e.flush() {
			}
			return
		}
		for e.flush() {
		}
	}
}

// flush sends one batch of up to BatchSize spans and reports whether
// more are queued.
func (e *Exporter) flush() bool {
	e.mu.Lock()
	var batch []span
	taken := 0
	for taken < len(e.queue) {
		c := e.queue[taken]
		if len(batch) > 0 && len(batch)+1+len(c.Stages) > e.cfg.BatchSize {
			break
		}
		batch = append(batch, callSpans(c)...)
		taken++
	}
	e.queue = e.queue[taken:]
	e.spans -= len(batch)
	more := len(e.queue) > 0
	dropped := e.dropped
	e.dropped = 0
	e.mu.Unlock()
	if dropped > 0 {
		e.log.Warn().Int("calls", dropped).Int("queue_size", e.cfg.QueueSize).
			Msg("otlp: the span queue was full; the spans of these calls were dropped")
	}
	if len(batch) == 0 {
		return false
	}
	if err := e.send(appendRequest(nil, e.cfg.Resource, e.cfg.ScopeVersion, batch)); err != nil {
		e.log.Warn().Err(err).Int("spans", len(batch)).Str("endpoint", e.cfg.Endpoint).Msg("otlp: spans not exported")
	}
	return more
}

// send posts one request, retrying within the timeout on the answers
// OTLP/HTTP calls retryable (429, 502, 503, 504) and on network errors.
func (e *Exporter) send(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), e.cfg.Timeout)
	defer cancel()
	wait := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		retryAfter, err := e.post(ctx, body)
		if err == nil {
			return nil
		}
		var perm *permanentError
		if errors.As(err, &perm) || attempt == 5 {
			return err
		}
		pause := wait
		if retryAfter > 0 {
			pause = retryAfter // what the collector asked for, this time only
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait *= 2
	}
}

// permanentError is a failure that a retry would not change.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// post sends body once. A retryable failure comes with how long the
// collector asked to wait (0 when it did not say).
func (e *Exporter) post(ctx context.Context, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.cfg.Endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, &permanentError{fmt.Errorf("building the request: %w", err)}
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	for k, v := range e.cfg.Headers {
		req.Header.Set(k, v)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("posting spans: %w", err)
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return 0, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusBadGateway ||
		resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusGatewayTimeout:
		return retryAfter(resp.Header.Get("Retry-After"), time.Now()), collectorError(resp, msg)
	default:
		return 0, &permanentError{collectorError(resp, msg)}
	}
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date; 0 when
// absent or unreadable.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(h); err == nil {
		return time.Duration(max(s, 0)) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// collectorError describes a refusal, with the start of what the
// collector said (an OTLP Status, or text) when it is printable.
func collectorError(resp *http.Response, body []byte) error {
	msg := fmt.Sprintf("the collector answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	text := strings.TrimSpace(strings.ToValidUTF8(string(body), ""))
	ct := resp.Header.Get("Content-Type")
	if text != "" && (strings.HasPrefix(ct, "text/") || strings.HasPrefix(ct, "application/json")) {
		if len(text) > 200 {
			text = text[:200] + "…"
		}
		msg += ": " + text
	}
	return errors.New(msg)
}
