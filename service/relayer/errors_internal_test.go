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
)

// Every reason the domain code can return has its row in api.go's table; a sent transaction's
// hash and the cause travel with it.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := NullifierUsed; r < reasonsEnd; r++ {
		if m, ok := reasons[r]; !ok || m.Code == "" || m.Status < 400 {
			t.Errorf("reason %d: no HTTP answer", r)
		}
	}
	cause := errors.New("rpc down")
	var e *edge.Error
	if !errors.As(httpError(&RevealError{Reason: TxPending, Message: "m", TxHash: "0xab", Cause: cause}), &e) ||
		e.Status != http.StatusGatewayTimeout || e.Code != CodeTxPending || e.Details["txHash"] != "0xab" || !errors.Is(e, cause) {
		t.Fatalf("TxPending answered %#v", e)
	}
}

// A reveal's spans and outcome metric name every error by the code it is answered with, and call
// a fault what is answered 5xx: the domain's refusalOf and the edge's httpError agree.
func TestRefusalsNameTheCodeTheyAreAnsweredWith(t *testing.T) {
	t.Parallel()
	errs := []error{
		&gate.ClosedError{Refusal: gate.BalanceLow, Message: "low"},
		&gate.ClosedError{Refusal: gate.BudgetSpent, Message: "spent"},
		pause.ErrPaused,
		ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "reveals per recipient", time.Second),
		ratelimit.Unavailable(errors.New("redis down")),
		errors.New("a fault"),
		&RevealError{Reason: reasonsEnd, Message: "a reason without an answer"},
	}
	for r := NullifierUsed; r < reasonsEnd; r++ {
		errs = append(errs, &RevealError{Reason: r, Message: "m"})
	}
	for _, err := range errs {
		e, f := edge.AsError(httpError(err)), refusalOf(err)
		if f.Code != e.Code || f.Message != e.Message || (f.Status >= 500) != (e.Status >= 500) {
			t.Errorf("%v: named %+v, answered %d %s %q", err, f, e.Status, e.Code, e.Message)
		}
	}
}
