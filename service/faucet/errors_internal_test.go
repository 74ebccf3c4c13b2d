package faucet

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/platform"
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
	var e *platform.Error
	if !errors.As(httpError(&ClaimError{Reason: WalletEmpty, Message: "m", RetryAfter: 3 * time.Second, Cause: cause}), &e) ||
		e.Status != http.StatusServiceUnavailable || e.Code != CodeFaucetBalanceLow || e.RetryAfter != 3*time.Second || !errors.Is(e, cause) {
		t.Fatalf("WalletEmpty answered %#v", e)
	}
	if got := codeOf(&AlreadyClaimedError{}); got != CodeAlreadyClaimed {
		t.Fatalf("already claimed: %s", got)
	}
}
