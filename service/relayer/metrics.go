package relayer

import "github.com/prometheus/client_golang/prometheus"

// metrics are the relayer's own, beyond the HTTP and chain call metrics, the balance gate's
// (gate.NewMetrics) and the transaction manager's (txmgr.NewMetrics).
type metrics struct {
	rateLimited *prometheus.CounterVec
	reveals     *prometheus.CounterVec
	stage       *prometheus.HistogramVec
	gasUsed     prometheus.Histogram
}

func newMetrics(reg prometheus.Registerer) *metrics {
	const ns, sub = "vaultd", "relayer"
	m := &metrics{
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "rate_limited_total",
			Help: "Requests refused by a rate limit, by limit (ip, recipient, total)."}, []string{"limit"}),
		reveals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "reveals_total",
			Help: "Reveal requests by outcome code (SUCCESS or the error code)."}, []string{"outcome"}),
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "reveal_stage_duration_seconds",
			Help:    "Time spent in each stage of a reveal (checks, verify, simulate, send, receipt).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}, []string{"stage"}),
		gasUsed: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "reveal_gas_used",
			Help: "Gas used by mined reveal transactions.", Buckets: prometheus.LinearBuckets(250_000, 25_000, 12)}),
	}
	reg.MustRegister(m.rateLimited, m.reveals, m.stage, m.gasUsed)
	return m
}
