package edge

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Options are what a caller may give a service's New: a tracer provider, a metrics registry
// and a logger. Every service takes them.
type Options struct {
	Traces     trace.TracerProvider // nil: no spans
	Prometheus *prometheus.Registry // nil: a new one (NewRegistry)
	Logger     *slog.Logger         // nil: the default logger
}

// WithDefaults fills in what is nil.
func (o Options) WithDefaults() Options {
	if o.Traces == nil {
		o.Traces = noop.NewTracerProvider()
	}
	if o.Prometheus == nil {
		o.Prometheus = NewRegistry()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// TracerName names the tracer of vaultd's own spans (instrumentation libraries name theirs).
const TracerName = "github.com/seed018cc74c/vaultd"

// Tracer is the tracer of the service's own spans (after WithDefaults).
func (o Options) Tracer() trace.Tracer { return o.Traces.Tracer(TracerName) }
