package gate

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// Budget caps what the wallet may spend per window (OPERATOR_SPEND_LIMIT=10/1h): what it paid
// for transactions mined in the last Window, plus the worst-case cost reserved by those in
// flight, must stay under Limit. A nil Limit is no budget.
type Budget struct {
	Limit  *big.Int // wei
	Window time.Duration
}

func (b Budget) String() string {
	if b.Limit == nil {
		return "off"
	}
	amount := strings.TrimRight(strings.TrimRight(new(big.Rat).SetFrac(b.Limit, ether).FloatString(18), "0"), ".")
	window := b.Window.String() // 1h0m0s reads 1h, 10m0s 10m
	if strings.HasSuffix(window, "m0s") {
		window = strings.TrimSuffix(window, "0s")
	}
	if strings.HasSuffix(window, "h0m") {
		window = strings.TrimSuffix(window, "0m")
	}
	return fmt.Sprintf("%s native per %s", amount, window)
}

var ether = big.NewInt(1e18)

// EnvBudget reads the variable name as "amount/window" in whole native tokens, decimals allowed
// ("10/1h", "0.5/10m"), or "off"; def when unset.
func EnvBudget(e *config.Env, name, def string) Budget {
	s := strings.TrimSpace(e.String(name, def))
	if s == "off" {
		return Budget{}
	}
	amount, window, ok := strings.Cut(s, "/")
	wei, err1 := chain.ParseUnits(strings.TrimSpace(amount), 18)
	d, err2 := time.ParseDuration(strings.TrimSpace(window))
	if !ok || err1 != nil || err2 != nil || wei.Sign() <= 0 || d <= 0 {
		e.Fail("%s must look like 10/1h (native tokens per window) or be off, got %q", name, s)
		return Budget{}
	}
	return Budget{Limit: wei, Window: d}
}

// spending is the budget's account: every payment within the window, oldest first.
type spending struct {
	payments []payment
	total    *big.Int // the sum of payments
	reached  bool     // the last evaluation found the budget spent
}

type payment struct {
	at  time.Time
	wei *big.Int
}

// add records a payment made at now.
func (s *spending) add(now time.Time, wei *big.Int) {
	if s.total == nil {
		s.total = new(big.Int)
	}
	s.payments = append(s.payments, payment{at: now, wei: new(big.Int).Set(wei)})
	s.total.Add(s.total, wei)
}

// inWindow forgets payments older than window and returns the sum of the rest.
func (s *spending) inWindow(now time.Time, window time.Duration) *big.Int {
	if s.total == nil {
		s.total = new(big.Int)
	}
	i := 0
	for i < len(s.payments) && now.Sub(s.payments[i].at) >= window {
		s.total.Sub(s.total, s.payments[i].wei)
		i++
	}
	s.payments = s.payments[i:]
	return s.total
}

// retryAfter is when the oldest payment leaves the window (at least a second), or fallback when
// there is none (the reservations alone fill the budget).
func (s *spending) retryAfter(now time.Time, window, fallback time.Duration) time.Duration {
	if len(s.payments) == 0 {
		return fallback
	}
	return max(s.payments[0].at.Add(window).Sub(now), time.Second)
}
