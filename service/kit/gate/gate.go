// Package gate keeps a paying wallet from running dry: it knows the wallet's balance (polled,
// and refreshed after each mined transaction) and the cost reserved by transactions in flight,
// and it closes while balance − reserved is under the minimum, refusing new work with a 503.
// Each transition is logged once: one error-level ALERT line when it closes, one info line when
// it opens again. It also keeps the wallet's spend budget (budget.go): what the wallet paid in
// the last window plus what is reserved must stay under a limit, or new work is refused with a
// 503 of its own. The relayer's operator wallet and the faucet's wallet each have one.
package gate

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/inorder"
)

// Config says which wallet to watch and how to refuse.
type Config struct {
	Wallet  common.Address
	Name    string        // what the wallet is, for log lines ("operator", "faucet")
	Work    string        // what it pays for, for log lines ("reveals", "claims")
	Min     *big.Int      // wei
	Poll    time.Duration // balance poll
	Setting string        // the variable that sets Min, for the alert line (MIN_OPERATOR_BALANCE)

	Budget        Budget // the spend budget; a nil Limit is none
	BudgetSetting string // the variable that sets it (OPERATOR_SPEND_LIMIT)
	// Shared, when set, is where the budget is counted across replicas (shared.go); nil: in
	// this process.
	Shared Shared
	// OnChange, when set, is told each transition (in a goroutine of its own: the gate does not
	// wait): "wallet.balance_low", "wallet.balance_ok", "wallet.spend_limit_reached",
	// "wallet.spend_limit_ok". A service records them as webhook events.
	OnChange func(event string)
}

// Refusal is why a gate refused to pay.
type Refusal int

const (
	BalanceLow    Refusal = iota + 1 // the wallet's balance is under Config.Min
	BudgetSpent                      // the spend budget is reached for now
	BudgetUnknown                    // the budget shared with other replicas cannot be read: refused, not guessed
)

// ClosedError is a gate's refusal: what each service answers is its own (its table maps
// Refusal to a status and a code); RetryAfter is when asking again makes sense.
type ClosedError struct {
	Refusal    Refusal
	Message    string // in words, fit for the caller
	RetryAfter time.Duration
	Cause      error // BudgetUnknown: why the budget could not be read
}

func (e *ClosedError) Error() string { return e.Message }
func (e *ClosedError) Unwrap() error { return e.Cause }

// Metrics are the gate's gauges and counters.
type Metrics struct {
	Balance, Threshold, Open prometheus.Gauge
	TimeToEmpty              prometheus.Gauge
	Trips, Rejected          prometheus.Counter

	Spent, SpendLimit, SpendOpen prometheus.Gauge
	SpendRejected                prometheus.Counter
}

// NewMetrics registers vaultd_<subsystem>_<balance>_ether, _<balance>_threshold_ether,
// _balance_gate_open, _balance_gate_trips_total, _balance_low_rejections_total and the spend
// budget's _spend_window_ether, _spend_limit_ether, _spend_limit_open and
// _spend_limit_rejections_total on reg; balance names the wallet's balance ("operator_balance",
// "balance").
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
		Spent: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "spend_window_ether",
			Help: "Native tokens the wallet paid for transactions mined within the spend limit's window, plus the worst-case cost reserved by those in flight."}),
		SpendLimit: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "spend_limit_ether",
			Help: "The spend limit in native tokens per window; new work is refused while the window's spending reaches it. 0: no limit."}),
		SpendOpen: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: subsystem, Name: "spend_limit_open",
			Help: "1 while the spend budget accepts new work, 0 while it answers 503 (the limit is reached)."}),
		SpendRejected: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: subsystem, Name: "spend_limit_rejections_total",
			Help: "Requests answered 503 because the spend limit was reached."}),
	}
	reg.MustRegister(m.Balance, m.Threshold, m.TimeToEmpty, m.Open, m.Trips, m.Rejected, m.Spent, m.SpendLimit, m.SpendOpen, m.SpendRejected)
	m.Open.Set(1)
	m.SpendOpen.Set(1)
	m.TimeToEmpty.Set(math.Inf(1))
	return m
}

// Chain is what the gate reads of the chain: the wallet's balance (Refresh, Run) and its nonces
// (Wallet). *chain.Client is one.
type Chain interface {
	BalanceAt(ctx context.Context, addr common.Address) (*big.Int, error)
	NonceAt(ctx context.Context, addr common.Address) (uint64, error)
	PendingNonceAt(ctx context.Context, addr common.Address) (uint64, error)
}

// Gate is one wallet's balance gate.
type Gate struct {
	client  Chain
	cfg     Config
	metrics *Metrics
	log     *slog.Logger
	told    inorder.Queue // the transitions given to OnChange, in order

	// sharing is held by the one writer to the shared budget at a time (flush), so that this
	// process's changes reach it in order; never taken while mu is held.
	sharing sync.Mutex

	mu        sync.Mutex // never held across a network call
	balance   *big.Int   // nil until first read
	reserved  *big.Int
	open      bool
	reachable bool
	burn      burnRate
	empty     float64 // seconds to empty at the last read's burn rate; +Inf: nothing spent
	spending  spending
	now       func() time.Time

	// With a shared budget: what this process has not yet written to it (Run writes it soon; a
	// write failed: the next admission writes it first, and refuses until it can), and the
	// fleet's total as last read.
	unshared     []shareOp
	sharedTotal  *big.Int
	sharedOldest time.Time
}

// shareOp is a write to the shared budget that this process has not yet made: a payment, a
// change of its reservation, or an admission to take back (its answer was lost). Its id is
// given once, so that sent again it is counted once.
type shareOp struct {
	kind int // sharePaid, shareReserve, shareUnreserve
	id   string
	wei  *big.Int
}

const (
	sharePaid = iota
	shareReserve
	shareUnreserve
)

// New makes the gate; it is open until the first balance read says otherwise.
func New(client Chain, cfg Config, m *Metrics, log *slog.Logger) *Gate {
	if log == nil {
		log = slog.Default()
	}
	m.Threshold.Set(WeiToEther(cfg.Min))
	if cfg.Budget.Limit != nil {
		m.SpendLimit.Set(WeiToEther(cfg.Budget.Limit))
	}
	return &Gate{client: client, cfg: cfg, metrics: m, log: log, reserved: new(big.Int), open: true, now: time.Now, empty: math.Inf(1),
		sharedTotal: new(big.Int)}
}

// Run polls the balance until ctx is done, one chain call per poll; with a shared budget, each
// poll also writes what this process could not write to it before and reads the fleet's total.
func (g *Gate) Run(ctx context.Context) {
	t := time.NewTicker(g.cfg.Poll)
	defer t.Stop()
	for {
		g.Refresh(ctx)
		if g.shared() {
			_ = g.readFleet(ctx) // unreachable: the last total read stands
		}
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
	g.empty = g.burn.observe(g.now(), bal)
	g.metrics.TimeToEmpty.Set(g.empty)
	g.evaluate()
}

// Reserve sets aside the worst-case cost of a transaction sent; Settled returns it. A shared
// budget is written before it returns (a failure is kept for the next write), under ctx's values
// (its trace) but not its cancellation: bookkeeping of a cost already incurred is not dropped
// because the request that incurred it went away.
func (g *Gate) Reserve(ctx context.Context, cost *big.Int) {
	g.mu.Lock()
	g.reserved.Add(g.reserved, cost)
	g.toShare(cost, nil)
	g.evaluate()
	g.mu.Unlock()
	_ = g.flush(context.WithoutCancel(ctx))
}

// Settled is told when a transaction the wallet sent is settled, once the balance shows it:
// what Reserve set aside for it comes back, and what it paid (nil when it was given up, never
// mined) counts against the spend budget, both at once, so the budget never counts a
// transaction twice (as reserved and as paid) nor not at all.
func (g *Gate) Settled(ctx context.Context, reserved, paid *big.Int) {
	g.mu.Lock()
	g.reserved.Sub(g.reserved, reserved)
	if paid != nil {
		g.spending.add(g.now(), paid)
	}
	g.toShare(new(big.Int).Neg(reserved), paid)
	g.evaluate()
	g.mu.Unlock()
	_ = g.flush(context.WithoutCancel(ctx))
}

// sharedTimeout bounds each call to the shared budget.
const sharedTimeout = 2 * time.Second

// shared reports whether the budget is counted with other replicas.
func (g *Gate) shared() bool { return g.cfg.Shared != nil && g.cfg.Budget.Limit != nil }

// toShare queues a change of this process's reservation and a payment (nil: none) for the shared
// budget (flush writes them); without one it does nothing. Callers hold g.mu.
func (g *Gate) toShare(reserve, paid *big.Int) {
	if !g.shared() {
		return
	}
	if reserve.Sign() != 0 {
		g.unshared = append(g.unshared, shareOp{kind: shareReserve, id: newWriteID(), wei: new(big.Int).Set(reserve)})
	}
	if paid != nil {
		g.unshared = append(g.unshared, shareOp{kind: sharePaid, id: newWriteID(), wei: new(big.Int).Set(paid)})
	}
}

// flush writes what this process has not yet written to the shared budget, in order, with g.mu
// released during the writes. It stops at the first failure and keeps the rest for the next.
func (g *Gate) flush(ctx context.Context) error {
	if !g.shared() {
		return nil
	}
	g.sharing.Lock()
	defer g.sharing.Unlock()
	g.mu.Lock()
	ops := g.unshared
	g.unshared = nil
	g.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, sharedTimeout)
	defer cancel()
	var err error
	for len(ops) > 0 && err == nil {
		switch op := ops[0]; op.kind {
		case sharePaid:
			err = g.cfg.Shared.Paid(ctx, op.id, op.wei)
		case shareReserve:
			err = g.cfg.Shared.Reserve(ctx, op.id, op.wei)
		case shareUnreserve:
			err = g.cfg.Shared.Unreserve(ctx, op.id, op.wei)
		}
		if err == nil {
			ops = ops[1:]
		}
	}
	if err != nil { // what was not written goes back ahead of what came meanwhile, as it was named
		g.mu.Lock()
		g.unshared = append(ops, g.unshared...)
		g.mu.Unlock()
	}
	return err
}

// readFleet writes what is pending, then reads the fleet's total into the gate, with g.mu
// released during both; on an error the total last read stands.
func (g *Gate) readFleet(ctx context.Context) error {
	if err := g.flush(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sharedTimeout)
	defer cancel()
	total, oldest, err := g.cfg.Shared.Total(ctx, g.cfg.Budget.Window)
	if err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sharedTotal, g.sharedOldest = total, oldest
	g.evaluateBudget()
	return nil
}

// evaluate opens or closes the gate and the budget; callers hold g.mu.
func (g *Gate) evaluate() {
	g.evaluateBudget()
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
		g.log.Error("ALERT: "+g.cfg.Name+" balance below "+g.cfg.Setting+"; refusing new "+g.cfg.Work+" (503) until it is topped up", attrs...)
		g.tell("wallet.balance_low")
	} else {
		g.log.Info(g.cfg.Name+" balance back above "+g.cfg.Setting+"; accepting "+g.cfg.Work+" again", attrs...)
		g.tell("wallet.balance_ok")
	}
	g.metrics.Open.Set(b2f(open))
}

// evaluateBudget reports whether the window's spending, reservations included, has reached the
// budget, logging each transition once (a warning: the budget doing its job is no fault of the
// service); callers hold g.mu.
func (g *Gate) evaluateBudget() (reached bool) {
	b := g.cfg.Budget
	if b.Limit == nil {
		return false
	}
	spent := new(big.Int).Add(g.spending.inWindow(g.now(), b.Window), g.reserved)
	if g.cfg.Shared != nil { // the fleet's, as last read (Check reads it afresh)
		spent = g.sharedTotal
	}
	g.metrics.Spent.Set(WeiToEther(spent))
	reached = spent.Cmp(b.Limit) >= 0
	if reached != g.spending.reached {
		g.spending.reached = reached
		g.metrics.SpendOpen.Set(b2f(!reached))
		attrs := []any{"wallet", g.cfg.Wallet.Hex(), "spent", weiString(spent), "limit", b.String()}
		if reached {
			g.log.Warn(g.cfg.Name+" spending reached "+g.cfg.BudgetSetting+"; refusing new "+g.cfg.Work+" (503) for now", attrs...)
			g.tell("wallet.spend_limit_reached")
		} else {
			g.log.Info(g.cfg.Name+" spending back under "+g.cfg.BudgetSetting+"; accepting "+g.cfg.Work+" again", attrs...)
			g.tell("wallet.spend_limit_ok")
		}
	}
	return reached
}

// tell gives a transition to OnChange without waiting for it, after the transitions before it
// (callers hold g.mu).
func (g *Gate) tell(event string) {
	if g.cfg.OnChange != nil {
		g.told.Go(func() { g.cfg.OnChange(event) })
	}
}

// Check refuses new work while the gate is closed or the spend budget is reached (with a shared
// budget, the fleet's, read now).
func (g *Gate) Check(ctx context.Context) error {
	if err := g.checkBalance(); err != nil {
		return err
	}
	if g.shared() {
		if err := g.readFleet(ctx); err != nil {
			return g.budgetUnknown(err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.checkBudget()
}

// Admit is Check and Reserve(cost) in one step: a transaction about to be sent is refused, or
// its worst-case cost set aside, so that sends checked together cannot all pass (with a shared
// budget, across replicas too: the budget's own Admit decides and reserves in one step).
// Settled gives the reservation back.
func (g *Gate) Admit(ctx context.Context, cost *big.Int) error {
	if !g.shared() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if err := g.checkBalanceLocked(); err != nil {
			return err
		}
		if err := g.checkBudget(); err != nil {
			return err
		}
		g.reserved.Add(g.reserved, cost)
		g.evaluate()
		return nil
	}
	if err := g.checkBalance(); err != nil {
		return err
	}
	// What this process paid and released goes first, or the fleet's total would miss it.
	ctx, cancel := context.WithTimeout(ctx, sharedTimeout)
	defer cancel()
	err := g.flush(ctx)
	var admitted bool
	var total *big.Int
	var oldest time.Time
	if err == nil {
		id := newWriteID()
		admitted, total, oldest, err = g.cfg.Shared.Admit(ctx, g.cfg.Budget.Window, g.cfg.Budget.Limit, id, cost)
		if err != nil { // its answer may be lost after it reserved: taken back, if it did
			g.mu.Lock()
			g.unshared = append(g.unshared, shareOp{kind: shareUnreserve, id: id, wei: new(big.Int).Set(cost)})
			g.mu.Unlock()
		}
	}
	if err != nil { // fail closed: the limit cannot be checked
		return g.budgetUnknown(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sharedOldest = oldest
	if !admitted { // refused: the total it saw reached the limit
		g.sharedTotal = maxBig(total, g.cfg.Budget.Limit)
		return g.checkBudget()
	}
	g.sharedTotal = new(big.Int).Add(total, cost)
	g.reserved.Add(g.reserved, cost) // in the shared budget already: its Admit reserved it
	g.evaluate()
	return nil
}

// checkBalance refuses while the balance gate is closed.
func (g *Gate) checkBalance() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.checkBalanceLocked()
}

// checkBalanceLocked is checkBalance; callers hold g.mu.
func (g *Gate) checkBalanceLocked() error {
	if g.open {
		return nil
	}
	g.metrics.Rejected.Inc()
	return &ClosedError{Refusal: BalanceLow, RetryAfter: g.cfg.Poll,
		Message: fmt.Sprintf("the %s is out of funds for now, try again later", g.cfg.Name)}
}

// budgetUnknown is the refusal while the shared budget cannot be read.
func (g *Gate) budgetUnknown(err error) error {
	return &ClosedError{Refusal: BudgetUnknown, RetryAfter: time.Second, Cause: err,
		Message: fmt.Sprintf("the %s cannot check its spend limit with the other replicas right now; try again later", g.cfg.Name)}
}

// checkBudget refuses while the spend budget is reached (the fleet's as last read, when shared).
// Callers hold g.mu.
func (g *Gate) checkBudget() error {
	if !g.evaluateBudget() {
		return nil
	}
	g.metrics.SpendRejected.Inc()
	b := g.cfg.Budget
	retry := g.spending.retryAfter(g.now(), b.Window, g.cfg.Poll)
	if g.cfg.Shared != nil {
		retry = g.cfg.Poll
		if !g.sharedOldest.IsZero() {
			retry = max(g.sharedOldest.Add(b.Window).Sub(g.now()), time.Second)
		}
	}
	return &ClosedError{Refusal: BudgetSpent, RetryAfter: retry,
		Message: fmt.Sprintf("the %s has spent its limit of %s for now, try again later", g.cfg.Name, b)}
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

// Report is the wallet as an operator reads it (GET /admin/wallet), from memory.
type Report struct {
	Balance     *big.Int // nil until the first read
	Reserved    *big.Int // the worst-case cost of this process's transactions in flight
	Min         *big.Int
	Open        bool
	Reachable   bool
	TimeToEmpty float64  // seconds, at the rate spent over the last hour; +Inf while nothing was spent
	Budget      Budget   // nil Limit: none
	Spent       *big.Int // in the budget's window, reservations included (the fleet's with a shared budget, as last read); nil without a budget
}

// Report returns the gate's state for an operator.
func (g *Gate) Report() Report {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := Report{Reserved: new(big.Int).Set(g.reserved), Min: g.cfg.Min, Open: g.open, Reachable: g.reachable, TimeToEmpty: g.empty, Budget: g.cfg.Budget}
	if g.balance != nil {
		r.Balance = new(big.Int).Set(g.balance)
	}
	if b := g.cfg.Budget; b.Limit != nil {
		r.Spent = new(big.Int).Add(g.spending.inWindow(g.now(), b.Window), g.reserved)
		if g.cfg.Shared != nil {
			r.Spent = new(big.Int).Set(g.sharedTotal)
		}
	}
	return r
}

// SpendReached reports whether the spend budget is reached now (a readiness report). It makes
// no network call: a shared budget is taken as last read (by the last admission or check, or
// Run's poll).
func (g *Gate) SpendReached() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.evaluateBudget()
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
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

// Wallet is a paying wallet as its operator sees it: the gate's report and the wallet's nonces.
type Wallet struct {
	Address common.Address
	Report
	Nonce WalletNonce
}

// WalletNonce is where the wallet's nonces stand: mined and pending as the node says (nil when
// it did not answer), Next the one the service sends at next.
type WalletNonce struct {
	Mined, Pending *uint64
	Next           uint64
}

// Wallet reports the gate's wallet for an operator: its state in memory, and its nonces read
// from the node now (two calls); next is the nonce the service sends at next.
func (g *Gate) Wallet(ctx context.Context, next uint64) Wallet {
	w := Wallet{Address: g.cfg.Wallet, Report: g.Report(), Nonce: WalletNonce{Next: next}}
	if n, err := g.client.NonceAt(ctx, g.cfg.Wallet); err == nil {
		w.Nonce.Mined = &n
	}
	if n, err := g.client.PendingNonceAt(ctx, g.cfg.Wallet); err == nil {
		w.Nonce.Pending = &n
	}
	return w
}
