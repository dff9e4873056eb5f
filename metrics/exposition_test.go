package metrics_test

import (
	"bufio"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/metrics"
	"github.com/stdiotools/toolserver/server"
)

var update = flag.Bool("update", false, "rewrite testdata/scrape.txt from the current exposition")

// feed tells m a fixed story: calls of several tools with every status,
// durations in several buckets and past the last one, retries, cache hits
// and misses, refused arguments and paths, and one call still running.
func feed(m *metrics.Metrics) {
	finish := func(tool, status string, d time.Duration, attempts int, cached, hit bool) {
		m.CallStarted(tool)
		m.CallFinished(tool, server.CallOutcome{Status: status, Duration: d, Attempts: attempts, Cached: cached, CacheHit: hit})
	}
	finish("calc", "ok", 50*time.Microsecond, 1, false, false)
	finish("calc", "ok", 100*time.Microsecond, 1, false, false) // on a bucket's bound: counted in it
	finish("calc", "error", 3*time.Millisecond, 1, false, false)
	finish("read_file", "ok", 1200*time.Microsecond, 3, false, false)
	finish("read_file", "cancelled", 40*time.Second, 1, false, false) // past the last bucket
	finish("slow", "timeout", 30*time.Second, 2, false, false)
	finish("cached", "ok", 7*time.Millisecond, 1, true, false)
	finish("cached", "ok", 20*time.Microsecond, 1, true, true)
	finish("cached", "ok", 30*time.Microsecond, 1, true, true)
	finish("busy", "error", 1500*time.Millisecond, 1_000_001, false, false) // a count written 1e+06
	finish(`odd"tool\name`+"\n", "ok", time.Millisecond, 1, false, false)   // escaped in label values
	m.ArgumentsRefused("calc", []string{"missing_required", "unknown_argument", "missing_required"})
	m.ArgumentsRefused("read_file", []string{"wrong_type"})
	m.PathRefused("read_file", "escapes_root")
	m.PathRefused("write_file", "link_outside_root")
	m.PathRefused("read_file", "escapes_root")
	m.AuthRefused("missing_token")
	m.AuthRefused("invalid_token")
	m.AuthRefused("missing_token")
	m.CallStarted("read_file") // still running
}

func scrape(t *testing.T, h http.Handler) (string, http.Header) {
	t.Helper()
	web := httptest.NewServer(h)
	defer web.Close()
	resp, err := http.Get(web.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	return string(body), resp.Header
}

// TestTheScrapeIsTheGoldenTextLineByLine holds the exposition to
// testdata/scrape.txt, which was written by the Prometheus client the
// package used before: the same families in the same order, the same HELP
// and TYPE lines, labels sorted by name, series sorted by label values,
// cumulative buckets with the same bounds, and numbers formatted alike.
func TestTheScrapeIsTheGoldenTextLineByLine(t *testing.T) {
	m := metrics.New()
	feed(m)
	got, header := scrape(t, m.Handler())
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4; charset=utf-8") {
		t.Errorf("Content-Type %q, want the Prometheus text format 0.0.4", ct)
	}
	const golden = "testdata/scrape.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(string(b), "\n")
	lines := strings.Split(got, "\n")
	for i := range max(len(want), len(lines)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(lines) {
			g = lines[i]
		}
		if w != g {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, g, w)
		}
	}
}

// TestAnEmptyScrapeHasOnlyTheGauge: families without series are left out,
// as the Prometheus client did, and the in-flight gauge is always there.
func TestAnEmptyScrapeHasOnlyTheGauge(t *testing.T) {
	got, _ := scrape(t, metrics.New().Handler())
	want := "# HELP toolserver_calls_in_flight Tool calls running now.\n# TYPE toolserver_calls_in_flight gauge\ntoolserver_calls_in_flight 0\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// readmeMetrics reads the table of the README's "Metrics" section: each
// metric's name, its label names, and its type (a histogram where the row
// says so, a counter where the name ends in _total, a gauge otherwise).
func readmeMetrics(t *testing.T) map[string]readmeMetric {
	t.Helper()
	f, err := os.Open("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `(toolserver_[a-z_]+)` \\|([^|]*)\\|([^|]*)\\|$")
	label := regexp.MustCompile("`([a-z_]+)`( \\([^)]*\\))?")
	out := map[string]readmeMetric{}
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Metrics"
			continue
		}
		r := row.FindStringSubmatch(line)
		if !in || r == nil {
			continue
		}
		var m readmeMetric
		for _, l := range label.FindAllStringSubmatch(r[2], -1) {
			m.labels = append(m.labels, l[1])
		}
		slices.Sort(m.labels)
		switch {
		case strings.Contains(r[3], "histogram"):
			m.typ = "histogram"
		case strings.HasSuffix(r[1], "_total"):
			m.typ = "counter"
		default:
			m.typ = "gauge"
		}
		out[r[1]] = m
	}
	if len(out) != 10 {
		t.Fatalf("the README's Metrics table has %d metrics, want 10: %v", len(out), out)
	}
	return out
}

type readmeMetric struct {
	typ    string
	labels []string
}

// TestTheScrapeKeepsTheREADMEPromise checks every line of a scrape against
// the README's table: each family documented and of the documented type,
// each series with exactly the documented labels (and le on buckets), and
// every documented family present.
func TestTheScrapeKeepsTheREADMEPromise(t *testing.T) {
	doc := readmeMetrics(t)
	m := metrics.New()
	feed(m)
	got, _ := scrape(t, m.Handler())
	sample := regexp.MustCompile(`^([a-z_]+)(?:\{(.*)\})? (\S+)$`)
	labelName := regexp.MustCompile(`(?:^|,)([a-z_]+)="(?:[^"\\]|\\.)*"`)
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			if d, ok := doc[name]; !ok || d.typ != typ {
				t.Errorf("line %d: %q: the README has %s as %q", i+1, line, name, d.typ)
			}
			seen[name] = true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			if name, _, _ := strings.Cut(rest, " "); doc[name].typ == "" {
				t.Errorf("line %d: %q: not in the README", i+1, line)
			}
			continue
		}
		s := sample.FindStringSubmatch(line)
		if s == nil {
			t.Errorf("line %d: %q is not a sample line", i+1, line)
			continue
		}
		name, wantLe := s[1], false
		if _, ok := doc[name]; !ok {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(name, suffix); ok && doc[base].typ == "histogram" {
					name, wantLe = base, suffix == "_bucket"
				}
			}
		}
		d, ok := doc[name]
		if !ok {
			t.Errorf("line %d: %q: %s is not in the README", i+1, line, s[1])
			continue
		}
		var labels []string
		for _, l := range labelName.FindAllStringSubmatch(s[2], -1) {
			if l[1] == "le" && wantLe {
				wantLe = false
				continue
			}
			labels = append(labels, l[1])
		}
		if !slices.Equal(labels, d.labels) || wantLe {
			t.Errorf("line %d: %q: labels %v, the README has %v", i+1, line, labels, d.labels)
		}
		if !seen[name] {
			t.Errorf("line %d: %q comes before its TYPE line", i+1, line)
		}
	}
	for name := range doc {
		if !seen[name] {
			t.Errorf("the scrape lacks %s", name)
		}
	}
}
