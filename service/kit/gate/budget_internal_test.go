package gate

import (
	"errors"
	"log/slog"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// The budget counts what was paid within the window plus what is reserved: it refuses once the
// sum reaches the limit, with a Retry-After of when the oldest payment leaves the window, and
// accepts again once a reservation is released or payments age out; each transition is one log
// line, however many requests it refuses.
func TestSpendBudget(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	now := time.Unix(1_000_000, 0)
	m := NewMetrics(prometheus.NewRegistry(), "test", "balance")
	g := New(nil, Config{Name: "operator", Work: "reveals", Min: new(big.Int), Poll: 7 * time.Second,
		Budget: Budget{Limit: big.NewInt(10), Window: time.Minute}, BudgetSetting: "OPERATOR_SPEND_LIMIT"},
		m, slog.New(slog.NewTextHandler(&logs, nil)))
	g.now = func() time.Time { return now }

	refused := func(want time.Duration) {
		t.Helper()
		var e *ClosedError
		if err := g.Check(t.Context()); !errors.As(err, &e) || e.Refusal != BudgetSpent || e.RetryAfter != want {
			t.Fatalf("check: %#v, want the budget spent, retry after %s", err, want)
		}
	}
	accepted := func() {
		t.Helper()
		if err := g.Check(t.Context()); err != nil {
			t.Fatalf("check: %v, want accepted", err)
		}
	}

	g.Settled(t.Context(), new(big.Int), big.NewInt(4))
	g.Reserve(t.Context(), big.NewInt(5))
	accepted() // 9 of 10
	now = now.Add(20 * time.Second)
	g.Reserve(t.Context(), big.NewInt(1))
	refused(40 * time.Second) // 10 of 10: the payment leaves the window in 40 s
	refused(40 * time.Second)
	if got := testutil.ToFloat64(m.SpendOpen); got != 0 {
		t.Fatalf("spend_limit_open %v while reached", got)
	}
	g.Settled(t.Context(), big.NewInt(1), nil)
	accepted() // 9 of 10

	// The reservations settle as payments; a minute after the first, it is forgotten.
	g.Settled(t.Context(), big.NewInt(5), big.NewInt(6)) // 4 + 6 = 10 paid
	refused(40 * time.Second)
	now = now.Add(40 * time.Second)
	accepted() // the 4 aged out: 6 of 10
	if got := testutil.ToFloat64(m.Spent); got != 6e-18 {
		t.Fatalf("spend_window_ether %v, want 6e-18", got)
	}

	// Reservations alone fill it: retry after a balance poll.
	g.Reserve(t.Context(), big.NewInt(10))
	now = now.Add(time.Minute)
	refused(7 * time.Second)

	if got := testutil.ToFloat64(m.SpendRejected); got != 4 {
		t.Fatalf("spend_limit_rejections_total %v, want 4", got)
	}
	if n := strings.Count(logs.String(), "spending reached OPERATOR_SPEND_LIMIT"); n != 3 {
		t.Fatalf("%d 'reached' lines for 3 transitions:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "spending back under OPERATOR_SPEND_LIMIT"); n != 2 {
		t.Fatalf("%d 'back under' lines for 2 transitions:\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("a spent budget is logged as an error:\n%s", logs.String())
	}
}

func TestEnvBudget(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]string{"10/1h": "10 native per 1h", "0.5/10m": "0.5 native per 10m", "off": "off", "0.000000001/90s": "0.000000001 native per 1m30s"} {
		e := config.NewEnv(func(string) string { return s })
		if b := EnvBudget(e, "OPERATOR_SPEND_LIMIT", ""); e.Err() != nil || b.String() != want {
			t.Errorf("%q: %v %v, want %s", s, b, e.Err(), want)
		}
	}
	for _, s := range []string{"10", "x/1h", "0/1h", "-1/1h", "10/0s", "10/h", "1e3/1h"} {
		e := config.NewEnv(func(string) string { return s })
		if EnvBudget(e, "OPERATOR_SPEND_LIMIT", ""); e.Err() == nil || !strings.Contains(e.Err().Error(), "OPERATOR_SPEND_LIMIT must look like 10/1h") {
			t.Errorf("%q: %v", s, e.Err())
		}
	}
}

// Admit sets each admitted transaction's worst case aside: the gate closes on the admission that
// takes the wallet under its minimum and refuses the next ones (BalanceLow, Retry-After of the
// balance poll), with one ALERT line however many it refuses; the balance read after the
// payment and the reservation given back reopen it, with one line.
func TestAdmitReservesAndClosesOnce(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	g := New(nil, Config{Name: "operator", Work: "reveals", Min: big.NewInt(10), Poll: 3 * time.Second, Setting: "MIN_OPERATOR_BALANCE"},
		NewMetrics(prometheus.NewRegistry(), "test", "balance"), slog.New(slog.NewTextHandler(&logs, nil)))
	g.mu.Lock()
	g.balance = big.NewInt(25)
	g.reachable = true
	g.evaluate()
	g.mu.Unlock()
	for i, cost := range []int64{10, 10} { // 25 → 15 → 5 available: the second closes the gate
		if err := g.Admit(t.Context(), big.NewInt(cost)); err != nil {
			t.Fatalf("admission %d: %v", i, err)
		}
	}
	for range 3 {
		var e *ClosedError
		if err := g.Admit(t.Context(), big.NewInt(1)); !errors.As(err, &e) || e.Refusal != BalanceLow || e.RetryAfter != 3*time.Second {
			t.Fatalf("under the minimum: %#v", err)
		}
	}
	if n := strings.Count(logs.String(), "ALERT"); n != 1 {
		t.Fatalf("%d ALERT lines for one closing:\n%s", n, logs.String())
	}
	// One of the two is mined for 8: the balance shows it, and its reservation comes back.
	g.mu.Lock()
	g.balance = big.NewInt(17)
	g.mu.Unlock()
	g.Settled(t.Context(), big.NewInt(10), big.NewInt(8))
	if err := g.Admit(t.Context(), big.NewInt(1)); err == nil {
		t.Fatal("17 with 10 still reserved is under the minimum of 10: admitted")
	}
	g.mu.Lock()
	g.balance = big.NewInt(12)
	g.mu.Unlock()
	g.Settled(t.Context(), big.NewInt(10), nil) // the other given up, never mined: nothing paid
	if err := g.Admit(t.Context(), big.NewInt(1)); err != nil {
		t.Fatalf("12 with nothing reserved: %v", err)
	}
	if !strings.Contains(logs.String(), "balance back above MIN_OPERATOR_BALANCE") {
		t.Fatalf("no line for the reopening:\n%s", logs.String())
	}
}
