package metrics_test

import (
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/metrics"
	"github.com/stdiotools/toolserver/server"
)

// BenchmarkObserveCall is what metrics add to every call: a start and a
// finish, as the server reports them.
func BenchmarkObserveCall(b *testing.B) {
	m := metrics.New()
	o := server.CallOutcome{Status: "ok", Duration: 300 * time.Microsecond, Attempts: 1}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.CallStarted("read_file")
			m.CallFinished("read_file", o)
		}
	})
}

// BenchmarkScrape writes the exposition of the story in feed.
func BenchmarkScrape(b *testing.B) {
	m := metrics.New()
	feed(m)
	h := m.Handler()
	req := httptest.NewRequest("GET", "/metrics", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		_, _ = io.Copy(io.Discard, w.Body)
	}
}
