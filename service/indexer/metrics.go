package indexer

import "github.com/prometheus/client_golang/prometheus"

// metrics are the indexer's own, beyond the HTTP and chain call metrics.
type metrics struct {
	indexed     prometheus.Gauge
	head        prometheus.Gauge
	lag         prometheus.Gauge
	events      *prometheus.CounterVec
	reorgs      prometheus.Counter
	rolledBack  prometheus.Counter
	receiptsLag prometheus.Counter
	rateLimited *prometheus.CounterVec
	streams     prometheus.Gauge
	query       prometheus.Histogram
	writer      prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) *metrics {
	const ns, sub = "vaultd", "indexer"
	m := &metrics{
		indexed: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "indexed_block",
			Help: "The newest block indexed."}),
		head: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "head_block",
			Help: "The chain's head as last read."}),
		lag: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "lag_blocks",
			Help: "Blocks between the head and the newest block indexed (CONFIRMATIONS included)."}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "events_total",
			Help: "Events indexed, by event name (rolled-back ones included)."}, []string{"event"}),
		reorgs: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "reorgs_total",
			Help: "Reorgs the indexer rolled back."}),
		rolledBack: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "rolled_back_events_total",
			Help: "Events removed because a reorg orphaned their block."}),
		receiptsLag: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "receipts_lag_total",
			Help: "Times the node had a block's header but not its receipts (a lagging receipt index): waited for, not a reorg."}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "rate_limited_total",
			Help: "Requests refused for a limit: ip (RATE_LIMIT_PER_IP, 429), streams_per_ip (STREAMS_PER_IP, 429), streams (MAX_STREAMS, 503)."}, []string{"limit"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "streams",
			Help: "Event streams open now."}),
		query: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "query_duration_seconds",
			Help:    "Time to answer GET /api/indexer from the store.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .02, .05, .1, .25, .5, 1}}),
		writer: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "writer",
			Help: "1 while this indexer follows the chain and writes; 0 while it reads what the writer of a shared Postgres stores."}),
	}
	reg.MustRegister(m.indexed, m.head, m.lag, m.events, m.reorgs, m.rolledBack, m.receiptsLag, m.rateLimited, m.streams, m.query, m.writer)
	return m
}
