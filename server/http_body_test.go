package server

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHTTPBodyRoomIsTheAnnouncedLengthNotThePrealloc(t *testing.T) {
	e := &endpoint{srv: New(Options{Logger: nopLogger(), MaxMessageBytes: 1 << 20}), opts: HTTPOptions{BodyTimeout: 10 * time.Second}}
	for _, n := range []int{2, 100, 4000} {
		body := `"` + strings.Repeat("x", n-2) + `"`
		r := httptest.NewRequest("POST", "/", strings.NewReader(body)) // announces len(body)
		got, status, werr := e.readBody(httptest.NewRecorder(), r)
		if werr != nil || string(got) != body {
			t.Fatalf("a body of %d bytes: %d %v", n, status, werr)
		}
		// A body of known length is read into exactly its length.
		if cap(got) != len(body) {
			t.Errorf("a body announced as %d bytes was read into %d bytes of room", n, cap(got))
		}
	}
}

// TestReadAtMostReadsEveryBodyWholeWithinItsLimit holds readAtMost at its
// boundaries: lengths known and unknown, at the limit and one byte past
// it, a body that breaks off before its announced length, and a length
// known but past the preallocated room.
func TestReadAtMostReadsEveryBodyWholeWithinItsLimit(t *testing.T) {
	const limit = 100
	for _, tc := range []struct {
		name      string
		body      string
		announced int64 // -1: unknown, as a chunked body
		tooBig    bool
		broken    bool
	}{
		{"known, empty", "", 0, false, false},
		{"known, one byte", "x", 1, false, false},
		{"known, exactly the limit", strings.Repeat("x", limit), limit, false, false},
		{"unknown, empty", "", -1, false, false},
		{"unknown, exactly the limit", strings.Repeat("x", limit), -1, false, false},
		{"unknown, one byte past the limit", strings.Repeat("x", limit+1), -1, true, false},
		{"known, broken off", "xyz", 10, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", nil)
			r.Body = io.NopCloser(io.LimitReader(strings.NewReader(tc.body), int64(len(tc.body))))
			r.ContentLength = tc.announced
			got, err := readAtMost(httptest.NewRecorder(), r, limit)
			var mbe *http.MaxBytesError
			switch {
			case tc.tooBig:
				if !errors.As(err, &mbe) {
					t.Fatalf("got %d bytes and %v; want a MaxBytesError", len(got), err)
				}
			case tc.broken:
				if !errors.Is(err, io.ErrUnexpectedEOF) || string(got) != tc.body {
					t.Fatalf("got %q and %v; want what came and io.ErrUnexpectedEOF", got, err)
				}
			default:
				if err != nil || string(got) != tc.body {
					t.Fatalf("got %q and %v; want the body whole", got, err)
				}
			}
		})
	}
	// A length known but past the room a body takes before it comes
	// grows as the body comes, as one of unknown length does.
	body := strings.Repeat("y", bodyPrealloc+10)
	r := httptest.NewRequest("POST", "/", strings.NewReader(body))
	got, err := readAtMost(httptest.NewRecorder(), r, 1<<20)
	if err != nil || string(got) != body {
		t.Fatalf("a body of %d bytes: got %d bytes and %v", len(body), len(got), err)
	}
}
