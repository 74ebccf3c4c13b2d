package edge

import (
	"context"
	"encoding/binary"
	"math/rand/v2"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// idTracerProvider is the tracer provider of a service whose spans go nowhere (no exporter, no
// span processor): its spans record nothing, yet each has ids and the sampler's decision, so
// that logs keep their trace_id, responses their traceresponse, exemplars their trace id and
// outgoing calls their traceparent. The SDK would record every attribute and event of every
// span only to drop it when the span ends.
type idTracerProvider struct {
	embedded.TracerProvider
	sampler sdktrace.Sampler
}

func (p *idTracerProvider) Tracer(string, ...trace.TracerOption) trace.Tracer {
	return idTracer{sampler: p.sampler}
}

// ForceFlush and Shutdown have nothing to flush.
func (p *idTracerProvider) ForceFlush(context.Context) error { return nil }
func (p *idTracerProvider) Shutdown(context.Context) error   { return nil }

type idTracer struct {
	embedded.Tracer
	sampler sdktrace.Sampler
}

func (t idTracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	cfg := trace.NewSpanStartConfig(opts...)
	parent := trace.SpanContextFromContext(ctx)
	if cfg.NewRoot() {
		parent = trace.SpanContext{}
		ctx = trace.ContextWithSpanContext(ctx, parent)
	}
	scc := trace.SpanContextConfig{TraceID: parent.TraceID(), SpanID: newSpanID(), TraceState: parent.TraceState()}
	if !scc.TraceID.IsValid() {
		scc.TraceID = newTraceID()
	}
	decision := t.sampler.ShouldSample(sdktrace.SamplingParameters{
		ParentContext: ctx, TraceID: scc.TraceID, Name: name, Kind: cfg.SpanKind(),
		Attributes: cfg.Attributes(), Links: cfg.Links(),
	})
	scc.TraceState = decision.Tracestate
	scc.TraceFlags = parent.TraceFlags() &^ trace.FlagsSampled
	if decision.Decision == sdktrace.RecordAndSample {
		scc.TraceFlags |= trace.FlagsSampled
	}
	ctx = trace.ContextWithSpanContext(ctx, trace.NewSpanContext(scc))
	return ctx, trace.SpanFromContext(ctx)
}

// Ids as the SDK makes them: math/rand/v2's generator, which the runtime seeds at random.
func newTraceID() (id trace.TraceID) {
	for !id.IsValid() {
		binary.BigEndian.PutUint64(id[:8], rand.Uint64())
		binary.BigEndian.PutUint64(id[8:], rand.Uint64())
	}
	return id
}

func newSpanID() (id trace.SpanID) {
	for !id.IsValid() {
		binary.BigEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}
