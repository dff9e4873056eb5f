package otlp

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Config says where and how spans are exported. [FromEnv] fills it from
// the standard OpenTelemetry variables; the zero value of every field but
// Endpoint has a useful default.
type Config struct {
	// Endpoint is the full URL spans are posted to, such as
	// http://localhost:4318/v1/traces.
	Endpoint string
	// Headers are sent with every export, for example an API key.
	Headers map[string]string
	// Timeout bounds one export, retries included; default 10s.
	Timeout time.Duration
	// Resource describes this process: service.name and the like.
	Resource map[string]string
	// ScopeVersion is the version of the instrumentation scope, the
	// server's version.
	ScopeVersion string
	// BatchDelay is the longest a span waits before it is sent; default 5s.
	BatchDelay time.Duration
	// BatchSize is the most spans of one export; default 512.
	BatchSize int
	// QueueSize is the most spans waiting; beyond it new spans are
	// dropped and counted. Default 2048.
	QueueSize int
}

// withDefaults returns c with its zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.BatchDelay <= 0 {
		c.BatchDelay = 5 * time.Second
	}
	if c.BatchSize <= 0 {
		c.BatchSize = 512
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 2048
	}
	if c.QueueSize < c.BatchSize {
		c.QueueSize = c.BatchSize
	}
	if c.Resource == nil {
		c.Resource = map[string]string{}
	}
	if c.Resource["service.name"] == "" {
		c.Resource["service.name"] = "toolserver"
	}
	return c
}

// FromEnv reads the standard OpenTelemetry environment variables through
// getenv (os.Getenv in a program, a map in tests). It reports ok false,
// and no error, when traces are not wanted: neither
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT nor OTEL_EXPORTER_OTLP_ENDPOINT is
// set, OTEL_SDK_DISABLED is true, or OTEL_TRACES_EXPORTER is "none".
//
// The variables read: OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT (the traces
// endpoint is used as is, the general one gets /v1/traces appended),
// OTEL_EXPORTER_OTLP_[TRACES_]HEADERS, OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT
// (milliseconds), OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL (only
// "http/protobuf", the default, is supported), OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, OTEL_BSP_SCHEDULE_DELAY,
// OTEL_BSP_MAX_EXPORT_BATCH_SIZE and OTEL_BSP_MAX_QUEUE_SIZE. A value that
// cannot be used is an error naming the variable.
func FromEnv(getenv func(string) string) (cfg Config, ok bool, err error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return Config{}, false, nil
	}
	switch exporters := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exporters {
	case "", "otlp":
	case "none":
		return Config{}, false, nil
	default:
		return Config{}, false, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: only otlp (or none) is supported", exporters)
	}
	// The signal-specific variable wins over the general one.
	pick := func(name string) (string, string) {
		specific := "OTEL_EXPORTER_OTLP_TRACES_" + name
		if v := strings.TrimSpace(getenv(specific)); v != "" {
			return v, specific
		}
		general := "OTEL_EXPORTER_OTLP_" + name
		return strings.TrimSpace(getenv(general)), general
	}
	endpoint, from := pick("ENDPOINT")
	if endpoint == "" {
		return Config{}, false, nil
	}
	u, perr := url.Parse(endpoint)
	if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Config{}, false, fmt.Errorf("%s=%q: want an http:// or https:// URL", from, endpoint)
	}
	if from == "OTEL_EXPORTER_OTLP_ENDPOINT" {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
		u.RawPath = ""
		endpoint = u.String()
	}
	cfg.Endpoint = endpoint

	if p, name := pick("PROTOCOL"); p != "" && p != "http/protobuf" {
		return Config{}, false, fmt.Errorf("%s=%q: only http/protobuf is supported", name, p)
	}
	if h, name := pick("HEADERS"); h != "" {
		if cfg.Headers, err = parsePairs(h); err != nil {
			return Config{}, false, fmt.Errorf("%s: %w", name, err)
		}
	}
	if t, name := pick("TIMEOUT"); t != "" {
		if cfg.Timeout, err = millis(t); err != nil {
			return Config{}, false, fmt.Errorf("%s: %w", name, err)
		}
	}
	if r := getenv("OTEL_RESOURCE_ATTRIBUTES"); strings.TrimSpace(r) != "" {
		if cfg.Resource, err = parsePairs(r); err != nil {
			return Config{}, false, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
		}
	}
	if name := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); name != "" {
		if cfg.Resource == nil {
			cfg.Resource = map[string]string{}
		}
		cfg.Resource["service.name"] = name
	}
	if d := getenv("OTEL_BSP_SCHEDULE_DELAY"); d != "" {
		if cfg.BatchDelay, err = millis(d); err != nil {
			return Config{}, false, fmt.Errorf("OTEL_BSP_SCHEDULE_DELAY: %w", err)
		}
	}
	for _, v := range []struct {
		name string
		to   *int
	}{{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", &cfg.BatchSize}, {"OTEL_BSP_MAX_QUEUE_SIZE", &cfg.QueueSize}} {
		if s := strings.TrimSpace(getenv(v.name)); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				return Config{}, false, fmt.Errorf("%s=%q: want a positive whole number", v.name, s)
			}
			*v.to = n
		}
	}
	return cfg, true, nil
}

// millis parses a duration given in milliseconds, as the OpenTelemetry
// variables give them.
func millis(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: want a positive number of milliseconds", s)
	}
	return time.Duration(n) * time.Millisecond, nil
}

// parsePairs parses the key=value,key=value lists of the OpenTelemetry
// variables, whose values are percent-encoded.
func parsePairs(s string) (map[string]string, error) {
	m := map[string]string{}
	for pair := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, found := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !found || k == "" {
			return nil, fmt.Errorf("%q is not key=value", strings.TrimSpace(pair))
		}
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("the value of %q is not percent-encoded correctly", k)
		}
		m[k] = dv
	}
	return m, nil
}
