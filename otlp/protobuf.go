package otlp

import (
	"encoding/binary"
	"time"
)

// This file writes an ExportTraceServiceRequest in the protobuf wire
// format, by hand: the few messages a span needs do not justify the
// protobuf runtime and the generated OTLP types in every start of the
// server. The field numbers are those of opentelemetry/proto/trace/v1 and
// common/v1; exporter_test.go decodes the output with the generated types.

// Wire types.
const (
	wireVarint = 0
	wireI64    = 1
	wireBytes  = 2
	wireI32    = 5
)

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendBytesField(b []byte, field int, v []byte) []byte {
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendStringField(b []byte, field int, v string) []byte {
	if v == "" {
		return b
	}
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendVarintField(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendUvarint(appendTag(b, field, wireVarint), v)
}

func appendFixed64Field(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(appendTag(b, field, wireI64), v)
}

// appendMessage appends a length-delimited message that body writes.
func appendMessage(b []byte, field int, body func([]byte) []byte) []byte {
	return appendBytesField(b, field, body(nil))
}

// Span kinds and status codes of trace/v1.
const (
	kindInternal = 1
	kindServer   = 2

	statusError = 2
)

// attr is one attribute: a key and a string, integer or boolean value.
type attr struct {
	key  string
	kind byte // 's', 'i' or 'b'
	s    string
	i    int64
}

func stringAttr(k, v string) attr { return attr{key: k, kind: 's', s: v} }
func intAttr(k string, v int64) attr {
	return attr{key: k, kind: 'i', i: v}
}
func boolAttr(k string, v bool) attr {
	a := attr{key: k, kind: 'b'}
	if v {
		a.i = 1
	}
	return a
}

// appendKeyValue appends a common/v1 KeyValue as field.
func appendKeyValue(b []byte, field int, a attr) []byte {
	return appendMessage(b, field, func(b []byte) []byte {
		b = appendStringField(b, 1, a.key)
		return appendMessage(b, 2, func(b []byte) []byte { // AnyValue
			switch a.kind {
			case 's':
				// Written even when empty: an empty string is a value.
				b = appendTag(b, 1, wireBytes)
				b = binary.AppendUvarint(b, uint64(len(a.s)))
				return append(b, a.s...)
			case 'b':
				return binary.AppendUvarint(appendTag(b, 2, wireVarint), uint64(a.i))
			default:
				return binary.AppendUvarint(appendTag(b, 3, wireVarint), uint64(a.i))
			}
		})
	})
}

// span is one span, ready to encode.
type span struct {
	traceID    [16]byte
	spanID     [8]byte
	parentID   [8]byte // zero for a root span
	traceState string
	name       string
	kind       int
	start, end time.Time
	attrs      []attr
	errMsg     string // the status is ERROR when set
	failed     bool
	sampled    bool
	// remoteParent is set when the parent came from the client's
	// traceparent rather than from this process.
	remoteParent bool
}

// unixNano is t in nanoseconds since 1970, 0 for the zero time.
func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	n := t.UnixNano()
	if n < 0 {
		return 0
	}
	return uint64(n)
}

// appendSpan appends a trace/v1 Span as field.
func appendSpan(b []byte, field int, s *span) []byte {
	return appendMessage(b, field, func(b []byte) []byte {
		b = appendBytesField(b, 1, s.traceID[:])
		b = appendBytesField(b, 2, s.spanID[:])
		b = appendStringField(b, 3, s.traceState)
		if s.parentID != ([8]byte{}) {
			b = appendBytesField(b, 4, s.parentID[:])
		}
		b = appendStringField(b, 5, s.name)
		b = appendVarintField(b, 6, uint64(s.kind))
		b = appendFixed64Field(b, 7, unixNano(s.start))
		b = appendFixed64Field(b, 8, unixNano(s.end))
		for _, a := range s.attrs {
			b = appendKeyValue(b, 9, a)
		}
		if s.failed {
			b = appendMessage(b, 15, func(b []byte) []byte { // Status
				b = appendStringField(b, 2, s.errMsg)
				return appendVarintField(b, 3, statusError)
			})
		}
		// flags: the W3C trace flags in the low byte (sampled), bit 8
		// saying that bit 9 is known, bit 9 that the parent is remote.
		flags := uint32(0x100)
		if s.sampled {
			flags |= 1
		}
		if s.remoteParent {
			flags |= 0x200
		}
		b = appendTag(b, 16, wireI32)
		return binary.LittleEndian.AppendUint32(b, flags)
	})
}
