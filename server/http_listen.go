package server

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

// This file turns the response of a subscriptions/listen POST into the
// subscription's stream (listen.go): the acknowledgment, then each
// change as an SSE event, with a comment now and then so that proxies
// and clients do not take a quiet stream for a dead one, until the
// client closes the stream (which ends the subscription) or the server
// ends it ([Server.CloseSubscriptions]), answering the request as its
// last event. The stream holds none of the places of requests served at
// once (HTTPOptions.MaxConcurrent); what bounds streams is
// Options.MaxSubscriptions, per principal.

// listenKeepAlive is how often a quiet stream gets a comment.
const listenKeepAlive = 15 * time.Second

// listen implements listenPeer: the response becomes the stream of k,
// which the request's goroutine writes once it sees the exchange taken
// (serveRequest).
func (p *httpPeer) listen(k *sink, ack []byte) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.open() != nil {
		return false
	}
	p.done = true
	p.sink, p.ack = k, ack
	close(p.answered)
	return true
}

// stream writes the subscription p has become until it ends; the sink
// ends with it.
func (p *httpPeer) stream(ctx context.Context, srv *Server) {
	k := p.sink
	defer k.close()
	h := p.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	p.w.WriteHeader(http.StatusOK)
	if p.writeEvent(bytes.TrimSuffix(p.ack, []byte("\n"))) != nil {
		return
	}
	keep := time.NewTicker(listenKeepAlive)
	defer keep.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-srv.listensEnd:
			_ = p.writeEvent(bytes.TrimSuffix(srv.listenEndLine(k.id), []byte("\n")))
			return
		case <-keep.C:
			_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
			if _, err := p.w.Write([]byte(": keep-alive\n\n")); p.flushed(err) != nil {
				return
			}
		case <-k.wake:
			t := time.NewTimer(srv.opts.UpdateDelay)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-srv.listensEnd:
				t.Stop()
				_ = p.writeEvent(bytes.TrimSuffix(srv.listenEndLine(k.id), []byte("\n")))
				return
			case <-t.C:
			}
			for _, uri := range k.take() {
				if p.writeEvent(bytes.TrimSuffix(updatedLine(uri, k.id), []byte("\n"))) != nil {
					return
				}
			}
		}
	}
}

// CloseSubscriptions ends every subscriptions/listen stream served over
// HTTP, each answered as the specification asks of a server that ends a
// subscription itself, so that its client knows it was not cut off. Call
// it as the HTTP server shuts down (http.Server.RegisterOnShutdown), or
// the streams hold the shutdown until its deadline. A listen request that
// comes later is answered and ended at once.
func (s *Server) CloseSubscriptions() {
	s.endListens.Do(func() { close(s.listensEnd) })
}
