// Package gate keeps a paying wallet from running dry: it knows the wallet's balance (polled,
// and refreshed after each mined transaction) and the cost reserved by transactions in flight,
// and it closes while balance − reserved is under the minimum, refusing new work with a 503.
// Each transition is logged once: one error-level ALERT line when it closes, one info line when
// it opens again. The relayer's operator wallet and the faucet's wallet each have one.
package gate

import (
	"context"
	"log/slog"
	"math"
	"math/big"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/chain"
	"github.com/seed018cc74c/vaultd/service/platform"
)

// Config says which wallet to watch and how to refuse.
type Config struct {
	Wallet  common.Address
	Name    string        // what the wallet is, for log lines ("operator", "faucet")
	Work    string        // what it pays for, for log lines ("reveals", "claims")
	Min     *big.Int      // wei
	Poll    time.Duration // balance poll
	Setting string        // the variable that sets Min, for the alert line (MIN_OPERATOR_BALANCE)
	Code    string        // the 503's code (OPERATOR_BALANCE_LOW)
	Message string        // the 503's message
}

// Metrics are the gate's gauges and counters.
type Metrics struct {
	Balance, Threshold, Open prometheus.Gauge
	TimeToEmpty              prometheus.Gauge
	Trips, Rejected          prometheus.Counter
}

// NewMetrics registers vaultd_<subsystem>_<balance>_ether, _<balance>_threshold_ether,
// _balance_gate_open, _balance_gate_trips_total and _balance_low_rejections_total on reg;
// balance names the wallet's balance ("operator_balance", "balance").
func NewMetrics(reg prometheus.Registerer, subsystem, balance string) *Metrics {
	const ns = "vaultd"
	m := &Metrics{
		Balance: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: balance + "_ether",
			Help: "The wallet's balance in native tokens, as last read."}),
		Threshold: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: balance + "_threshold_ether",
			Help: "The minimum balance in native tokens: below it (less the cost reserved by transactions in flight) new work is refused."}),
		TimeToEmpty: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: balance + "_time_to_empty_seconds",
			Help: "Seconds until the wallet is empty at the rate it was spent over the last hour (balance ÷ burn rate); +Inf while nothing was spent."}),
		Open: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "balance_gate_open",
			Help: "1 while the balance gate accepts new work, 0 while it answers 503."}),
		Trips: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: subsystem, Name: "balance_gate_trips_total",
			Help: "Times the balance gate closed."}),
		Rejected: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: subsystem, Name: "balance_low_rejections_total",
			Help: "Requests answered 503 because the balance gate was closed."}),
	}
	reg.MustRegister(m.Balance, m.Threshold, m.TimeToEmpty, m.Open, m.Trips, m.Rejected)
	m.Open.Set(1)
	m.TimeToEmpty.Set(math.Inf(1))
	return m
}

// Gate is one wallet's balance gate.
type Gate struct {
	client  *chain.Client
	cfg     Config
	metrics *Metrics
	log     *slog.Logger

	mu        sync.Mutex
	balance   *big.Int // nil until first read
	reserved  *big.Int
	open      bool
	reachable bool
	burn      burnRate
}

// New makes the gate; it is open until the first balance read says otherwise.
func New(client *chain.Client, cfg Config, m *Metrics, log *slog.Logger) *Gate {
	if log == nil {
		log = slog.Default()
	}
	m.Threshold.Set(WeiToEther(cfg.Min))
	return &Gate{client: client, cfg: cfg, metrics: m, log: log, reserved: new(big.Int), open: true}
}

// Run polls the balance until ctx is done: one chain call per poll.
func (g *Gate) Run(ctx context.Context) {
	t := time.NewTicker(g.cfg.Poll)
	defer t.Stop()
	for {
		g.Refresh(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Refresh reads the balance now.
func (g *Gate) Refresh(ctx context.Context) {
	bal, err := g.client.BalanceAt(ctx, g.cfg.Wallet)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reachable = err == nil
	if err != nil {
		return
	}
	g.balance = bal
	g.metrics.Balance.Set(WeiToEther(bal))
	g.metrics.TimeToEmpty.Set(g.burn.observe(time.Now(), bal))
	g.evaluate()
}

// Reserve sets aside the worst-case cost of a transaction sent; Release returns it.
func (g *Gate) Reserve(cost *big.Int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved.Add(g.reserved, cost)
	g.evaluate()
}

// Release returns what Reserve set aside.
func (g *Gate) Release(cost *big.Int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved.Sub(g.reserved, cost)
	g.evaluate()
}

// evaluate opens or closes the gate; callers hold g.mu.
func (g *Gate) evaluate() {
	if g.balance == nil {
		return
	}
	available := new(big.Int).Sub(g.balance, g.reserved)
	open := available.Cmp(g.cfg.Min) >= 0
	if open == g.open {
		return
	}
	g.open = open
	attrs := []any{"wallet", g.cfg.Wallet.Hex(), "balance", weiString(g.balance), "reserved", weiString(g.reserved), "threshold", weiString(g.cfg.Min)}
	if !open {
		g.metrics.Trips.Inc()
		g.log.Error("ALERT: "+g.cfg.Name+" balance below "+g.cfg.Setting+"; refusing new "+g.cfg.Work+" with 503 "+g.cfg.Code, attrs...)
	} else {
		g.log.Info(g.cfg.Name+" balance back above "+g.cfg.Setting+"; accepting "+g.cfg.Work+" again", attrs...)
	}
	g.metrics.Open.Set(b2f(open))
}

// Check refuses new work while the gate is closed.
func (g *Gate) Check() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open {
		return nil
	}
	g.metrics.Rejected.Inc()
	return &platform.Error{Status: http.StatusServiceUnavailable, Code: g.cfg.Code, Message: g.cfg.Message, RetryAfter: g.cfg.Poll}
}

// State is the gate as a health report shows it; balance is nil until the first read.
func (g *Gate) State() (balance *big.Int, open, reachable bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.balance != nil {
		balance = new(big.Int).Set(g.balance)
	}
	return balance, g.open, g.reachable
}

// WeiToEther converts wei to whole native tokens, for gauges.
func WeiToEther(wei *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(wei, big.NewInt(params.Ether)).Float64()
	return f
}

func weiString(wei *big.Int) string {
	return new(big.Rat).SetFrac(wei, big.NewInt(params.Ether)).FloatString(6) + " native"
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
