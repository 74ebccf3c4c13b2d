package platform

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.opentelemetry.io/otel/trace"
)

// Namespace prefixes every vaultd metric.
const Namespace = "vaultd"

// NewRegistry returns a Prometheus registry with the Go runtime and process collectors and the
// count of dropped log lines. Each service has its own, served at its /metrics.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), logLinesDropped)
	return reg
}

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "http", Name: "requests_total",
			Help: "HTTP requests served, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help:    "Time to serve an HTTP request, by route pattern, method and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method", "status"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// statusText caches the label text of every status code, so observing allocates nothing.
var statusText = func() (s [600]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

func (m *httpMetrics) observe(ctx context.Context, route, method string, status int, d time.Duration) {
	code := "other"
	if status >= 0 && status < len(statusText) {
		code = statusText[status]
	}
	m.requests.WithLabelValues(route, method, code).Inc()
	ObserveWithTrace(ctx, m.duration.WithLabelValues(route, method, code), d.Seconds())
}

// ObserveWithTrace observes v on o with, when ctx's span is sampled, its trace id as the
// observation's exemplar: served on /metrics in the OpenMetrics format (what Prometheus asks
// for), a dashboard goes from a slow bucket to a trace that fell in it.
func ObserveWithTrace(ctx context.Context, o prometheus.Observer, v float64) {
	if sc := trace.SpanContextFromContext(ctx); sc.IsSampled() {
		if eo, ok := o.(prometheus.ExemplarObserver); ok {
			eo.ObserveWithExemplar(v, prometheus.Labels{"trace_id": sc.TraceID().String()})
			return
		}
	}
	o.Observe(v)
}
