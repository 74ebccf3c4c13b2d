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
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// Every reason the domain code can return has its code (errors.go) and its status (answers.go);
// Retry-After and the cause travel with it; a claim that exists is 409 ALREADY_CLAIMED.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := ClaimRejected; r < reasonsEnd; r++ {
		if e := answer(&ClaimError{Reason: r, Message: "m"}); r.Code() == "" || e.Code != r.Code() || e.Status < 400 || e.Status != statuses[r] {
			t.Errorf("reason %d: no HTTP answer (%d %s)", r, e.Status, e.Code)
		}
	}
	cause := errors.New("insufficient funds")
	e := answer(&ClaimError{Reason: WalletEmpty, Message: "m", RetryAfter: 3 * time.Second, Cause: cause})
	if e.Status != http.StatusServiceUnavailable || e.Code != CodeFaucetBalanceLow || e.RetryAfter != 3*time.Second || !errors.Is(e, cause) {
		t.Fatalf("WalletEmpty answered %#v", e)
	}
	already := &AlreadyClaimedError{}
	if e := answer(already); e.Status != http.StatusConflict || e.Code != CodeAlreadyClaimed || e.Message != already.Error() {
		t.Fatalf("already claimed: %d %s %q", e.Status, e.Code, e.Message)
	}
}

// answer is the faucet's one way out: every error it can meet, the shared wallet's refusals, the
// shared parts', a claim recorded first by another request and an answer the edge built included,
// has its answer; an error it does not know, or a reason without a status, is a 500 that shows
// nothing of its cause.
func TestAnswerMapsEveryErrorTheFaucetMeets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err    error
		status int
		code   string
		retry  bool
	}{
		{&gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"}, 503, CodeFaucetBalanceLow, false},
		{&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent", RetryAfter: time.Minute}, 503, CodeSpendLimitReached, true},
		{&gate.ClosedError{Refusal: gate.BudgetUnknown, Message: "unknown"}, 503, edge.CodeUnavailable, false},
		{pause.ErrPaused, 503, edge.CodePaused, true},
		{txmgr.ErrNoFlight, 404, edge.CodeNotFound, false},
		{txmgr.ErrNotReplaceable, 409, edge.CodeNotReplaceable, false},
		{errExists, 409, CodeAlreadyClaimed, false},
		{ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "claims in total", time.Second), 429, edge.CodeRateLimited, true},
		{ratelimit.Unavailable(errors.New("redis down")), 503, edge.CodeUnavailable, true},
		{&http.MaxBytesError{Limit: 10}, 413, edge.CodePayloadTooLarge, false},
		{edge.InvalidRequest("address is the zero address"), 400, edge.CodeInvalidRequest, false},
		{errors.New("secret detail"), 500, edge.CodeInternal, false},
		{&ClaimError{Reason: reasonsEnd, Message: "secret detail", RetryAfter: time.Second}, 500, edge.CodeInternal, false},
	} {
		e := answer(c.err)
		if e.Status != c.status || e.Code != c.code || (e.RetryAfter > 0) != c.retry {
			t.Errorf("%v: answered %d %s (Retry-After %v), want %d %s", c.err, e.Status, e.Code, e.RetryAfter, c.status, c.code)
		}
		if e.Status == 500 && (e.Message != "internal error" || e.Cause == nil) {
			t.Errorf("%v: a fault answered %q, cause %v", c.err, e.Message, e.Cause)
		}
	}
}

// The code a span and the outcome metric name is the code the error is answered with, for
// every reason and the refusals the faucet shares: the domain's naming (named) and the edge's
// answer agree.
func TestRefusalsNameTheCodeTheyAreAnsweredWith(t *testing.T) {
	t.Parallel()
	errs := []error{
		&gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"},
		&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent"},
		&gate.ClosedError{Refusal: gate.BudgetUnknown, Message: "unknown"},
		pause.ErrPaused,
		errExists,
		&AlreadyClaimedError{},
		ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "claims in total", time.Second),
		ratelimit.Unavailable(errors.New("redis down")),
		errors.New("a fault"),
		&ClaimError{Reason: reasonsEnd, Message: "a reason without an answer"},
	}
	for r := ClaimRejected; r < reasonsEnd; r++ {
		errs = append(errs, &ClaimError{Reason: r, Message: "m"})
	}
	for _, err := range errs {
		e, n := answer(err), named(err)
		if n.Code != e.Code || n.Message != e.Message || n.Fault != (e.Status >= 500) {
			t.Errorf("%v: named %+v, answered %d %s %q", err, n, e.Status, e.Code, e.Message)
		}
	}
}
