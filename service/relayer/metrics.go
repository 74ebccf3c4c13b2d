package relayer

import "github.com/prometheus/client_golang/prometheus"

// metrics are the relayer's own, beyond the HTTP and chain call metrics.
type metrics struct {
	balance      prometheus.Gauge
	threshold    prometheus.Gauge
	gateOpen     prometheus.Gauge
	gateTrips    prometheus.Counter
	rejected503  prometheus.Counter
	rateLimited  *prometheus.CounterVec
	reveals      *prometheus.CounterVec
	stage        *prometheus.HistogramVec
	gasUsed      prometheus.Histogram
	nonce        prometheus.Gauge
	inFlight     prometheus.Gauge
	replacements prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	const ns, sub = "vaultd", "relayer"
	m := &metrics{
		balance: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "operator_balance_ether",
			Help: "Operator wallet balance in native tokens, as last read."}),
		threshold: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "operator_balance_threshold_ether",
			Help: "MIN_OPERATOR_BALANCE in native tokens: below it (less reserved gas) reveals are refused."}),
		gateOpen: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "balance_gate_open",
			Help: "1 while the balance gate accepts reveals, 0 while it answers 503."}),
		gateTrips: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "balance_gate_trips_total",
			Help: "Times the balance gate closed."}),
		rejected503: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "balance_low_rejections_total",
			Help: "Requests answered 503 OPERATOR_BALANCE_LOW."}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "rate_limited_total",
			Help: "Requests refused by a rate limit, by limit (ip, recipient, total)."}, []string{"limit"}),
		reveals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "reveals_total",
			Help: "Reveal requests by outcome code (SUCCESS or the error code)."}, []string{"outcome"}),
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "reveal_stage_duration_seconds",
			Help:    "Time spent in each stage of a reveal (checks, verify, simulate, send, receipt).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}, []string{"stage"}),
		gasUsed: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "reveal_gas_used",
			Help: "Gas used by mined reveal transactions.", Buckets: prometheus.LinearBuckets(250_000, 25_000, 12)}),
		nonce: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "next_nonce",
			Help: "The nonce the next transaction will use."}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "transactions_in_flight",
			Help: "Transactions sent and not yet mined."}),
		replacements: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "transaction_replacements_total",
			Help: "Transactions re-sent with higher fees because they were not mined in time."}),
	}
	reg.MustRegister(m.balance, m.threshold, m.gateOpen, m.gateTrips, m.rejected503, m.rateLimited, m.reveals, m.stage,
		m.gasUsed, m.nonce, m.inFlight, m.replacements)
	m.gateOpen.Set(1)
	return m
}
