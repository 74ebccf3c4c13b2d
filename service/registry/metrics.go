package registry

import "github.com/prometheus/client_golang/prometheus"

// metrics are the registry's own, beyond the HTTP and chain call metrics.
type metrics struct {
	tokens             prometheus.Gauge
	relayers           prometheus.Gauge
	storeWrites        prometheus.Counter
	storeWriteFailures prometheus.Counter
	storeReloads       prometheus.Counter
	rateLimited        prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		tokens: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "vaultd", Subsystem: "registry", Name: "tokens",
			Help: "Registered tokens, enabled or not.",
		}),
		relayers: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "vaultd", Subsystem: "registry", Name: "relayers",
			Help: "Relayers listed in GET /relayers.json.",
		}),
		storeWrites: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "vaultd", Subsystem: "registry", Name: "store_writes_total",
			Help: "Attempts to write the data file.",
		}),
		storeWriteFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "vaultd", Subsystem: "registry", Name: "store_write_failures_total",
			Help: "Writes of the data file that failed (the change was refused).",
		}),
		storeReloads: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "vaultd", Subsystem: "registry", Name: "store_reloads_total",
			Help: "Loads of every entry from DATABASE_URL: at each (re)connection, and after each write of another replica.",
		}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "vaultd", Subsystem: "registry", Name: "rate_limited_total",
			Help: "Requests answered 429 because their client IP exceeded RATE_LIMIT_PER_IP.",
		}),
	}
	reg.MustRegister(m.tokens, m.relayers, m.storeWrites, m.storeWriteFailures, m.storeReloads, m.rateLimited)
	return m
}
