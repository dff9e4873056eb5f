package metrics

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// contentType is what the Prometheus client answered a scrape that asked
// for no particular format: the text format 0.0.4.
const contentType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"

// Handler serves the metrics in the Prometheus text exposition format.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(m.appendText(nil))
	})
}

// snapshot is a copy of the counts, taken under the lock so that the text
// is written without holding it.
type snapshot struct {
	inFlight   int64
	calls      []callCount
	tools      []toolSnapshot // sorted by name
	validation []labelCount   // sorted by kind
	refusals   []labelCount   // sorted by reason
	auth       []labelCount   // sorted by reason
}

type callCount struct {
	callKey
	n uint64
}

type toolSnapshot struct {
	name string
	toolStats
}

type labelCount struct {
	value string
	n     uint64
}

func (m *Metrics) snapshot() snapshot {
	m.mu.Lock()
	s := snapshot{inFlight: m.inFlight, validation: counts(m.validation), refusals: counts(m.refusals), auth: counts(m.auth)}
	s.calls = make([]callCount, 0, len(m.calls))
	for k, n := range m.calls {
		s.calls = append(s.calls, callCount{k, n})
	}
	s.tools = make([]toolSnapshot, 0, len(m.tools))
	for name, t := range m.tools {
		s.tools = append(s.tools, toolSnapshot{name, *t})
	}
	m.mu.Unlock()
	// Series in the order of their label values, the labels taken by
	// name: status comes before tool.
	slices.SortFunc(s.calls, func(a, b callCount) int {
		return cmp.Or(strings.Compare(a.status, b.status), strings.Compare(a.tool, b.tool))
	})
	slices.SortFunc(s.tools, func(a, b toolSnapshot) int { return strings.Compare(a.name, b.name) })
	return s
}

func counts(by map[string]uint64) []labelCount {
	out := make([]labelCount, 0, len(by))
	for _, v := range slices.Sorted(maps.Keys(by)) {
		out = append(out, labelCount{v, by[v]})
	}
	return out
}

// appendText appends the exposition to b: the families sorted by name,
// each with its HELP and TYPE lines, left out while it has no series.
func (m *Metrics) appendText(b []byte) []byte {
	s := m.snapshot()
	b = appendCounter(b, "toolserver_auth_refusals_total", "HTTP requests the OAuth resource server refused, by reason.", "reason", s.auth)
	b = s.appendToolCounter(b, "toolserver_cache_hits_total", "Tool calls answered from the result cache or a call in flight.", func(t *toolStats) uint64 { return t.hits })
	b = s.appendToolCounter(b, "toolserver_cache_misses_total", "Calls of cached tools that had to run.", func(t *toolStats) uint64 { return t.misses })
	b = s.appendDurations(b)
	b = header(b, "toolserver_calls_in_flight", "Tool calls running now.", "gauge")
	b = sample(b, "toolserver_calls_in_flight", "", "", "", "", float64(s.inFlight))
	if len(s.calls) > 0 {
		b = header(b, "toolserver_calls_total", "Tool calls answered, by tool and status (ok, error, timeout, cancelled).", "counter")
		for _, c := range s.calls {
			b = sample(b, "toolserver_calls_total", "status", c.status, "tool", c.tool, float64(c.n))
		}
	}
	b = s.appendToolCounter(b, "toolserver_retries_total", "Extra attempts after transient errors.", func(t *toolStats) uint64 { return t.retries })
	b = appendCounter(b, "toolserver_sandbox_refusals_total", "Paths the sandbox refused, by reason.", "reason", s.refusals)
	b = s.appendToolCounter(b, "toolserver_timeouts_total", "Tool calls that ran out of time.", func(t *toolStats) uint64 { return t.timeouts })
	b = appendCounter(b, "toolserver_validation_errors_total", "Problems found in tool arguments, by kind.", "kind", s.validation)
	return b
}

func (s *snapshot) appendToolCounter(b []byte, name, help string, get func(*toolStats) uint64) []byte {
	var by []labelCount
	for i := range s.tools {
		if n := get(&s.tools[i].toolStats); n > 0 {
			by = append(by, labelCount{s.tools[i].name, n})
		}
	}
	return appendCounter(b, name, help, "tool", by)
}

func appendCounter(b []byte, name, help, label string, by []labelCount) []byte {
	if len(by) == 0 {
		return b
	}
	b = header(b, name, help, "counter")
	for _, c := range by {
		b = sample(b, name, label, c.value, "", "", float64(c.n))
	}
	return b
}

func (s *snapshot) appendDurations(b []byte) []byte {
	const name = "toolserver_call_duration_seconds"
	if len(s.tools) == 0 {
		return b
	}
	b = header(b, name, "Time from the start of a tool call to its answer.", "histogram")
	var le []byte
	for _, t := range s.tools {
		var n uint64
		for i, bound := range durationBounds {
			n += t.buckets[i]
			le = strconv.AppendFloat(le[:0], bound, 'g', -1, 64)
			b = sample(b, name+"_bucket", "tool", t.name, "le", string(le), float64(n))
		}
		b = sample(b, name+"_bucket", "tool", t.name, "le", "+Inf", float64(t.count))
		b = sample(b, name+"_sum", "tool", t.name, "", "", t.sum)
		b = sample(b, name+"_count", "tool", t.name, "", "", float64(t.count))
	}
	return b
}

func header(b []byte, name, help, typ string) []byte {
	b = append(b, "# HELP "...)
	b = append(b, name...)
	b = append(b, ' ')
	b = append(b, help...) // our own sentences: nothing to escape
	b = append(b, "\n# TYPE "...)
	b = append(b, name...)
	b = append(b, ' ')
	b = append(b, typ...)
	return append(b, '\n')
}

// sample appends one line: the name, up to two labels (an empty name
// leaves one out) and the value, as the Prometheus client formatted them.
func sample(b []byte, name, l1, v1, l2, v2 string, v float64) []byte {
	b = append(b, name...)
	if l1 != "" {
		b = label(append(b, '{'), l1, v1)
		if l2 != "" {
			b = label(append(b, ','), l2, v2)
		}
		b = append(b, '}')
	}
	b = append(b, ' ')
	b = strconv.AppendFloat(b, v, 'g', -1, 64) // 1e+06 and +Inf, as the client wrote them
	return append(b, '\n')
}

// label appends name="value", with the value escaped as the text format
// asks: backslash, double quote and line feed.
func label(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, `="`...)
	for i := 0; i < len(value); i++ {
		switch c := value[i]; c {
		case '\\':
			b = append(b, `\\`...)
		case '"':
			b = append(b, `\"`...)
		case '\n':
			b = append(b, `\n`...)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
