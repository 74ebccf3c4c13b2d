package platform

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Namespace prefixes every vaultd metric.
const Namespace = "vaultd"

// NewRegistry returns a Prometheus registry with the Go runtime and process collectors. Each
// service has its own, served at its /metrics.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
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

func (m *httpMetrics) observe(route, method string, status int, d time.Duration) {
	code := "other"
	if status >= 0 && status < len(statusText) {
		code = statusText[status]
	}
	m.requests.WithLabelValues(route, method, code).Inc()
	m.duration.WithLabelValues(route, method, code).Observe(d.Seconds())
}

// ChainMetrics times calls to the chain's RPC and counts the failed ones, by call, and tells
// which of RPC_URL's endpoints is in use.
type ChainMetrics struct {
	Duration *prometheus.HistogramVec
	Errors   *prometheus.CounterVec
	Endpoint prometheus.Gauge
	Switches prometheus.Counter
}

// NewChainMetrics registers the chain call metrics on reg.
func NewChainMetrics(reg prometheus.Registerer) *ChainMetrics {
	m := &ChainMetrics{
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "chain", Name: "call_duration_seconds",
			Help:    "Duration of calls to the chain's JSON-RPC, by call.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"call"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "chain", Name: "call_errors_total",
			Help: "Calls to the chain's JSON-RPC that failed, by call.",
		}, []string{"call"}),
		Endpoint: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: Namespace, Subsystem: "chain", Name: "endpoint",
			Help: "Which of RPC_URL's endpoints is in use: 0 the first, 1 its first fallback, and so on.",
		}),
		Switches: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "chain", Name: "endpoint_switches_total",
			Help: "Times the endpoint in use changed: to a fallback when one failed, or back to the first.",
		}),
	}
	reg.MustRegister(m.Duration, m.Errors, m.Endpoint, m.Switches)
	return m
}

// Switched records that endpoint i (0: the first of RPC_URL) is now in use.
func (m *ChainMetrics) Switched(i int) {
	if m == nil {
		return
	}
	m.Endpoint.Set(float64(i))
	m.Switches.Inc()
}

// Observe records one call that started at start and ended with err.
func (m *ChainMetrics) Observe(call string, start time.Time, err error) {
	if m == nil {
		return
	}
	m.Duration.WithLabelValues(call).Observe(time.Since(start).Seconds())
	if err != nil {
		m.Errors.WithLabelValues(call).Inc()
	}
}
