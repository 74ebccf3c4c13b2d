package chain

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// Metrics times calls to the chain's RPC and counts the failed ones, by call, and tells
// which of RPC_URL's endpoints is in use; with a Tracer, each JSON-RPC request sent to an http(s)
// endpoint is also a client span (one per endpoint tried).
type Metrics struct {
	Duration *prometheus.HistogramVec
	Errors   *prometheus.CounterVec
	Endpoint prometheus.Gauge
	Switches prometheus.Counter
	// Tracer makes the calls' spans (rpc.system jsonrpc, rpc.method, vaultd.rpc.endpoint: the
	// endpoint's position, never its URL); give it tracing.ChildrenOnly's, so that a call made
	// outside any traced operation makes none. nil: no spans.
	Tracer trace.Tracer
}

// NewMetrics registers the chain call metrics on reg (vaultd_chain_*).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "vaultd", Subsystem: "chain", Name: "call_duration_seconds",
			Help:    "Duration of calls to the chain's JSON-RPC, by call.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"call"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "vaultd", Subsystem: "chain", Name: "call_errors_total",
			Help: "Calls to the chain's JSON-RPC that failed, by call: no answer, or an error the node answered; a revert (the contract's refusal) is not one.",
		}, []string{"call"}),
		Endpoint: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "vaultd", Subsystem: "chain", Name: "endpoint",
			Help: "Which of RPC_URL's endpoints is in use: 0 the first, 1 its first fallback, and so on.",
		}),
		Switches: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "vaultd", Subsystem: "chain", Name: "endpoint_switches_total",
			Help: "Times the endpoint in use changed: to a fallback when one failed, or back to the first.",
		}),
	}
	reg.MustRegister(m.Duration, m.Errors, m.Endpoint, m.Switches)
	return m
}

// Switched records that endpoint i (0: the first of RPC_URL) is now in use.
func (m *Metrics) Switched(i int) {
	if m == nil {
		return
	}
	m.Endpoint.Set(float64(i))
	m.Switches.Inc()
}

// Observe records one call that started at start and ended with err.
func (m *Metrics) Observe(call string, start time.Time, err error) {
	if m == nil {
		return
	}
	m.Duration.WithLabelValues(call).Observe(time.Since(start).Seconds())
	if err != nil {
		m.Errors.WithLabelValues(call).Inc()
	}
}

// Traced gives m a Tracer of tp's that makes spans only inside a traced operation
// (tracing.ChildrenOnly), and returns m.
func (m *Metrics) Traced(tp trace.TracerProvider) *Metrics {
	m.Tracer = tracing.ChildrenOnly(tp).Tracer("github.com/seed018cc74c/vaultd/service/kit/chain")
	return m
}
