// Package metrics exports what happens to toolserver's calls in the
// Prometheus text format. A [Metrics] is a server.Observer: set it in
// server.Options.Observer and serve [Metrics.Handler] on a loopback
// address.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stdiotools/toolserver/server"
)

// Metrics counts calls by tool and outcome. The metric names:
//
//	toolserver_calls_total{tool,status}          calls answered: ok, error, timeout, cancelled
//	toolserver_call_duration_seconds{tool}       time from start to answer (histogram)
//	toolserver_calls_in_flight                   calls running now
//	toolserver_validation_errors_total{kind}     problems found in arguments, by kind
//	toolserver_cache_hits_total{tool}            answers from the result cache
//	toolserver_cache_misses_total{tool}          calls of cached tools that had to run
//	toolserver_retries_total{tool}               extra attempts after transient errors
//	toolserver_timeouts_total{tool}              calls that ran out of time
//	toolserver_sandbox_refusals_total{reason}    paths the sandbox refused, by reason
type Metrics struct {
	registry   *prometheus.Registry
	calls      *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	inFlight   prometheus.Gauge
	validation *prometheus.CounterVec
	hits       *prometheus.CounterVec
	misses     *prometheus.CounterVec
	retries    *prometheus.CounterVec
	timeouts   *prometheus.CounterVec
	refusals   *prometheus.CounterVec
}

// New returns Metrics registered in a registry of their own, so that
// nothing global is touched.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_calls_total", Help: "Tool calls answered, by tool and status (ok, error, timeout, cancelled).",
		}, []string{"tool", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "toolserver_call_duration_seconds", Help: "Time from the start of a tool call to its answer.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"tool"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "toolserver_calls_in_flight", Help: "Tool calls running now.",
		}),
		validation: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_validation_errors_total", Help: "Problems found in tool arguments, by kind.",
		}, []string{"kind"}),
		hits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_cache_hits_total", Help: "Tool calls answered from the result cache or a call in flight.",
		}, []string{"tool"}),
		misses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_cache_misses_total", Help: "Calls of cached tools that had to run.",
		}, []string{"tool"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_retries_total", Help: "Extra attempts after transient errors.",
		}, []string{"tool"}),
		timeouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_timeouts_total", Help: "Tool calls that ran out of time.",
		}, []string{"tool"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolserver_sandbox_refusals_total", Help: "Paths the sandbox refused, by reason.",
		}, []string{"reason"}),
	}
	m.registry.MustRegister(m.calls, m.duration, m.inFlight, m.validation, m.hits, m.misses, m.retries, m.timeouts, m.refusals)
	return m
}

// Handler serves the metrics in the Prometheus text exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// CallStarted implements server.Observer.
func (m *Metrics) CallStarted(string) { m.inFlight.Inc() }

// CallFinished implements server.Observer.
func (m *Metrics) CallFinished(tool string, o server.CallOutcome) {
	m.inFlight.Dec()
	m.calls.WithLabelValues(tool, o.Status).Inc()
	m.duration.WithLabelValues(tool).Observe(o.Duration.Seconds())
	if o.Attempts > 1 {
		m.retries.WithLabelValues(tool).Add(float64(o.Attempts - 1))
	}
	if o.Status == "timeout" {
		m.timeouts.WithLabelValues(tool).Inc()
	}
	switch {
	case o.CacheHit:
		m.hits.WithLabelValues(tool).Inc()
	case o.Cached:
		m.misses.WithLabelValues(tool).Inc()
	}
}

// ArgumentsRefused implements server.Observer.
func (m *Metrics) ArgumentsRefused(_ string, kinds []string) {
	for _, k := range kinds {
		m.validation.WithLabelValues(k).Inc()
	}
}

// PathRefused implements server.Observer.
func (m *Metrics) PathRefused(_ string, reason string) {
	m.refusals.WithLabelValues(reason).Inc()
}
