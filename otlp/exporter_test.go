package otlp

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/server"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// receiver is an in-process OTLP/HTTP collector: it decodes what it
// receives with the generated OTLP types.
type receiver struct {
	t       *testing.T
	mu      sync.Mutex
	data    []*tracepb.ResourceSpans
	headers []http.Header
	fail    int // answer this many requests with 503 first
	posts   int
}

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	r := &receiver{t: t}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.posts++
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" {
		r.t.Errorf("got %s %s, want POST /v1/traces", req.Method, req.URL.Path)
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		r.t.Errorf("Content-Type %q, want application/x-protobuf", ct)
	}
	if r.fail > 0 {
		r.fail--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	body, _ := io.ReadAll(req.Body)
	// TracesData has the wire format of ExportTraceServiceRequest.
	var td tracepb.TracesData
	if err := proto.Unmarshal(body, &td); err != nil {
		r.t.Errorf("the request is not a valid ExportTraceServiceRequest: %v", err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.data = append(r.data, td.ResourceSpans...)
	r.headers = append(r.headers, req.Header.Clone())
}

// spans returns every span received, in order.
func (r *receiver) spans() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*tracepb.Span
	for _, rs := range r.data {
		for _, ss := range rs.ScopeSpans {
			out = append(out, ss.Spans...)
		}
	}
	return out
}

func attrs(kvs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = v.IntValue
		case *commonpb.AnyValue_BoolValue:
			m[kv.Key] = v.BoolValue
		}
	}
	return m
}

// sampleCall is a call that went through parse, validate and execute.
func sampleCall(status string) *server.CallSpan {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c := &server.CallSpan{
		Tool: "calc", RequestID: json.RawMessage(`"req-7"`), Session: "0123456789abcdef",
		Start: t0, End: t0.Add(90 * time.Microsecond), Status: status, Attempts: 1,
		Stages: []server.StageSpan{
			{Name: "parse", Start: t0, End: t0.Add(10 * time.Microsecond)},
			{Name: "validate", Start: t0.Add(10 * time.Microsecond), End: t0.Add(30 * time.Microsecond)},
			{Name: "execute", Start: t0.Add(30 * time.Microsecond), End: t0.Add(80 * time.Microsecond)},
		},
	}
	if status != "ok" {
		c.Error = "Division by zero at character 3 of 1/0."
		c.Stages[2].Error = "division by zero"
	}
	return c
}

func export(t *testing.T, cfg Config, calls ...*server.CallSpan) *receiver {
	t.Helper()
	r, srv := newReceiver(t)
	cfg.Endpoint = srv.URL + "/v1/traces"
	e := New(cfg, nil, zerolog.Nop())
	for _, c := range calls {
		e.CallTraced(c)
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestACallBecomesAServerSpanWithAChildPerStage(t *testing.T) {
	r := export(t, Config{ScopeVersion: "v1.2.3", Resource: map[string]string{"deployment.environment": "test"}}, sampleCall("ok"))
	spans := r.spans()
	if len(spans) != 4 {
		t.Fatalf("got %d spans, want 4", len(spans))
	}
	root := spans[0]
	if root.Name != "tools/call calc" || root.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("root span %q kind %v, want \"tools/call calc\" SERVER", root.Name, root.Kind)
	}
	if len(root.TraceId) != 16 || len(root.SpanId) != 8 || len(root.ParentSpanId) != 0 {
		t.Errorf("root ids: trace %x span %x parent %x", root.TraceId, root.SpanId, root.ParentSpanId)
	}
	if got := root.EndTimeUnixNano - root.StartTimeUnixNano; got != 90000 {
		t.Errorf("root lasts %d ns, want 90000", got)
	}
	want := map[string]any{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "calc", "gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id": "req-7", "network.transport": "pipe", "toolserver.session": "0123456789abcdef",
		"toolserver.status": "ok", "toolserver.attempts": int64(1), "toolserver.cache_hit": false,
	}
	got := attrs(root.Attributes)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("attribute %s = %v, want %v", k, got[k], v)
		}
	}
	if _, ok := got["error.type"]; ok {
		t.Error("a successful call has error.type")
	}
	if root.Status != nil && root.Status.Code != tracepb.Status_STATUS_CODE_UNSET {
		t.Errorf("status %v, want unset", root.Status)
	}
	for i, name := range []string{"parse", "validate", "execute"} {
		s := spans[i+1]
		if s.Name != name || s.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
			t.Errorf("span %d is %q %v, want %q INTERNAL", i+1, s.Name, s.Kind, name)
		}
		if string(s.TraceId) != string(root.TraceId) || string(s.ParentSpanId) != string(root.SpanId) {
			t.Errorf("stage %s is not a child of the call's span", name)
		}
		if s.StartTimeUnixNano < root.StartTimeUnixNano || s.EndTimeUnixNano > root.EndTimeUnixNano {
			t.Errorf("stage %s lies outside its call", name)
		}
	}
	rs := r.data[0]
	res := attrs(rs.Resource.Attributes)
	if res["service.name"] != "toolserver" || res["deployment.environment"] != "test" {
		t.Errorf("resource %v", res)
	}
	if sc := rs.ScopeSpans[0].Scope; sc.Name != scopeName || sc.Version != "v1.2.3" {
		t.Errorf("scope %q %q", sc.Name, sc.Version)
	}
}

func TestAFailedCallHasAnErrorStatusAndType(t *testing.T) {
	spans := export(t, Config{}, sampleCall("error")).spans()
	root, exec := spans[0], spans[3]
	if root.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || root.Status.GetMessage() != "Division by zero at character 3 of 1/0." {
		t.Errorf("root status %v", root.Status)
	}
	if got := attrs(root.Attributes)["error.type"]; got != "tool_error" {
		t.Errorf("error.type %v, want tool_error", got)
	}
	if exec.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || exec.Status.GetMessage() != "division by zero" {
		t.Errorf("execute status %v", exec.Status)
	}
	if spans[1].Status.GetCode() != tracepb.Status_STATUS_CODE_UNSET {
		t.Errorf("parse succeeded but has status %v", spans[1].Status)
	}
}

func TestACallJoinsTheClientsTraceFromTraceparent(t *testing.T) {
	c := sampleCall("ok")
	c.TraceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	c.TraceState = "vendor=x"
	spans := export(t, Config{}, c).spans()
	root := spans[0]
	if hex.EncodeToString(root.TraceId) != "4bf92f3577b34da6a3ce929d0e0e4736" || hex.EncodeToString(root.ParentSpanId) != "00f067aa0ba902b7" {
		t.Errorf("trace %x parent %x", root.TraceId, root.ParentSpanId)
	}
	if root.TraceState != "vendor=x" {
		t.Errorf("tracestate %q", root.TraceState)
	}
	if root.Flags != 0x301 {
		t.Errorf("flags %#x, want 0x301 (sampled, remote parent)", root.Flags)
	}
	if spans[1].Flags != 0x101 {
		t.Errorf("child flags %#x, want 0x101 (sampled, local parent)", spans[1].Flags)
	}
}

func TestAnInvalidTraceparentStartsATraceOfItsOwn(t *testing.T) {
	c := sampleCall("ok")
	c.TraceParent = "00-00000000000000000000000000000000-00f067aa0ba902b7-01"
	root := export(t, Config{}, c).spans()[0]
	if len(root.ParentSpanId) != 0 || hex.EncodeToString(root.TraceId) == "00000000000000000000000000000000" {
		t.Errorf("trace %x parent %x", root.TraceId, root.ParentSpanId)
	}
}

func TestExportRetriesWhenTheCollectorIsBusy(t *testing.T) {
	r, srv := newReceiver(t)
	r.fail = 1
	e := New(Config{Endpoint: srv.URL + "/v1/traces", Headers: map[string]string{"Authorization": "Bearer k"}}, nil, zerolog.Nop())
	e.CallTraced(sampleCall("ok"))
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(r.spans()); n != 4 || r.posts != 2 {
		t.Errorf("got %d spans in %d posts, want 4 in 2", n, r.posts)
	}
	if h := r.headers[0].Get("Authorization"); h != "Bearer k" {
		t.Errorf("Authorization %q", h)
	}
}

func TestBatchesHoldAtMostBatchSizeSpans(t *testing.T) {
	calls := make([]*server.CallSpan, 5)
	for i := range calls {
		calls[i] = sampleCall("ok")
	}
	r := export(t, Config{BatchSize: 8, QueueSize: 100}, calls...)
	if n := len(r.spans()); n != 20 {
		t.Fatalf("got %d spans, want 20", n)
	}
	for _, rs := range r.data {
		if n := len(rs.ScopeSpans[0].Spans); n > 8 {
			t.Errorf("a batch of %d spans, want at most 8", n)
		}
	}
}

func TestAFullQueueDropsCallsInsteadOfBlocking(t *testing.T) {
	r, srv := newReceiver(t)
	e := New(Config{Endpoint: srv.URL + "/v1/traces", BatchSize: 4, QueueSize: 8, BatchDelay: time.Hour}, nil, zerolog.Nop())
	// Fill the queue directly, without waking the loop, so that nothing
	// leaves it before the next call arrives.
	e.mu.Lock()
	e.queue = append(e.queue, sampleCall("ok"), sampleCall("ok"))
	e.spans = 8
	e.mu.Unlock()
	e.CallTraced(sampleCall("ok"))
	e.mu.Lock()
	dropped := e.dropped
	e.mu.Unlock()
	if dropped != 1 {
		t.Errorf("dropped %d calls, want 1", dropped)
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(r.spans()); n != 8 {
		t.Errorf("got %d spans, want the 8 queued", n)
	}
}

func TestSpansAfterShutdownAreDropped(t *testing.T) {
	r, srv := newReceiver(t)
	e := New(Config{Endpoint: srv.URL + "/v1/traces"}, nil, zerolog.Nop())
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.CallTraced(sampleCall("ok"))
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(r.spans()); n != 0 {
		t.Errorf("got %d spans after shutdown", n)
	}
}

func TestACallInAnUnsampledClientTraceIsNotExported(t *testing.T) {
	c := sampleCall("ok")
	c.TraceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
	if n := len(export(t, Config{}, c).spans()); n != 0 {
		t.Errorf("%d spans exported for an unsampled trace", n)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		h    string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"-1", 0},
		{"Sun, 29 Nov 2026 12:00:07 GMT", 7 * time.Second},
		{"Sun, 29 Nov 2026 11:00:00 GMT", 0},
		{"soon", 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tt.h, got, tt.want)
		}
	}
}

func TestARefusalSaysWhatTheCollectorSaid(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"code":3,"message":"bad span"}`))
	}))
	defer srv.Close()
	e := New(Config{Endpoint: srv.URL + "/v1/traces"}, nil, zerolog.Nop())
	defer func() { _ = e.Shutdown(context.Background()) }()
	err := e.send([]byte{})
	if err == nil || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), "bad span") {
		t.Fatalf("err = %v", err)
	}
}
