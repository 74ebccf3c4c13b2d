package faucet

import "github.com/prometheus/client_golang/prometheus"

// metrics are the faucet's own, beyond the HTTP and chain call metrics, the balance gate's
// (gate.NewMetrics) and the transaction manager's (txmgr.NewMetrics).
type metrics struct {
	claims      *prometheus.CounterVec
	settled     *prometheus.CounterVec
	rateLimited *prometheus.CounterVec
	latency     prometheus.Histogram
	pending     prometheus.Gauge
	powWork     prometheus.Gauge
	powVerify   prometheus.Histogram
	powChecking prometheus.Gauge
	powRefused  *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	const ns, sub = "vaultd", "faucet"
	m := &metrics{
		claims: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "claims_total",
			Help: "Claim requests by outcome: ACCEPTED (recorded and sent) or the error code."}, []string{"outcome"}),
		settled: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "claims_settled_total",
			Help: "Claims whose transaction was mined (confirmed) or known dropped or reverted (failed)."}, []string{"status"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "rate_limited_total",
			Help: "Requests refused by a rate limit, by limit (ip, total: claims; challenge_ip: proof-of-work challenges; admin_ip: the admin routes)."}, []string{"limit"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "claim_duration_seconds",
			Help:    "Time from a claim's request to its transfer being mined.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15, 30, 60, 120, 300}}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "claims_pending",
			Help: "Claims recorded and not yet confirmed or failed, as this faucet follows them."}),
	}
	m.powWork = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "pow_work",
		Help: "The work (expected argon2id hashes) of the last proof-of-work challenge issued: FAUCET_POW_WORK at no demand, up to 16 times as much at the total limit."})
	m.powVerify = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "pow_verify_duration_seconds",
		Help: "Time the faucet spent checking a claim's proof of work (one argon2id hash).", Buckets: prometheus.ExponentialBuckets(0.001, 2, 12)})
	m.powChecking = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "pow_checks_running",
		Help: "Proof-of-work solutions being hashed now: at most FAUCET_POW_CHECKS, each holding FAUCET_POW_MEMORY_KIB."})
	m.powRefused = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "pow_refused_total",
		Help: "Claims refused at their proof of work, by reason: required, invalid, expired, stale (solved at a work below half of what is asked now), tried_out (the challenge checked 3 times already), in_flight (the challenge being checked for another request), busy (FAUCET_POW_CHECKS stayed taken for a second: 503)."}, []string{"reason"})
	for _, label := range powLabels { // every reason's series from 0, so that rates start at the first refusal
		m.powRefused.WithLabelValues(label)
	}
	reg.MustRegister(m.claims, m.settled, m.rateLimited, m.latency, m.pending, m.powWork, m.powVerify, m.powChecking, m.powRefused)
	return m
}
