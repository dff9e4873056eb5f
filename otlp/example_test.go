package otlp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/otlp"
	"github.com/stdiotools/toolserver/server"
)

// An exporter configured from the environment sends the spans of a call
// to the collector at OTEL_EXPORTER_OTLP_ENDPOINT.
func Example() {
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("collector:", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
	}))
	defer collector.Close()

	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL}
	cfg, ok, err := otlp.FromEnv(func(k string) string { return env[k] })
	if err != nil || !ok {
		fmt.Println("no traces:", err)
		return
	}
	exp := otlp.New(cfg, nil, zerolog.Nop())
	// A server would do this for every call: opts.Tracer = exp.
	start := time.Now()
	exp.CallTraced(&server.CallSpan{Tool: "calc", Start: start, End: start.Add(time.Millisecond), Status: "ok",
		Stages: []server.StageSpan{{Name: "execute", Start: start, End: start.Add(time.Millisecond)}}})
	if err := exp.Shutdown(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output: collector: POST /v1/traces application/x-protobuf
}
