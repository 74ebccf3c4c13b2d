package gate

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// slowShared is a shared budget whose Admit does not answer until released: it stands in for a
// Redis that is slow to answer, which a real one cannot be made to be on cue. Every other call
// answers at once with an empty budget.
type slowShared struct {
	entered chan struct{}
	release chan struct{}
}

func (s *slowShared) Paid(context.Context, string, *big.Int) error      { return nil }
func (s *slowShared) Reserve(context.Context, string, *big.Int) error   { return nil }
func (s *slowShared) Unreserve(context.Context, string, *big.Int) error { return nil }
func (s *slowShared) Total(context.Context, time.Duration) (*big.Int, time.Time, error) {
	return new(big.Int), time.Time{}, nil
}
func (s *slowShared) Admit(ctx context.Context, _ time.Duration, _ *big.Int, _ string, _ *big.Int) (bool, *big.Int, time.Time, error) {
	s.entered <- struct{}{}
	select {
	case <-s.release:
		return true, new(big.Int), time.Time{}, nil
	case <-ctx.Done():
		return false, nil, time.Time{}, ctx.Err()
	}
}

// An admission waiting on the shared budget holds no lock the readiness report needs: State,
// SpendReached and Check answer meanwhile (they waited for it before, so a slow Redis slowed
// every /ready), and Reserve and Settled go through.
func TestAWaitOnTheSharedBudgetBlocksNoReader(t *testing.T) {
	t.Parallel()
	shared := &slowShared{entered: make(chan struct{}, 1), release: make(chan struct{})}
	g := New(nil, Config{Name: "operator", Work: "reveals", Min: new(big.Int), Poll: time.Second,
		Budget: Budget{Limit: big.NewInt(1e18), Window: time.Minute}, Shared: shared}, NewMetrics(prometheus.NewRegistry(), "test", "balance"), nil)
	admitted := make(chan error, 1)
	go func() { admitted <- g.Admit(t.Context(), big.NewInt(1)) }()
	<-shared.entered

	answered := make(chan struct{})
	go func() {
		g.State()
		g.SpendReached()
		if err := g.Check(t.Context()); err != nil {
			t.Errorf("check while an admission waits: %v", err)
		}
		g.Reserve(t.Context(), big.NewInt(2))
		g.Settled(t.Context(), big.NewInt(2), nil)
		close(answered)
	}()
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("the gate's readers waited for an admission's call to the shared budget")
	}
	close(shared.release)
	if err := <-admitted; err != nil {
		t.Fatalf("admission: %v", err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reserved.Cmp(big.NewInt(1)) != 0 {
		t.Fatalf("reserved %s after the admission, want 1", g.reserved)
	}
}
