package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// bodyPrealloc is the most room taken for a body before its bytes come:
// a client may announce 16 MiB and send them slowly, or never.
const bodyPrealloc = 64 << 10

// readBody reads the body of a POST, at most MaxMessageBytes of it,
// within BodyTimeout. A body over the limit is 413, with the sentence
// stdio answers an over-long line with. A body that does not arrive in
// time, or breaks off, is 400, and the connection is closed after the
// answer: net/http would otherwise drain the rest of the body before
// sending it, and hold the connection for as long as the client drips.
func (e *endpoint) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, *wireError) {
	limit := e.srv.opts.MaxMessageBytes
	tooLong := func() *wireError {
		return &wireError{code: jsonrpc2.CodeInvalidRequest, message: fmt.Sprintf(
			"Invalid Request: the message is longer than the limit of %d bytes (--max-message-bytes) and was discarded", limit)}
	}
	if r.ContentLength > int64(limit) {
		w.Header().Set("Connection", "close") // the body is never read
		return nil, http.StatusRequestEntityTooLarge, tooLong()
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(e.opts.BodyTimeout))
	raw, err := readAtMost(w, r, limit)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, http.StatusRequestEntityTooLarge, tooLong()
	case err != nil:
		// The deadline stays: whatever more comes is not waited for.
		w.Header().Set("Connection", "close")
		message := "Parse error: the request body could not be read"
		if errors.Is(err, os.ErrDeadlineExceeded) {
			message = fmt.Sprintf("Parse error: the request body did not arrive within %v; send it whole, promptly", e.opts.BodyTimeout)
		}
		e.srv.log.Info().Str("remote", r.RemoteAddr).Err(err).Int("read", len(raw)).Msg("gave up on a request body")
		return nil, http.StatusBadRequest, &wireError{code: jsonrpc2.CodeParseError, message: message}
	}
	// No deadline once the body is in: the server goes on reading the
	// connection to notice the client leaving, which cancels the call.
	_ = rc.SetReadDeadline(time.Time{})
	body := bytes.TrimSpace(raw)
	if len(body) == 0 {
		return nil, http.StatusBadRequest, &wireError{code: jsonrpc2.CodeInvalidRequest,
			message: "Invalid Request: the body is empty; send one JSON-RPC message per POST"}
	}
	return body, 0, nil
}

// readAtMost reads the body of r, whole, refusing one of more than limit
// bytes with an *http.MaxBytesError (and its connection is then closed
// after the answer). A body of a known length up to bodyPrealloc is read
// into a buffer of exactly that size, where net/http ends it; any other
// grows as it comes, from at most bodyPrealloc, since a client may
// announce much and send little.
func readAtMost(w http.ResponseWriter, r *http.Request, limit int) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= int64(min(limit, bodyPrealloc)) {
		buf := make([]byte, n)
		got, err := io.ReadFull(r.Body, buf)
		return buf[:got], err
	}
	buf := bytes.NewBuffer(make([]byte, 0, bodyPrealloc))
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, int64(limit)))
	return buf.Bytes(), err
}
