package metrics_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/metrics"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/tools/calc"
	"github.com/stdiotools/toolserver/tools/fs"
)

type slowArgs struct{}

type slowOut struct{}

func TestMetricsAreScrapedOverHTTP(t *testing.T) {
	m := metrics.New()
	srv := server.New(server.Options{Observer: m, ToolTimeout: 20 * time.Millisecond})
	if err := calc.Register(srv); err != nil {
		t.Fatal(err)
	}
	if err := fs.Register(srv, security.NewSandbox(afero.NewMemMapFs(), security.SandboxOptions{})); err != nil {
		t.Fatal(err)
	}
	_ = server.AddTool(srv, server.ToolSpec{Name: "cached", Description: "d", CacheTTL: time.Minute}, func(ctx context.Context, call *server.Call, in slowArgs) (slowOut, error) {
		return slowOut{}, nil
	})
	_ = server.AddTool(srv, server.ToolSpec{Name: "slow", Description: "d"}, func(ctx context.Context, call *server.Call, in slowArgs) (slowOut, error) {
		<-ctx.Done()
		return slowOut{}, ctx.Err()
	})
	// CallTool runs outside a session, so feed the calls through Serve.
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1+1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1/0"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"calc","arguments":{"bogus":1}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"../x"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"cached","arguments":{}}}`,
	}
	var out strings.Builder
	if err := srv.Serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != len(lines) {
		t.Fatalf("%d answers: %s", n, out.String())
	}

	web := httptest.NewServer(m.Handler())
	defer web.Close()
	resp, err := http.Get(web.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	text := string(body)
	for _, want := range []string{
		`toolserver_calls_total{status="ok",tool="calc"} 1`,
		`toolserver_calls_total{status="error",tool="calc"} 2`,
		`toolserver_calls_total{status="error",tool="read_file"} 1`,
		`toolserver_calls_total{status="timeout",tool="slow"} 1`,
		`toolserver_timeouts_total{tool="slow"} 1`,
		`toolserver_validation_errors_total{kind="missing_required"} 1`,
		`toolserver_validation_errors_total{kind="unknown_argument"} 1`,
		`toolserver_sandbox_refusals_total{reason="escapes_root"} 1`,
		`toolserver_calls_in_flight 0`,
		`toolserver_cache_misses_total{tool="cached"} 1`,
		`toolserver_call_duration_seconds_count{tool="calc"} 3`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	if t.Failed() {
		t.Log(text)
	}
}
