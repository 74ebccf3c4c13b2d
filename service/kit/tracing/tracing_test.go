package tracing_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// A call's instrumentation makes a span inside an operation's span, and none on its own: a
// poll outside any traced operation would otherwise make a trace per call.
func TestChildrenOnly(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	calls := tracing.ChildrenOnly(tp).Tracer("calls")
	_, alone := calls.Start(context.Background(), "alone")
	alone.End()
	ctx, op := tp.Tracer("ops").Start(context.Background(), "operation")
	_, call := calls.Start(ctx, "call")
	call.End()
	op.End()
	ended := rec.Ended()
	if len(ended) != 2 || ended[0].Name() != "call" || ended[0].Parent().SpanID() != op.SpanContext().SpanID() {
		t.Fatalf("spans %v; want the call under the operation, and nothing for the call made alone", ended)
	}
}

// Refused marks the deciding span: its code, a "refused" event with the reason, and an error
// status only for a fault of the service.
func TestRefused(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("t")
	for _, fault := range []bool{false, true} {
		_, span := tracer.Start(context.Background(), "check")
		tracing.Refused(span, "NULLIFIER_USED", "already spent", fault)
		span.End()
	}
	ended := rec.Ended()
	for i, s := range ended {
		code := ""
		for _, a := range s.Attributes() {
			if a.Key == tracing.Code {
				code = a.Value.Emit()
			}
		}
		wantStatus := codes.Unset
		if i == 1 {
			wantStatus = codes.Error
		}
		if code != "NULLIFIER_USED" || len(s.Events()) != 1 || s.Events()[0].Name != "refused" || s.Status().Code != wantStatus {
			t.Errorf("span %d: code %q, events %v, status %v", i, code, s.Events(), s.Status())
		}
	}
}
