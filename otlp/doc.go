// Package otlp exports the tool calls of a toolserver as OpenTelemetry
// spans over OTLP/HTTP. An [Exporter] is a server.Tracer: each answered
// call becomes a span of kind SERVER named "tools/call <tool>", with a
// child span for each stage it went through (parse, wait, validate,
// execute), and joins the client's trace when the request carried a W3C
// traceparent in params._meta.
//
// Traces are off unless the standard OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) variable is set; [FromEnv] reads it
// and the other standard variables. With traces off the server has no
// Tracer, records nothing and opens no connection.
//
// The request body is protobuf (the OTLP default, http/protobuf), written
// by this package without the protobuf runtime so that a server that does
// not trace does not pay for it at start-up; the tests decode it with the
// generated OTLP types.
package otlp
