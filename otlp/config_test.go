package otlp

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		ok      bool
		want    Config
		wantErr string
	}{
		{name: "nothing set means no traces", env: map[string]string{}},
		{name: "the general endpoint gets /v1/traces",
			env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://localhost:4318/"},
			ok:  true, want: Config{Endpoint: "http://localhost:4318/v1/traces"}},
		{name: "the path goes before a query",
			env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c/base?tenant=a"},
			ok:  true, want: Config{Endpoint: "https://c/base/v1/traces?tenant=a"}},
		{name: "the traces endpoint is used as is and wins",
			env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://b/custom"},
			ok:  true, want: Config{Endpoint: "https://b/custom"}},
		{name: "headers, timeout, service name and resource",
			env: map[string]string{
				"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
				"OTEL_EXPORTER_OTLP_HEADERS":  "api-key=a%20b, x=1",
				"OTEL_EXPORTER_OTLP_TIMEOUT":  "2500",
				"OTEL_RESOURCE_ATTRIBUTES":    "service.name=ignored,team=tools",
				"OTEL_SERVICE_NAME":           "ts-prod",
				"OTEL_BSP_SCHEDULE_DELAY":     "200",
				"OTEL_BSP_MAX_QUEUE_SIZE":     "100",
			},
			ok: true, want: Config{Endpoint: "http://c:4318/v1/traces", Headers: map[string]string{"api-key": "a b", "x": "1"},
				Timeout: 2500 * time.Millisecond, Resource: map[string]string{"service.name": "ts-prod", "team": "tools"},
				BatchDelay: 200 * time.Millisecond, QueueSize: 100}},
		{name: "OTEL_SDK_DISABLED turns traces off",
			env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "TRUE"}},
		{name: "OTEL_TRACES_EXPORTER=none turns traces off",
			env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}},
		{name: "another exporter is refused",
			env:     map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "zipkin"},
			wantErr: "OTEL_TRACES_EXPORTER"},
		{name: "grpc is refused, naming the variable",
			env:     map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"},
			wantErr: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=\"grpc\": only http/protobuf"},
		{name: "an endpoint that is not a URL",
			env:     map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "localhost:4318"},
			wantErr: "OTEL_EXPORTER_OTLP_ENDPOINT"},
		{name: "a header without =",
			env:     map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_HEADERS": "token"},
			wantErr: "OTEL_EXPORTER_OTLP_HEADERS: \"token\" is not key=value"},
		{name: "a timeout that is not milliseconds",
			env:     map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_TIMEOUT": "10s"},
			wantErr: "OTEL_EXPORTER_OTLP_TIMEOUT"},
		{name: "a queue size of zero",
			env:     map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_BSP_MAX_QUEUE_SIZE": "0"},
			wantErr: "OTEL_BSP_MAX_QUEUE_SIZE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, ok, err := FromEnv(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || ok != tt.ok {
				t.Fatalf("ok %v err %v, want ok %v", ok, err, tt.ok)
			}
			if !reflect.DeepEqual(cfg, tt.want) {
				t.Errorf("config\n%+v\nwant\n%+v", cfg, tt.want)
			}
		})
	}
}
