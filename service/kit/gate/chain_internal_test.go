package gate

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"
)

// balances is a Chain whose answers a test sets: a read that fails (a node down) is a fault a
// dev chain gives only by stopping. The services' dev-chain tests (the relayer's and the
// faucet's balance gates) are the acceptance layer; this checks the gate alone, in
// milliseconds.
type balances struct {
	mu      sync.Mutex
	balance *big.Int
	err     error
}

func (b *balances) set(wei int64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.balance, b.err = big.NewInt(wei), err
}

func (b *balances) BalanceAt(context.Context, common.Address) (*big.Int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.balance, b.err
}

func (b *balances) NonceAt(context.Context, common.Address) (uint64, error) { return 7, nil }

func (b *balances) PendingNonceAt(context.Context, common.Address) (uint64, error) { return 9, nil }

// Refresh reads the balance through the gate's Chain: under the minimum the gate closes (one
// ALERT line), a failed read leaves it as it was but unreachable, and a top-up reopens it. An
// operator's wallet report reads the nonces through it too.
func TestRefreshReadsTheBalanceThroughItsChain(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	chain := &balances{}
	g := New(chain, Config{Name: "operator", Work: "reveals", Min: big.NewInt(10), Poll: 3 * time.Second, Setting: "MIN_OPERATOR_BALANCE"},
		NewMetrics(prometheus.NewRegistry(), "test", "balance"), slog.New(slog.NewTextHandler(&logs, nil)))
	ctx := context.Background()

	chain.set(25, nil)
	g.Refresh(ctx)
	if err := g.Admit(t.Context(), big.NewInt(1)); err != nil {
		t.Fatalf("25 over a minimum of 10: %v", err)
	}
	g.Settled(t.Context(), big.NewInt(1), nil)

	chain.set(9, nil)
	g.Refresh(ctx)
	var e *ClosedError
	if err := g.Admit(t.Context(), big.NewInt(1)); !errors.As(err, &e) || e.Refusal != BalanceLow {
		t.Fatalf("9 under a minimum of 10: %#v", err)
	}
	if n := strings.Count(logs.String(), "ALERT"); n != 1 {
		t.Fatalf("%d ALERT lines for one closing:\n%s", n, logs.String())
	}

	chain.set(0, errors.New("connection refused"))
	g.Refresh(ctx)
	if bal, open, reachable := g.State(); reachable || open || bal == nil || bal.Int64() != 9 {
		t.Fatalf("after a failed read: balance %v, open %v, reachable %v; want the last balance 9, closed, unreachable", bal, open, reachable)
	}

	chain.set(50, nil)
	g.Refresh(ctx)
	if bal, open, reachable := g.State(); !reachable || !open || bal.Int64() != 50 {
		t.Fatalf("after a top-up: balance %v, open %v, reachable %v", bal, open, reachable)
	}
	if w := g.Wallet(ctx, 9); w.Nonce.Mined == nil || *w.Nonce.Mined != 7 || w.Nonce.Pending == nil || *w.Nonce.Pending != 9 || w.Balance == nil || w.Balance.Int64() != 50 {
		t.Fatalf("wallet report: %+v", w)
	}
}

// With a shared budget, a refusal's Retry-After is when the fleet's oldest payment leaves the
// window by the gate's own clock (a test's, here), as without one.
func TestASharedBudgetsRetryAfterIsByTheGatesClock(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	g := New(nil, Config{Name: "operator", Work: "reveals", Min: new(big.Int), Poll: 7 * time.Second,
		// Never called: checkBudget takes the fleet's total as last read.
		Shared: (*SharedRedis)(nil),
		Budget: Budget{Limit: big.NewInt(10), Window: time.Minute}, BudgetSetting: "OPERATOR_SPEND_LIMIT"},
		NewMetrics(prometheus.NewRegistry(), "test", "balance"), slog.New(slog.DiscardHandler))
	g.now = func() time.Time { return now }
	g.mu.Lock()
	g.sharedTotal, g.sharedOldest = big.NewInt(10), now.Add(-20*time.Second)
	err := g.checkBudget()
	g.mu.Unlock()
	var e *ClosedError
	if !errors.As(err, &e) || e.Refusal != BudgetSpent || e.RetryAfter != 40*time.Second {
		t.Fatalf("the fleet's budget spent, its oldest payment 20 s old: %#v, want a retry after 40 s", err)
	}
}
