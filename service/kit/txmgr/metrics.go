package txmgr

import "github.com/prometheus/client_golang/prometheus"

// PromMetrics are the manager's Prometheus metrics, named under one service's subsystem.
type PromMetrics struct {
	nonce        prometheus.Gauge
	inFlight     prometheus.Gauge
	replacements prometheus.Counter
	rebroadcasts prometheus.Counter
	oldest       prometheus.Gauge
}

// NewMetrics registers vaultd_<subsystem>_next_nonce, _transactions_in_flight,
// _transaction_replacements_total, _transaction_rebroadcasts_total and
// _oldest_transaction_pending_blocks on reg.
func NewMetrics(reg prometheus.Registerer, subsystem string) *PromMetrics {
	const ns = "vaultd"
	m := &PromMetrics{
		nonce: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "next_nonce",
			Help: "The nonce the wallet's next transaction will use."}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "transactions_in_flight",
			Help: "Transactions sent and not yet mined."}),
		replacements: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: subsystem, Name: "transaction_replacements_total",
			Help: "Transactions re-sent with higher fees because they were not mined in time."}),
		rebroadcasts: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: subsystem, Name: "transaction_rebroadcasts_total",
			Help: "Transactions sent again as they were (the same bytes) because the node no longer had them, or never had them (a send whose answer was lost)."}),
		oldest: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "oldest_transaction_pending_blocks",
			Help: "Blocks mined since the oldest transaction in flight was first sent (replacements keep its age); 0 with none in flight."}),
	}
	reg.MustRegister(m.nonce, m.inFlight, m.replacements, m.rebroadcasts, m.oldest)
	return m
}

func (m *PromMetrics) NextNonce(n uint64) { m.nonce.Set(float64(n)) }
func (m *PromMetrics) InFlight(n int)     { m.inFlight.Set(float64(n)) }
func (m *PromMetrics) Replaced()          { m.replacements.Inc() }
func (m *PromMetrics) Rebroadcast()       { m.rebroadcasts.Inc() }
func (m *PromMetrics) OldestPending(blocks uint64) {
	m.oldest.Set(float64(blocks))
}
