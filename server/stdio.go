package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"
	"github.com/sourcegraph/jsonrpc2"
)

// This file is the stdio transport: newline-delimited JSON-RPC over a
// pipe, as agent hosts speak it to a server they launch. It frames and
// checks the lines, hands each request to the session (the core), and is
// the session's peer: it writes what the session sends and carries the
// server's own requests to the client through jsonrpc2.

// Serve runs one MCP session over stdio: it reads requests from r and
// writes responses and notifications to w, one JSON message per line. It
// returns when r reaches EOF or ctx is cancelled, after the calls still
// running have finished or [Options.ShutdownGrace] has passed. The error
// is nil unless writing to w failed.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	st := newStream(r, w, s.opts.MaxMessageBytes, s.log)
	st.chunks = &s.chunks
	sess := newSession(ctx, s, st)
	st.dispatch = sess.dispatch
	st.conn = jsonrpc2.NewConn(context.WithoutCancel(ctx), st, noRequests{s.log}, jsonrpc2.SetLogger(jsonrpc2Logger{s.log}))
	close(st.ready) // the stream reads nothing before its connection is set
	select {
	case <-st.conn.DisconnectNotify():
		s.log.Debug().Msg("input closed; finishing calls in flight")
	case <-ctx.Done():
		s.log.Debug().Msg("asked to stop; finishing calls in flight")
	}
	sess.drain(s.opts.ShutdownGrace)
	_ = st.conn.Close()
	st.wmu.Lock()
	defer st.wmu.Unlock()
	st.closed = true
	return st.werr
}

// noRequests is the jsonrpc2 handler of a stream. The stream dispatches
// every request itself, so jsonrpc2 never sees one; if it did, that would
// be a bug worth a log line, not a crash.
type noRequests struct{ log zerolog.Logger }

func (h noRequests) Handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) {
	h.log.Error().Str("method", req.Method).Msg("jsonrpc2 received a request the stream should have dispatched")
}

// jsonrpc2Logger sends jsonrpc2's own complaints to the server log.
type jsonrpc2Logger struct{ log zerolog.Logger }

func (l jsonrpc2Logger) Printf(format string, v ...any) {
	l.log.Debug().Msgf(format, v...)
}

// DefaultMaxMessageBytes is the largest message a Stream accepts unless
// told otherwise.
const DefaultMaxMessageBytes = 16 << 20

// stream is the [jsonrpc2.ObjectStream] of a session: newline-delimited
// JSON-RPC 2.0 over a pipe, as MCP's stdio transport uses it.
//
// Unlike the streams that jsonrpc2 ships, it never closes the connection
// because of one bad line: it answers malformed JSON (-32700), invalid
// requests, batches and over-long lines (-32600) by itself and goes on with
// the next line. Lines longer than the limit are discarded as they arrive,
// without buffering them. Every write goes through one mutex, one message
// per line, so nothing else ever reaches the output.
//
// The client's requests and notifications go from here straight to the
// session's dispatch function, still inside jsonrpc2's read loop and so in
// arrival order; jsonrpc2 decodes only the responses to the server's own
// calls. Its generic decoding of a request (a map, then params re-encoded)
// cost more than the rest of a tools/call together, and its ids cannot hold
// what clients send; see [stream.ReadObject].
type stream struct {
	r      *bufio.Reader
	out    io.Writer
	closer io.Closer
	max    int
	log    zerolog.Logger
	// longLine is the length of the last line longer than r's buffer: the
	// room the next such line is read into (readLine).
	longLine int

	wmu    sync.Mutex // guards out, werr and closed
	chunks *chunkPool // buffers for the lines written in pieces
	werr   error
	closed bool // Serve has returned: a call left behind writes nothing more

	dispatch func(envelope) // receives every request and notification
	conn     *jsonrpc2.Conn // carries the server's own requests
	ready    chan struct{}  // closed once conn is set; nothing is read before
	nextID   atomic.Uint64  // ids of the server's own requests
}

// newStream returns a stream that reads messages from r and writes them
// to w. Lines longer than maxBytes (not counting the newline) are refused;
// maxBytes <= 0 means [DefaultMaxMessageBytes]. If r is an [io.Closer],
// Close closes it.
func newStream(r io.Reader, w io.Writer, maxBytes int, log zerolog.Logger) *stream {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxMessageBytes
	}
	closer, _ := r.(io.Closer)
	return &stream{r: bufio.NewReaderSize(r, 64<<10), out: w, closer: closer, max: maxBytes, log: log, ready: make(chan struct{}), chunks: new(chunkPool)}
}

// errServed is what a write gets after Serve has returned.
var errServed = errors.New("the session is over")

// errTooLong marks a line over the size limit; its bytes were dropped.
var errTooLong = errors.New("line too long")

// ReadObject implements [jsonrpc2.ObjectStream]. It hands requests and
// notifications to the dispatch function and answers bad lines itself; it
// returns only with a response to one of the server's own calls, or when
// reading fails.
func (s *stream) ReadObject(v any) error {
	<-s.ready
	for {
		line, err := s.readLine()
		switch {
		case errors.Is(err, errTooLong):
			s.reply(nil, jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
				"Invalid Request: the message is longer than the limit of %d bytes (--max-message-bytes) and was discarded", s.max))
			continue
		case err != nil && len(line) == 0:
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines carry no message
		}
		if ev := s.log.Debug(); ev.Enabled() {
			ev.Str("line", shorten(line, 2000)).Msg("received")
		}
		env, werr := parseEnvelope(line)
		if werr != nil {
			s.log.Debug().Int64("code", werr.code).Str("reason", werr.message).Msg("refused a message")
			s.reply(werr.id, werr.code, werr.message)
			continue
		}
		if env.kind != kindResponse {
			s.dispatch(env)
			if s.r.Buffered() == 0 {
				// The reader is about to wait for input. On a blocking
				// descriptor (the binary reads a piped stdin through the
				// poller, but a library user's reader may block) it holds
				// its P in read(2); with one CPU a call just handed to a
				// worker would then wait for the runtime to take the P back
				// (20 µs or more). Let it run first.
				runtime.Gosched()
			}
			continue
		}
		// A response to one of the server's own requests: jsonrpc2 decodes
		// it, once, into a message of its own (a fresh one each time).
		if uerr := json.Unmarshal(line, v); uerr != nil {
			// jsonrpc2 would close the connection on this error; drop the
			// message instead.
			s.log.Warn().Err(uerr).Msg("ignored a response jsonrpc2 could not decode")
			continue
		}
		return nil
	}
}

// readLine returns the next line without its line ending. A line over the
// limit is consumed and reported as errTooLong.
//
// A line longer than the reader's buffer comes in pieces. They are
// gathered straight into a line as long as the last such line was, and an
// eighth more, since a client that sends one large request (a file
// written whole) tends to send more of its size: the line is then read
// with one copy, into the one buffer it needs. Without that guess, or
// past it, the pieces are kept and copied once into a line of the right
// size: appending them to a line that grows copied a line of 9 MB five
// times over, and taking 9 MB afresh for the pieces costs as much as a
// copy (BenchmarkLongString's make+copy).
func (s *stream) readLine() ([]byte, error) {
	var line []byte     // the line so far, in room of its own (the guess)
	var pieces [][]byte // or its pieces
	size := 0
	for {
		chunk, err := s.r.ReadSlice('\n')
		size += len(chunk)
		tooLong := size > s.max+2 // room for "\r\n"
		if tooLong {
			line, pieces = nil, nil
		}
		if err == bufio.ErrBufferFull {
			if tooLong {
				continue
			}
			if line == nil && pieces == nil && s.longLine > 0 {
				line = make([]byte, 0, min(s.longLine+s.longLine/8, s.max+2))
			}
			switch {
			case line != nil && len(line)+len(chunk) <= cap(line):
				line = append(line, chunk...)
			case line != nil: // longer than the guess: on in pieces
				pieces = append(pieces, line, bytes.Clone(chunk))
				line = nil
			default:
				pieces = append(pieces, bytes.Clone(chunk))
			}
			continue
		}
		if tooLong {
			if err == nil || err == io.EOF {
				return nil, errTooLong
			}
			return nil, err
		}
		switch {
		case line != nil && len(line)+len(chunk) <= cap(line):
			line = append(line, chunk...)
		default:
			whole := make([]byte, 0, size)
			for _, p := range pieces {
				whole = append(whole, p...)
			}
			whole = append(whole, line...)
			line = append(whole, chunk...)
		}
		if size > len(chunk) {
			s.longLine = size
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > s.max {
			return nil, errTooLong
		}
		return line, err
	}
}

// WriteObject implements [jsonrpc2.ObjectStream]; jsonrpc2 uses it for
// the requests the server sends to the client.
func (s *stream) WriteObject(obj any) error {
	b, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("encode outgoing message: %w", err)
	}
	return s.writeLine(append(b, '\n'))
}

// writeLine writes one complete message, which must end in a newline.
func (s *stream) writeLine(b []byte) error {
	if ev := s.log.Debug(); ev.Enabled() {
		ev.Str("line", shorten(b[:len(b)-1], 2000)).Msg("sent")
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr != nil {
		return s.werr
	}
	if s.closed {
		return errServed
	}
	if _, err := s.out.Write(b); err != nil {
		s.werr = fmt.Errorf("write to client: %w", err)
		s.log.Error().Err(err).Msg("cannot write to the client; dropping further output")
		return s.werr
	}
	return nil
}

// respond implements peer.
func (s *stream) respond(msg []byte, _ int64) error { return s.writeLine(msg) }

// notify implements peer.
func (s *stream) notify(msg []byte) error { return s.writeLine(msg) }

// sendLine implements peer: it writes the line through one of the
// server's buffers, holding the output lock until its last piece is out.
func (s *stream) sendLine(l *line) error {
	if ev := s.log.Debug(); ev.Enabled() {
		ev.Str("line", shorten(l.head(), 2000)).Int("bytes", l.len()).Msg("sent in pieces")
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr != nil {
		return s.werr
	}
	if s.closed {
		return errServed
	}
	buf := s.chunks.get()
	defer s.chunks.put(buf)
	if err := l.writeTo(s.out, buf[:], "", "\n"); err != nil {
		s.werr = fmt.Errorf("write to client: %w", err)
		s.log.Error().Err(err).Msg("cannot write to the client; dropping further output")
		return s.werr
	}
	return nil
}

// ask implements peer: it sends a request to the client through jsonrpc2
// and waits for its result.
func (s *stream) ask(ctx context.Context, method string, params, result any) error {
	id := jsonrpc2.ID{Str: "toolserver-" + strconv.FormatUint(s.nextID.Add(1), 10), IsString: true}
	err := s.conn.Call(ctx, method, params, result, jsonrpc2.PickID(id))
	if ctx.Err() != nil {
		_ = s.conn.Notify(context.WithoutCancel(ctx), "notifications/cancelled", map[string]any{
			"requestId": id.Str, "reason": "the server stopped waiting: " + ctx.Err().Error(),
		})
		return ctx.Err()
	}
	return err
}

// reply writes an error response for a message the stream refused.
func (s *stream) reply(id json.RawMessage, code int64, msg string) {
	_ = s.writeLine(appendError(nil, id, code, msg, nil))
}

// Close implements [jsonrpc2.ObjectStream]. It closes the input only:
// calls still running may write their responses until the server is done.
func (s *stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
