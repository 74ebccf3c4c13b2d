package relayer

import (
	"context"
	"log/slog"
	"math/big"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/service/chain"
	"github.com/seed018cc74c/vaultd/service/platform"
)

// CodeOperatorBalanceLow is the 503 of a closed gate.
const CodeOperatorBalanceLow = "OPERATOR_BALANCE_LOW"

// gate keeps the operator wallet from running dry: it knows the balance (polled, and refreshed
// after each mined transaction) and the cost reserved by transactions in flight, and it closes
// while balance − reserved is under the minimum. Each transition is logged once.
type gate struct {
	client   *chain.Client
	operator common.Address
	min      *big.Int
	poll     time.Duration
	metrics  *metrics
	log      *slog.Logger

	mu        sync.Mutex
	balance   *big.Int // nil until first read
	reserved  *big.Int
	open      bool
	reachable bool
}

func newGate(client *chain.Client, operator common.Address, min *big.Int, poll time.Duration, m *metrics) *gate {
	m.threshold.Set(weiToEther(min))
	return &gate{client: client, operator: operator, min: min, poll: poll, metrics: m, log: slog.Default(), reserved: new(big.Int), open: true}
}

// run polls the balance until ctx is done.
func (g *gate) run(ctx context.Context) {
	t := time.NewTicker(g.poll)
	defer t.Stop()
	for {
		g.refresh(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// refresh reads the balance now.
func (g *gate) refresh(ctx context.Context) {
	bal, err := g.client.BalanceAt(ctx, g.operator)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reachable = err == nil
	if err != nil {
		return
	}
	g.balance = bal
	g.metrics.balance.Set(weiToEther(bal))
	g.evaluate()
}

// reserve sets aside the worst-case cost of a transaction about to be sent; release returns it.
func (g *gate) reserve(cost *big.Int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved.Add(g.reserved, cost)
	g.evaluate()
}

func (g *gate) release(cost *big.Int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved.Sub(g.reserved, cost)
	g.evaluate()
}

// evaluate opens or closes the gate; callers hold g.mu.
func (g *gate) evaluate() {
	if g.balance == nil {
		return
	}
	available := new(big.Int).Sub(g.balance, g.reserved)
	open := available.Cmp(g.min) >= 0
	if open == g.open {
		return
	}
	g.open = open
	attrs := []any{"operator", g.operator.Hex(), "balance", weiString(g.balance), "reserved", weiString(g.reserved), "threshold", weiString(g.min)}
	if !open {
		g.metrics.gateTrips.Inc()
		g.log.Error("ALERT: operator balance below MIN_OPERATOR_BALANCE; refusing new reveals with 503", attrs...)
	} else {
		g.log.Info("operator balance back above MIN_OPERATOR_BALANCE; accepting reveals again", attrs...)
	}
	g.metrics.gateOpen.Set(b2f(open))
}

// check refuses new work while the gate is closed.
func (g *gate) check() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open {
		return nil
	}
	g.metrics.rejected503.Inc()
	return &platform.Error{Status: http.StatusServiceUnavailable, Code: CodeOperatorBalanceLow,
		Message: "the relayer is out of funds for now, try again later", RetryAfter: g.poll}
}

// state is the gate as the health report shows it.
func (g *gate) state() (balance *big.Int, open, reachable bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.balance != nil {
		balance = new(big.Int).Set(g.balance)
	}
	return balance, g.open, g.reachable
}

func weiToEther(wei *big.Int) float64 {
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
