package platform

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Options are what a caller may give a service's New: a tracer, a metrics registry and a
// logger. Every service takes them.
type Options struct {
	Tracer     trace.Tracer         // nil: no spans
	Prometheus *prometheus.Registry // nil: a new one (NewRegistry)
	Logger     *slog.Logger         // nil: the default logger
}

// WithDefaults fills in what is nil.
func (o Options) WithDefaults() Options {
	if o.Tracer == nil {
		o.Tracer = noop.NewTracerProvider().Tracer("")
	}
	if o.Prometheus == nil {
		o.Prometheus = NewRegistry()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
