package main

import (
	"context"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/otlp"
	"github.com/stdiotools/toolserver/server"
)

// tracingShutdown bounds the time spent sending the last spans on exit.
const tracingShutdown = 3 * time.Second

// startTracing returns the tracer the standard OpenTelemetry variables
// ask for, read through getenv, and the function that sends its last
// spans; a nil tracer when they ask for none. Variables that cannot be
// used are reported on the log and leave traces off: the tools work the
// same without them.
func startTracing(getenv func(string) string, log zerolog.Logger) (server.Tracer, func()) {
	cfg, ok, err := otlp.FromEnv(getenv)
	if err != nil {
		log.Warn().Err(err).Msg("traces are off: the OpenTelemetry settings cannot be used")
		return nil, func() {}
	}
	if !ok {
		return nil, func() {}
	}
	cfg.ScopeVersion = version()
	exp := otlp.New(cfg, nil, log)
	log.Info().Str("endpoint", cfg.Endpoint).Msg("exporting traces over OTLP")
	return exp, func() {
		ctx, cancel := context.WithTimeout(context.Background(), tracingShutdown)
		defer cancel()
		if err := exp.Shutdown(ctx); err != nil {
			log.Warn().Err(err).Msg("traces")
		}
	}
}
