package relayer

import (
	"errors"
	"net/http"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/platform"
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
	var e *platform.Error
	if !errors.As(httpError(&RevealError{Reason: TxPending, Message: "m", TxHash: "0xab", Cause: cause}), &e) ||
		e.Status != http.StatusGatewayTimeout || e.Code != CodeTxPending || e.Details["txHash"] != "0xab" || !errors.Is(e, cause) {
		t.Fatalf("TxPending answered %#v", e)
	}
}
