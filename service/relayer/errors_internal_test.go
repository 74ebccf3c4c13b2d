package relayer

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
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// Every reason the domain code can return has its code (errors.go) and its status (answers.go);
// a sent transaction's hash, Retry-After and the cause travel with it.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := NullifierUsed; r < reasonsEnd; r++ {
		if e := answer(&RevealError{Reason: r, Message: "m"}); r.Code() == "" || e.Code != r.Code() || e.Status < 400 || e.Status != statuses[r.Code()] {
			t.Errorf("reason %d: no HTTP answer (%d %s)", r, e.Status, e.Code)
		}
	}
	for r := funding.PaymentRequired; r.Code() != ""; r++ {
		if e := answer(&funding.Refusal{Reason: r, Message: "m"}); e.Code != r.Code() || e.Status < 400 || e.Status >= 500 || e.Status != statuses[r.Code()] {
			t.Errorf("funding's reason %d: no HTTP answer (%d %s)", r, e.Status, e.Code)
		}
	}
	cause := errors.New("rpc down")
	e := answer(&RevealError{Reason: TxPending, Message: "m", TxHash: "0xab", Cause: cause, Retry: 2 * time.Second})
	if e.Status != http.StatusGatewayTimeout || e.Code != CodeTxPending || e.Details["txHash"] != "0xab" || e.RetryAfter != 2*time.Second || !errors.Is(e, cause) {
		t.Fatalf("TxPending answered %#v", e)
	}
}

// answer is the relayer's one way out: every error it can meet, the shared wallet's refusals, the
// shared parts', an operator's route naming no sponsor and an answer the edge built included, has
// its answer; an error it does not know, or a reason without a status, is a 500 that shows nothing
// of its cause.
func TestAnswerMapsEveryErrorTheRelayerMeets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err    error
		status int
		code   string
		retry  bool
	}{
		{&gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"}, 503, CodeOperatorBalanceLow, false},
		{&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent", RetryAfter: time.Minute}, 503, CodeSpendLimitReached, true},
		{&gate.ClosedError{Refusal: gate.BudgetUnknown, Message: "unknown"}, 503, edge.CodeUnavailable, false},
		{pause.ErrPaused, 503, edge.CodePaused, true},
		{txmgr.ErrNoFlight, 404, edge.CodeNotFound, false},
		{txmgr.ErrNotReplaceable, 409, edge.CodeNotReplaceable, false},
		{ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "reveals per recipient", time.Second), 429, edge.CodeRateLimited, true},
		{ratelimit.Unavailable(errors.New("redis down")), 503, edge.CodeUnavailable, true},
		{&http.MaxBytesError{Limit: 10}, 413, edge.CodePayloadTooLarge, false},
		{funding.ErrNoSponsor, 404, edge.CodeNotFound, false},
		{edge.InvalidRequest("voucherSigner: not a valid address"), 400, edge.CodeInvalidRequest, false},
		{errors.New("secret detail"), 500, edge.CodeInternal, false},
		{&RevealError{Reason: reasonsEnd, Message: "secret detail"}, 500, edge.CodeInternal, false},
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

// A reveal's spans and outcome metric name every error by the code it is answered with, and call
// a fault what is answered 5xx: the domain's naming (named) and the edge's answer agree.
func TestRefusalsNameTheCodeTheyAreAnsweredWith(t *testing.T) {
	t.Parallel()
	errs := []error{
		&gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"},
		&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent"},
		&gate.ClosedError{Refusal: gate.BudgetUnknown, Message: "unknown"},
		pause.ErrPaused,
		ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "reveals per recipient", time.Second),
		ratelimit.Unavailable(errors.New("redis down")),
		errors.New("a fault"),
		&RevealError{Reason: reasonsEnd, Message: "a reason without an answer"},
	}
	for r := NullifierUsed; r < reasonsEnd; r++ {
		errs = append(errs, &RevealError{Reason: r, Message: "m"})
	}
	for r := funding.PaymentRequired; r.Code() != ""; r++ {
		errs = append(errs, &funding.Refusal{Reason: r, Message: "m"})
	}
	for _, err := range errs {
		e, n := answer(err), named(err)
		if n.Code != e.Code || n.Message != e.Message || n.Fault != (e.Status >= 500) {
			t.Errorf("%v: named %+v, answered %d %s %q", err, n, e.Status, e.Code, e.Message)
		}
	}
}
