package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// TestCallsAreTracedOverOTLP starts the binary with the standard
// OpenTelemetry variable pointing at an in-process collector and checks
// the spans it receives: one per call, with a child per stage, the last
// ones sent as the server exits.
func TestCallsAreTracedOverOTLP(t *testing.T) {
	var mu sync.Mutex
	var got tracepb.TracesData
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var td tracepb.TracesData
		if err := proto.Unmarshal(body, &td); err != nil || r.URL.Path != "/v1/traces" {
			t.Errorf("%s: %v", r.URL.Path, err)
		}
		mu.Lock()
		got.ResourceSpans = append(got.ResourceSpans, td.ResourceSpans...)
		mu.Unlock()
	}))
	defer collector.Close()

	p := startEnv(t, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + collector.URL, "OTEL_SERVICE_NAME=ts-test"},
		"--root", playground(t))
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.recv()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"2*21"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`)
	p.recv()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1/0"}}}`)
	p.recv()
	p.finish() // the exporter sends what it holds as the server exits

	mu.Lock()
	defer mu.Unlock()
	var spans []*tracepb.Span
	for _, rs := range got.ResourceSpans {
		for _, kv := range rs.Resource.Attributes {
			if kv.Key == "service.name" && kv.Value.GetStringValue() != "ts-test" {
				t.Errorf("service.name %q", kv.Value.GetStringValue())
			}
		}
		for _, ss := range rs.ScopeSpans {
			spans = append(spans, ss.Spans...)
		}
	}
	type summary struct {
		name   string
		failed bool
	}
	var sums []summary
	for _, s := range spans {
		sums = append(sums, summary{s.Name, s.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR})
	}
	want := []summary{
		{"tools/call calc", false}, {"parse", false}, {"validate", false}, {"execute", false},
		{"tools/call calc", true}, {"parse", false}, {"validate", false}, {"execute", true},
	}
	if len(sums) != len(want) {
		t.Fatalf("spans %v, want %v", sums, want)
	}
	for i := range want {
		if sums[i] != want[i] {
			t.Errorf("span %d is %v, want %v", i, sums[i], want[i])
		}
	}
	if tid := spans[0].TraceId; len(tid) != 16 || tid[0] != 0x4b || tid[15] != 0x36 {
		t.Errorf("the first call did not join the client's trace: %x", tid)
	}
	if string(spans[4].TraceId) == string(spans[0].TraceId) {
		t.Error("the second call, without traceparent, shares the first one's trace")
	}
	if v := attr(spans[4].Attributes, "error.type"); v != "tool_error" {
		t.Errorf("error.type %q", v)
	}
}

func attr(kvs []*commonpb.KeyValue, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}

// TestUnusableTracingSettingsLeaveTracesOff checks that a bad
// OpenTelemetry variable is a warning, not a failure to serve.
func TestUnusableTracingSettingsLeaveTracesOff(t *testing.T) {
	p := startEnv(t, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL=grpc"},
		"--root", playground(t))
	p.send(`{"jsonrpc":"2.0","id":0,"method":"ping"}`)
	if got := p.recv(); got != `{"jsonrpc":"2.0","id":0,"result":{}}` {
		t.Fatalf("got %s", got)
	}
	p.finish()
	if !strings.Contains(p.stderr.String(), `only http/protobuf is supported`) {
		t.Errorf("no warning on stderr:\n%s", p.stderr)
	}
}
