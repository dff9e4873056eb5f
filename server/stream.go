package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"

	"github.com/rs/zerolog"
	"github.com/sourcegraph/jsonrpc2"
)

// DefaultMaxMessageBytes is the largest message a Stream accepts unless
// told otherwise.
const DefaultMaxMessageBytes = 16 << 20

// Stream is a [jsonrpc2.ObjectStream] for newline-delimited JSON-RPC 2.0
// over a pipe, as MCP's stdio transport uses it.
//
// Unlike the streams that jsonrpc2 ships, a Stream never closes the
// connection because of one bad line: it answers malformed JSON (-32700),
// invalid requests, batches and over-long lines (-32600) by itself and goes
// on with the next line. Lines longer than the limit are discarded as they
// arrive, without buffering them. Every write goes through one mutex, one
// message per line, so nothing else ever reaches the output.
type Stream struct {
	r      *bufio.Reader
	out    io.Writer
	closer io.Closer
	max    int
	log    zerolog.Logger

	wmu  sync.Mutex // guards out and werr
	werr error

	cur envelope // the message ReadObject last handed to jsonrpc2
}

// NewStream returns a Stream that reads messages from r and writes them to
// w. Lines longer than maxBytes (not counting the newline) are refused;
// maxBytes <= 0 means [DefaultMaxMessageBytes]. If r or w is an
// [io.Closer], Close closes it.
func NewStream(r io.Reader, w io.Writer, maxBytes int, log zerolog.Logger) *Stream {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxMessageBytes
	}
	closer, _ := r.(io.Closer)
	return &Stream{r: bufio.NewReaderSize(r, 64<<10), out: w, closer: closer, max: maxBytes, log: log}
}

// errTooLong marks a line over the size limit; its bytes were dropped.
var errTooLong = errors.New("line too long")

// ReadObject implements [jsonrpc2.ObjectStream]. It returns only when it
// has a well-formed message for jsonrpc2, or when reading fails.
func (s *Stream) ReadObject(v any) error {
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
		env, werr := parseEnvelope(line)
		if werr != nil {
			s.log.Debug().Int64("code", werr.code).Str("reason", werr.message).Msg("refused a message")
			s.reply(werr.id, werr.code, werr.message)
			continue
		}
		slim := s.slim(env, line)
		if slim == nil {
			continue
		}
		reset(v)
		if uerr := json.Unmarshal(slim, v); uerr != nil {
			// jsonrpc2 would close the connection on this error; drop the
			// message instead. parseEnvelope should have caught it.
			s.log.Warn().Err(uerr).Msg("jsonrpc2 could not decode a checked message; dropped it")
			continue
		}
		s.cur = env
		return nil
	}
}

// slim returns the JSON that jsonrpc2 decodes for env. Requests carry only
// their method: the server reads id and params from the checked envelope
// (see [Stream.current]), so jsonrpc2 neither re-parses large params nor
// sees ids it cannot represent. Responses to our own calls are passed on
// when their id is one jsonrpc2 can match; others are logged and dropped.
func (s *Stream) slim(env envelope, line []byte) []byte {
	switch env.kind {
	case kindResponse:
		var id jsonrpc2.ID
		if err := json.Unmarshal(env.id, &id); err != nil {
			s.log.Warn().RawJSON("id", env.id).Msg("ignored a response whose id matches no request of ours")
			return nil
		}
		return line
	case kindNotification:
		b := append([]byte(`{"jsonrpc":"2.0","method":`), quoteMethod(env.method)...)
		return append(b, '}')
	default:
		b := append([]byte(`{"jsonrpc":"2.0","id":0,"method":`), quoteMethod(env.method)...)
		return append(b, '}')
	}
}

func quoteMethod(m string) []byte {
	b, _ := json.Marshal(m)
	return b
}

// current returns the envelope of the request jsonrpc2 is dispatching.
// jsonrpc2 calls its handler from its read loop right after ReadObject
// returns, so this is only valid inside that call.
func (s *Stream) current() envelope { return s.cur }

// reset zeroes the value jsonrpc2 passes to ReadObject, so that a message
// never inherits fields of the one before.
func reset(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
}

// readLine returns the next line without its line ending. A line over the
// limit is consumed and reported as errTooLong.
func (s *Stream) readLine() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := s.r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > s.max+2 { // room for "\r\n"
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			if err == nil || err == io.EOF {
				return nil, errTooLong
			}
			return nil, err
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
func (s *Stream) WriteObject(obj any) error {
	b, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("encode outgoing message: %w", err)
	}
	return s.writeLine(append(b, '\n'))
}

// writeLine writes one complete message, which must end in a newline.
func (s *Stream) writeLine(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr != nil {
		return s.werr
	}
	if _, err := s.out.Write(b); err != nil {
		s.werr = fmt.Errorf("write to client: %w", err)
		s.log.Error().Err(err).Msg("cannot write to the client; dropping further output")
		return s.werr
	}
	return nil
}

// reply writes an error response for a message the stream refused.
func (s *Stream) reply(id json.RawMessage, code int64, msg string) {
	_ = s.writeLine(appendError(nil, id, code, msg, nil))
}

// Close implements [jsonrpc2.ObjectStream]. It closes the input only:
// calls still running may write their responses until the server is done.
func (s *Stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
