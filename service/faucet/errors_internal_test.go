package faucet

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Every reason the domain code can return has its row in api.go's table; Retry-After and the
// cause travel with it; a claim that exists is 409 ALREADY_CLAIMED.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := ClaimRejected; r < reasonsEnd; r++ {
		if m, ok := reasons[r]; !ok || m.Code == "" || m.Status < 400 {
			t.Errorf("reason %d: no HTTP answer", r)
		}
	}
	cause := errors.New("insufficient funds")
	var e *edge.Error
	if !errors.As(httpError(&ClaimError{Reason: WalletEmpty, Message: "m", RetryAfter: 3 * time.Second, Cause: cause}), &e) ||
		e.Status != http.StatusServiceUnavailable || e.Code != CodeFaucetBalanceLow || e.RetryAfter != 3*time.Second || !errors.Is(e, cause) {
		t.Fatalf("WalletEmpty answered %#v", e)
	}
	if got := refusalOf(&AlreadyClaimedError{}).Code; got != CodeAlreadyClaimed {
		t.Fatalf("already claimed: %s", got)
	}
}

// The code a span and the outcome metric name is the code the error is answered with, for
// every reason and the refusals the faucet shares.
func TestRefusalsNameTheCodeTheyAreAnsweredWith(t *testing.T) {
	t.Parallel()
	errs := []error{
		&gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"},
		&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent"},
		pause.ErrPaused,
		errExists,
		ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "claims in total", time.Second),
		ratelimit.Unavailable(errors.New("redis down")),
		errors.New("a fault"),
		&ClaimError{Reason: reasonsEnd, Message: "a reason without an answer"},
	}
	for r := ClaimRejected; r < reasonsEnd; r++ {
		errs = append(errs, &ClaimError{Reason: r, Message: "m"})
	}
	for _, err := range errs {
		e, f := edge.AsError(httpError(err)), refusalOf(err)
		if f.Code != e.Code || f.Message != e.Message || (f.Status >= 500) != (e.Status >= 500) {
			t.Errorf("%v: named %+v, answered %d %s %q", err, f, e.Status, e.Code, e.Message)
		}
	}
}
