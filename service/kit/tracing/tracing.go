// Package tracing holds what vaultd's spans share beyond the HTTP edge (service/edge):
// the instrumentation of calls (JSON-RPC, SQL, Redis) making spans only inside a traced
// operation, and how a span says that an operation was refused, and why.
package tracing

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// ChildrenOnly wraps tp for the instrumentation of calls (the chain's JSON-RPC, SQL, Redis):
// their spans are made inside a span (a request's, a background job's), never as the root of a
// trace of their own; a loop polling the chain every second would otherwise make a trace a second.
func ChildrenOnly(tp trace.TracerProvider) trace.TracerProvider { return childrenOnly{tp: tp} }

type childrenOnly struct {
	embedded.TracerProvider
	tp trace.TracerProvider
}

func (c childrenOnly) Tracer(name string, opts ...trace.TracerOption) trace.Tracer {
	return childOnlyTracer{t: c.tp.Tracer(name, opts...)}
}

type childOnlyTracer struct {
	embedded.Tracer
	t trace.Tracer
}

func (c childOnlyTracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx, trace.SpanFromContext(ctx) // a no-op span: nothing to hang this call on
	}
	return c.t.Start(ctx, name, opts...)
}

// Code is the attribute naming the error code an operation ended with (NULLIFIER_USED,
// INVALID_PROOF, …): on the span that decided it.
const Code = attribute.Key("vaultd.code")

// Refusal is an error as a service names it in its spans and metrics: its code, the message the
// caller is told, and whether it is a fault of the service (or of what it depends on) rather
// than the caller's.
type Refusal struct {
	Code, Message string
	Fault         bool
}

// EndStep ends the span of a step of a request; err, the step's error, named by name, makes it
// the span that decided the refusal (Refused).
func EndStep(span trace.Span, err error, name func(error) Refusal) {
	if err != nil {
		r := name(err)
		Refused(span, r.Code, r.Message, r.Fault)
	}
	span.End()
}

// Refused marks span as the one that decided a refusal: its code, an event "refused" with the
// reason, and, for a fault of the service (serverFault: a 5xx), an error status. A refusal of the
// caller's request (a 4xx) is not an error of the service: its status stays unset.
func Refused(span trace.Span, code, reason string, serverFault bool) {
	span.SetAttributes(Code.String(code))
	span.AddEvent("refused", trace.WithAttributes(Code.String(code), attribute.String("vaultd.reason", reason)))
	if serverFault {
		span.SetStatus(codes.Error, code)
	}
}
