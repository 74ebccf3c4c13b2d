package paying_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/paying"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// Every shared refusal, wrapped as a service's domain code wraps it, gets its answer: the status,
// the code (the balance's the service's own), the Retry-After the refusal carries; anything else
// is left to the service's own table.
func TestEverySharedRefusalHasItsAnswer(t *testing.T) {
	t.Parallel()
	answers := paying.Answers{BalanceLowCode: "WALLET_LOW", BalanceLowMessage: "the wallet is low"}
	closed := func(r gate.Refusal) error {
		return fmt.Errorf("send: %w", &gate.ClosedError{Refusal: r, RetryAfter: 7 * time.Second, Message: "closed"})
	}
	for _, c := range []struct {
		name    string
		err     error
		status  int
		code    string
		retry   time.Duration
		message string
	}{
		{"balance low", closed(gate.BalanceLow), http.StatusServiceUnavailable, "WALLET_LOW", 7 * time.Second, "the wallet is low"},
		{"budget spent", closed(gate.BudgetSpent), http.StatusServiceUnavailable, paying.CodeSpendLimitReached, 7 * time.Second, "closed"},
		{"budget unknown", closed(gate.BudgetUnknown), http.StatusServiceUnavailable, edge.CodeUnavailable, 7 * time.Second, "closed"},
		{"paused", fmt.Errorf("claim: %w", pause.ErrPaused), http.StatusServiceUnavailable, edge.CodePaused, pause.RetryAfter, ""},
		{"nothing in flight", fmt.Errorf("replace: %w", txmgr.ErrNoFlight), http.StatusNotFound, edge.CodeNotFound, 0, ""},
		{"not replaceable", fmt.Errorf("replace: %w", txmgr.ErrNotReplaceable), http.StatusConflict, edge.CodeNotReplaceable, 0, ""},
	} {
		e, ok := answers.Error(c.err)
		if !ok || e.Status != c.status || e.Code != c.code || e.RetryAfter != c.retry || (c.message != "" && e.Message != c.message) {
			t.Errorf("%s: %+v %v, want %d %s retry %s %q", c.name, e, ok, c.status, c.code, c.retry, c.message)
		}
	}
	if e, ok := answers.Error(errors.New("the service's own")); ok {
		t.Errorf("an error of the service's own answered here: %+v", e)
	}
}

// Spans and metrics name every shared refusal as it is answered: its code and message, a fault
// when its answer is a 5xx; an operator's replace or cancel refused too. The rate limits',
// answered by edge.AsError, too.
func TestEverySharedRefusalIsNamedAsItIsAnswered(t *testing.T) {
	t.Parallel()
	for _, answers := range []paying.Answers{{BalanceLowCode: "WALLET_LOW", BalanceLowMessage: "the wallet is low"}, {BalanceLowCode: "WALLET_LOW"}} {
		for _, err := range []error{
			fmt.Errorf("send: %w", &gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"}),
			&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent"},
			&gate.ClosedError{Refusal: gate.BudgetUnknown, Message: "unknown"},
			fmt.Errorf("claim: %w", pause.ErrPaused),
			ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "claims per client IP", time.Second),
			ratelimit.Unavailable(errors.New("redis down")),
			fmt.Errorf("replace: %w", txmgr.ErrNoFlight),
			fmt.Errorf("cancel: %w", txmgr.ErrNotReplaceable),
		} {
			n, ok := answers.Named(err)
			e, answered := answers.Error(err)
			if !answered {
				e = edge.AsError(err)
			}
			if !ok || n.Code != e.Code || n.Message != e.Message || n.Fault != (e.Status >= 500) {
				t.Errorf("%v: named %+v (%v), answered %d %s %q", err, n, ok, e.Status, e.Code, e.Message)
			}
		}
	}
	if n, ok := (paying.Answers{}).Named(errors.New("the service's own")); ok {
		t.Errorf("an error of the service's own named here: %+v", n)
	}
}
