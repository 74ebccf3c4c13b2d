package edge

import (
	"context"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
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
	series   sync.Map // seriesKey → *httpSeries: each series' children looked up once
}

var durationBuckets = [...]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// exemplarEvery is how often at most a bucket of the request latency histogram takes a new
// exemplar. Prometheus keeps a bucket's latest one and scrapes every 15 s or so: a bucket that
// had a sampled request since the last scrape still shows one, while a busy route does not
// make an exemplar (five allocations, the time read) for each of its thousands of requests.
const exemplarEvery = time.Second

type seriesKey struct {
	route, method string
	status        int
}

// httpSeries is one label set's counter and histogram, bound once.
type httpSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
	// exemplified is when each bucket (and the +Inf one) last took an exemplar, in Unix nanoseconds.
	exemplified [len(durationBuckets) + 1]atomic.Int64
}

// observe observes d, with its trace id as the exemplar when ctx's span is sampled and its
// bucket has not taken one in the exemplarEvery before now.
func (s *httpSeries) observe(ctx context.Context, now time.Time, d time.Duration) {
	v := d.Seconds()
	if sc := trace.SpanContextFromContext(ctx); sc.IsSampled() {
		last := &s.exemplified[sort.SearchFloat64s(durationBuckets[:], v)]
		now, then := now.UnixNano(), last.Load()
		if now-then >= int64(exemplarEvery) && last.CompareAndSwap(then, now) {
			ObserveWithTrace(ctx, s.duration, v)
			return
		}
	}
	s.duration.Observe(v)
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
			Buckets: durationBuckets[:],
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

// observe counts a request answered at end after d, and times it.
func (m *httpMetrics) observe(ctx context.Context, route, method string, status int, end time.Time, d time.Duration) {
	key := seriesKey{route, method, status}
	s, ok := m.series.Load(key)
	if !ok {
		code := "other"
		if status >= 0 && status < len(statusText) {
			code = statusText[status]
		}
		// Routes are patterns and methods the router's: the label sets stay few.
		s, _ = m.series.LoadOrStore(key, &httpSeries{requests: m.requests.WithLabelValues(route, method, code), duration: m.duration.WithLabelValues(route, method, code)})
	}
	series := s.(*httpSeries)
	series.requests.Inc()
	series.observe(ctx, end, d)
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
