package edge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

// NewTracerProvider returns the service's tracer provider, configured as the OpenTelemetry
// specification's environment variables say (getenv reads them):
//   - OTEL_SERVICE_NAME names the service (default: service); the resource also carries
//     service.version (the build's module version or VCS revision) and service.instance.id
//     (Instance: one per process);
//   - OTEL_SDK_DISABLED=true records and exports nothing (spans still carry ids, so logs keep
//     their trace_id);
//   - OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG choose the sampler (default
//     parentbased_always_on); a request's traceparent is its parent only from TRUSTED_PROXIES,
//     or from anyone with TRUST_TRACEPARENT=true, and anyone else's request starts a trace of
//     its own, linked to the caller's (the edge's middleware);
//   - spans are exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT (or
//     OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, with the exporter's own OTEL_* settings;
//     without an exporter spans record nothing (they carry ids and the sampler's decision).
//
// Extra span processors (a test's in-memory exporter) may be passed in.
func NewTracerProvider(ctx context.Context, service string, getenv func(string) string, extra ...sdktrace.SpanProcessor) (TracerProvider, error) {
	name := service
	if n := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); n != "" {
		name = n
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		semconv.ServiceName(name), semconv.ServiceVersion(buildversion.String()), semconv.ServiceInstanceID(Instance())))
	if err != nil {
		return nil, err
	}
	disabled, err := boolSetting(getenv, "OTEL_SDK_DISABLED")
	if err != nil {
		return nil, err
	}
	sampler, err := samplerFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	if disabled {
		sampler = sdktrace.NeverSample()
	}
	otel.SetTextMapPropagator(propagation.TraceContext{})
	endpoint := tracesEndpoint(getenv)
	if (disabled || endpoint == "") && len(extra) == 0 {
		return &idTracerProvider{sampler: sampler}, nil
	}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res), sdktrace.WithSampler(sampler)}
	if !disabled && endpoint != "" {
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint))
		if err != nil {
			return nil, fmt.Errorf("the OTLP exporter: %w", err)
		}
		opts = append(opts, sdktrace.WithBatcher(exp))
	}
	for _, p := range extra {
		opts = append(opts, sdktrace.WithSpanProcessor(p))
	}
	return sdktrace.NewTracerProvider(opts...), nil
}

// TracerProvider is a service's tracer provider, flushed and shut down when the service stops.
type TracerProvider interface {
	trace.TracerProvider
	ForceFlush(context.Context) error
	Shutdown(context.Context) error
}

// tracesEndpoint is where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or
// OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces (the specification's rule); "" for nowhere.
func tracesEndpoint(getenv func(string) string) string {
	if e := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")); e != "" {
		return e
	}
	if e := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); e != "" {
		return strings.TrimSuffix(e, "/") + "/v1/traces"
	}
	return ""
}

func boolSetting(getenv func(string) string, name string) (bool, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s must be true or false, got %q", name, v)
	}
	return b, nil
}

// samplerFromEnv is the sampler OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name.
func samplerFromEnv(getenv func(string) string) (sdktrace.Sampler, error) {
	kind := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER")))
	if kind == "" {
		kind = "parentbased_always_on"
	}
	ratio := 1.0
	if arg := strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER_ARG")); arg != "" && strings.HasSuffix(kind, "traceidratio") {
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || r < 0 || r > 1 {
			return nil, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got %q", arg)
		}
		ratio = r
	}
	roots := map[string]sdktrace.Sampler{"always_on": sdktrace.AlwaysSample(), "always_off": sdktrace.NeverSample(), "traceidratio": sdktrace.TraceIDRatioBased(ratio)}
	base, parentBased := strings.CutPrefix(kind, "parentbased_")
	root, ok := roots[base]
	if !ok {
		return nil, fmt.Errorf("OTEL_TRACES_SAMPLER %q is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio", kind)
	}
	if parentBased {
		return sdktrace.ParentBased(root), nil
	}
	return root, nil
}

// NewLogger returns a JSON logger at level that adds trace_id and span_id from the context.
// Written to a LogWriter, a warning or an error is written out at once, with every line before
// it: what a failing process says last is not left in a buffer.
func NewLogger(w io.Writer, level slog.Level, service string) *slog.Logger {
	if w == nil {
		w = os.Stderr
	}
	lw, _ := w.(*LogWriter)
	if lw == nil { // a LogWriter takes concurrent writes; access lines are written beside slog's
		w = &syncWriter{w: w}
	}
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})
	return slog.New(traceHandler{h, lw, &accessEncoder{out: w}}).With("service", service)
}

type traceHandler struct {
	slog.Handler
	batched *LogWriter     // nil: written as they come
	access  *accessEncoder // nil: access lines go through slog (logAccess)
}

func (h traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	err := h.Handler.Handle(ctx, r)
	if h.batched != nil && r.Level >= slog.LevelWarn {
		_ = h.batched.Flush()
	}
	return err
}

func (h traceHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return traceHandler{h.Handler.WithAttrs(a), h.batched, h.access.with(a)}
}
func (h traceHandler) WithGroup(n string) slog.Handler {
	return traceHandler{h.Handler.WithGroup(n), h.batched, nil} // the access line's keys would be in the group
}
