package relayer

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// metrics are the relayer's own, beyond the HTTP and chain call metrics, the balance gate's
// (gate.NewMetrics) and the transaction manager's (txmgr.NewMetrics).
type metrics struct {
	rateLimited *prometheus.CounterVec
	reveals     *prometheus.CounterVec
	stage       *prometheus.HistogramVec
	gasUsed     prometheus.Histogram
	leaseEpoch  prometheus.Gauge
	feesEarned  *prometheus.CounterVec
	funded      *prometheus.CounterVec
	debited     *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	const ns, sub = "vaultd", "relayer"
	m := &metrics{
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "rate_limited_total",
			Help: "Requests refused by a rate limit, by limit (ip, recipient, total; sponsor: RATE_LIMIT_PER_SPONSOR; admin_ip: the admin routes)."}, []string{"limit"}),
		reveals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "reveals_total",
			Help: "Reveal requests by outcome code (SUCCESS or the error code)."}, []string{"outcome"}),
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "reveal_stage_duration_seconds",
			Help:    "Time spent in each stage of a reveal (checks, verify, simulate, send, receipt).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}, []string{"stage"}),
		gasUsed: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "reveal_gas_used",
			Help: "Gas used by mined reveal transactions.", Buckets: prometheus.LinearBuckets(250_000, 25_000, 12)}),
		leaseEpoch: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "operator_lease_epoch",
			Help: "The fencing epoch of this replica's lease of its operator key (OPERATOR_PRIVATE_KEYS): it grows each time the key changes hands; 0 with one OPERATOR_PRIVATE_KEY."}),
	}
	m.feesEarned = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "fees_earned_total",
		Help: "Fees paid to the relayer's receiver by mined fee-paying reveals, in the token's base units, by token (an address of RELAYER_TOKEN_PRICES)."}, []string{"token"})
	m.funded = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "reveals_funded_total",
		Help: "Reveals mined, by who paid for their gas: treasury (the operator's wallet, nothing back), fee (a fee out of the revealed tokens) or sponsor (a sponsor's balance)."}, []string{"funding"})
	for _, f := range []string{funding.Treasury, funding.Fee, funding.Sponsor} {
		m.funded.WithLabelValues(f) // exported at 0 before the first
	}
	m.debited = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "sponsor_debited_ether_total",
		Help: "Native tokens debited from sponsors for their mined reveals (gas used × effective price), by sponsor id, as this replica settled them (sum the replicas)."}, []string{"sponsor"})
	reg.MustRegister(m.rateLimited, m.reveals, m.stage, m.gasUsed, m.leaseEpoch, m.feesEarned, m.funded, m.debited)
	return m
}

// registerOperator exports the wallet this replica pays from (an info metric, for joining each
// replica's balance and alerts to its wallet) and whether it may send from it now.
func registerOperator(reg prometheus.Registerer, r *Relayer, wallet string) {
	info := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: "relayer", Name: "operator_info",
		Help: "1, labelled with the operator wallet this replica pays from (one per replica; with OPERATOR_PRIVATE_KEYS, the key it leased)."}, []string{"wallet"})
	info.WithLabelValues(wallet).Set(1)
	reg.MustRegister(info)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: "relayer", Name: "operator_lease_held",
		Help: "1 while this replica may send from its operator key (always with one OPERATOR_PRIVATE_KEY; while its lease is held and renewed with OPERATOR_PRIVATE_KEYS), 0 once it may not."},
		func() float64 {
			if r.holdsKey() {
				return 1
			}
			return 0
		}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: "relayer", Name: "runway_reveals",
		Help: "Reveals the operator wallet pays for at the chain's fees now: its balance above MIN_OPERATOR_BALANCE, less what reveals in flight may cost, over the gas of one reveal at its worst times the fee per gas as last read (GET /status's runway, computed at each balance poll). NaN before the first read."},
		r.runwayReveals))
}

// sponsorBalances exports each sponsor's balance (credited − debited) as the database says at
// the scrape: every replica exports the same figures (take the max across them). Revoked
// sponsors are left out. One series per sponsor: operators create them, on the admin routes.
type sponsorBalances struct {
	accounts *funding.Accounts
	log      *slog.Logger
	desc     *prometheus.Desc
}

func newSponsorBalances(accounts *funding.Accounts, log *slog.Logger) *sponsorBalances {
	return &sponsorBalances{accounts: accounts, log: log, desc: prometheus.NewDesc("vaultd_relayer_sponsor_balance_ether",
		"A sponsor's balance in native tokens (credited less debited; its reveals in flight hold part of it), by sponsor id, read from DATABASE_URL at the scrape.", []string{"sponsor"}, nil)}
}

func (b *sponsorBalances) Describe(ch chan<- *prometheus.Desc) { ch <- b.desc }

func (b *sponsorBalances) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	list, err := b.accounts.List(ctx)
	if err != nil {
		b.log.Warn("could not read the sponsors' balances for the metrics", "err", err)
		return
	}
	for _, sp := range list {
		if !sp.Revoked() {
			ch <- prometheus.MustNewConstMetric(b.desc, prometheus.GaugeValue, gate.WeiToEther(sp.Balance()), sp.ID)
		}
	}
}
