package gate_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
)

func gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e9)) }

// replica is one replica's gate on a budget of 10 gwei per window shared through Redis.
func replica(t *testing.T, rdb *redis.Client, name string, window time.Duration) *gate.Gate {
	return gate.New(nil, gate.Config{Name: "operator", Work: "reveals", Min: new(big.Int), Poll: time.Second,
		Budget: gate.Budget{Limit: gwei(10), Window: window}, BudgetSetting: "OPERATOR_SPEND_LIMIT",
		Shared: gate.NewSharedRedis(rdb, "test:spend", name, time.Minute)}, gate.NewMetrics(prometheus.NewRegistry(), "test", "balance"), nil)
}

// code names the gate's answer: its refusal, or "accepted".
func code(err error) string {
	var e *gate.ClosedError
	if errors.As(err, &e) {
		return map[gate.Refusal]string{gate.BalanceLow: "BALANCE_LOW", gate.BudgetSpent: "SPEND_LIMIT_REACHED", gate.BudgetUnknown: "UNAVAILABLE"}[e.Refusal]
	}
	if err != nil {
		return err.Error()
	}
	return "accepted"
}

// Two replicas' gates on one budget in Redis: what one pays and reserves counts at the other;
// payments leave the window by Redis's clock; a reservation released at one reopens the other.
func TestSharedBudgetHoldsAcrossReplicas(t *testing.T) {
	url, _ := redistest.Server(t)
	opts, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	const window = 4 * time.Second
	a, b := replica(t, rdb, "a", window), replica(t, rdb, "b", window)

	a.Settled(t.Context(), new(big.Int), gwei(4))
	a.Reserve(t.Context(), gwei(5))
	if got := code(b.Check(t.Context())); got != "accepted" {
		t.Fatalf("b at 9 of 10: %s", got)
	}
	b.Reserve(t.Context(), gwei(1))
	if got := code(a.Check(t.Context())); got != "SPEND_LIMIT_REACHED" {
		t.Fatalf("a at 10 of 10 (b's reservation included): %s", got)
	}
	a.Settled(t.Context(), gwei(5), nil)
	if got := code(b.Check(t.Context())); got != "accepted" {
		t.Fatalf("b after a released 5: %s", got)
	}
	a.Settled(t.Context(), new(big.Int), gwei(5)) // 4 + 5 paid + 1 reserved
	if got := code(b.Check(t.Context())); got != "SPEND_LIMIT_REACHED" {
		t.Fatalf("b at 10 of 10: %s", got)
	}
	time.Sleep(window + 100*time.Millisecond) // the payments leave the window
	if got := code(b.Check(t.Context())); got != "accepted" {
		t.Fatalf("b once the payments aged out: %s", got)
	}
}

// A replica cut off from Redis refuses (503 UNAVAILABLE, never unchecked) and keeps what it
// could not write; back in touch, it writes that first, so the fleet's total has it.
func TestSharedBudgetWritesWhatItMissed(t *testing.T) {
	url, _ := redistest.Server(t)
	var link redistest.Partition
	probe := gate.NewSharedRedis(link.Client(t, url), "test:spend", "probe", time.Minute)
	var cut redistest.Partition
	a := replica(t, cut.Client(t, url), "a", time.Minute)
	cut.Cut(true)
	a.Settled(t.Context(), new(big.Int), gwei(9)) // paid while cut off
	if got := code(a.Check(t.Context())); got != "UNAVAILABLE" {
		t.Fatalf("a cut off from Redis: %s", got)
	}
	if total, _, err := probe.Total(context.Background(), time.Minute); err != nil || total.Sign() != 0 {
		t.Fatalf("the fleet's total while a is cut off: %v %v, want 0", total, err)
	}
	cut.Cut(false)
	if got := code(a.Check(t.Context())); got != "accepted" {
		t.Fatalf("a back, at 9 of 10: %s", got)
	}
	if total, _, err := probe.Total(context.Background(), time.Minute); err != nil || total.Cmp(gwei(9)) != 0 {
		t.Fatalf("the fleet's total once a is back: %v %v, want the 9 gwei it paid meanwhile", total, err)
	}
}

// Sends admitted at once on two replicas: each admission checks the fleet's total and reserves
// in one step, so with a limit of 10 and sends of 6, exactly two pass (0 → 6 → 12), however
// the replicas' sends interleave.
func TestSharedAdmissionIsOneStep(t *testing.T) {
	url, _ := redistest.Server(t)
	opts, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	for round := range 5 {
		prefix := fmt.Sprintf("round%d", round)
		replicas := []*gate.Gate{replica(t, rdb, prefix+"a", time.Minute), replica(t, rdb, prefix+"b", time.Minute)}
		var admitted atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 16 {
			wg.Go(func() {
				<-start
				if replicas[i%2].Admit(t.Context(), gwei(6)) == nil {
					admitted.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		if n := admitted.Load(); n != 2 {
			t.Fatalf("round %d: %d sends admitted, want exactly 2", round, n)
		}
		rdb.FlushDB(context.Background())
	}
}

// /ready asks SpendReached, which reads no Redis: what another replica paid reaches it through
// Run's poll, which reads the fleet's total each BALANCE_POLL_INTERVAL.
func TestRunsPollBringsTheFleetsSpendingToReadiness(t *testing.T) {
	url, _ := redistest.Server(t)
	opts, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	c := devchaintest.Start(t) // Run reads a's balance from a chain each poll too
	client, err := chain.Dial(c.RPCURL, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	a := gate.New(client, gate.Config{Wallet: c.Accounts.Faucet.Address, Name: "operator", Work: "reveals", Min: new(big.Int), Poll: 200 * time.Millisecond,
		Budget: gate.Budget{Limit: gwei(10), Window: time.Minute}, BudgetSetting: "OPERATOR_SPEND_LIMIT",
		Shared: gate.NewSharedRedis(rdb, "test:spend", "a", time.Minute)}, gate.NewMetrics(prometheus.NewRegistry(), "test", "balance"), nil)
	b := replica(t, rdb, "b", time.Minute)
	if a.SpendReached() {
		t.Fatal("a's budget reached before anything was paid")
	}
	b.Settled(t.Context(), new(big.Int), gwei(10)) // b pays the whole limit
	if a.SpendReached() {
		t.Fatal("a read Redis for a readiness report")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go a.Run(ctx) // polls every 200 ms
	deadline := time.Now().Add(10 * time.Second)
	for !a.SpendReached() {
		if time.Now().After(deadline) {
			t.Fatal("a's poll did not bring the fleet's spending to its readiness")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The caller's context reaches the shared budget: a request that went away is not checked
// against Redis on its behalf (Check and Admit refuse, the work is not done), while the cost of
// work already done is written all the same (Reserve and Settled keep ctx's values, not its
// cancellation).
func TestTheCallersContextReachesTheSharedBudget(t *testing.T) {
	url, _ := redistest.Server(t)
	opts, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	a, b := replica(t, rdb, "a", time.Minute), replica(t, rdb, "b", time.Minute)
	gone, cancel := context.WithCancel(t.Context())
	cancel()
	if got := code(a.Check(gone)); got != "UNAVAILABLE" {
		t.Errorf("check for a request that went away: %s, want UNAVAILABLE", got)
	}
	if got := code(a.Admit(gone, gwei(1))); got != "UNAVAILABLE" {
		t.Errorf("admission for a request that went away: %s, want UNAVAILABLE", got)
	}
	a.Reserve(gone, gwei(6))
	a.Settled(gone, gwei(6), gwei(10))
	if got := code(b.Check(t.Context())); got != "SPEND_LIMIT_REACHED" {
		t.Errorf("b after a paid the whole limit for a request that went away: %s", got)
	}
}

// A write whose answer was lost after Redis made it (the connection dropped) is counted once:
// an admission is refused (UNAVAILABLE) and taken back at the gate's next write, so the fleet's
// total does not keep it; a payment written again is the same payment. The client is the one
// the services use (ratelimit.Dial), which never sends a command again itself.
func TestAWriteWhoseAnswerWasLostCountsOnce(t *testing.T) {
	url, _ := redistest.Server(t)
	opts, _ := redis.ParseURL(url)
	direct := redis.NewClient(opts)
	defer direct.Close()
	for _, c := range []struct {
		name  string
		write func(g *gate.Gate) string // its answer, as code names it
		want  *big.Int                  // the fleet's total after
	}{
		{"admission", func(g *gate.Gate) string { return code(g.Admit(t.Context(), gwei(6))) }, gwei(0)},
		{"payment", func(g *gate.Gate) string { g.Settled(t.Context(), new(big.Int), gwei(4)); return "" }, gwei(4)},
	} {
		t.Run(c.name, func(t *testing.T) {
			probe := gate.NewSharedRedis(direct, "test:"+c.name, "probe", time.Minute)
			// Every script loaded, so that the answer dropped is that of the write's own run.
			if err := probe.Paid(t.Context(), "load", new(big.Int)); err != nil {
				t.Fatal(err)
			}
			if _, _, err := probe.Total(t.Context(), time.Minute); err != nil {
				t.Fatal(err)
			}
			rdb, err := ratelimit.Dial(redistest.DropFirstAnswer(t, url, "EVALSHA"))
			if err != nil {
				t.Fatal(err)
			}
			defer rdb.Close()
			g := gate.New(nil, gate.Config{Name: "operator", Work: "reveals", Min: new(big.Int), Poll: time.Second,
				Budget: gate.Budget{Limit: gwei(10), Window: time.Minute}, BudgetSetting: "OPERATOR_SPEND_LIMIT",
				Shared: gate.NewSharedRedis(rdb, "test:"+c.name, "a", time.Minute)}, gate.NewMetrics(prometheus.NewRegistry(), "test", "balance"), nil)
			if got := c.write(g); c.name == "admission" && got != "UNAVAILABLE" {
				t.Fatalf("an admission whose answer was lost: %s, want UNAVAILABLE", got)
			}
			if got := code(g.Check(t.Context())); got != "accepted" { // the gate's next write
				t.Fatalf("the next check: %s", got)
			}
			if total, _, err := probe.Total(t.Context(), time.Minute); err != nil || total.Cmp(c.want) != 0 {
				t.Fatalf("the fleet's total: %v %v, want %s", total, err, c.want)
			}
		})
	}
}

// The shared budget counts each write once by its id: a reservation change sent twice changes
// it once, and an admission taken back before it arrives (Redis served the take-back first)
// reserves nothing when it does.
func TestSharedWritesCountOncePerID(t *testing.T) {
	url, _ := redistest.Server(t)
	opts, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	s := gate.NewSharedRedis(rdb, "test:ids", "a", time.Minute)
	total := func() *big.Int {
		t.Helper()
		n, _, err := s.Total(t.Context(), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for range 2 {
		if err := s.Reserve(t.Context(), "r1", gwei(5)); err != nil {
			t.Fatal(err)
		}
	}
	if got := total(); got.Cmp(gwei(5)) != 0 {
		t.Fatalf("a reservation sent twice: total %s, want 5 gwei", got)
	}
	if err := s.Unreserve(t.Context(), "late", gwei(3)); err != nil {
		t.Fatal(err)
	}
	if ok, _, _, err := s.Admit(t.Context(), time.Minute, gwei(10), "late", gwei(3)); err != nil || ok {
		t.Fatalf("an admission taken back before it arrived: admitted %v (%v)", ok, err)
	}
	if got := total(); got.Cmp(gwei(5)) != 0 {
		t.Fatalf("after an admission taken back before it arrived: total %s, want 5 gwei", got)
	}
}
