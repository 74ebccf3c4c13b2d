package relayer

import (
	"errors"
	"net/http"
	"testing"

	"github.com/seed018cc74c/vaultd/service/platform"
)

// Every reason the domain code can return has its row in api.go's table, with a status of the
// right class; a sent transaction's hash and the cause travel with it.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	for r := NullifierUsed; r <= TxReverted; r++ {
		m, ok := reasons[r]
		if !ok || m.code == "" || m.status < 400 {
			t.Errorf("reason %d: no HTTP answer", r)
		}
	}
	cause := errors.New("rpc down")
	var e *platform.Error
	if !errors.As(httpError(&RevealError{Reason: TxPending, Message: "m", TxHash: "0xab", Cause: cause}), &e) ||
		e.Status != http.StatusGatewayTimeout || e.Code != CodeTxPending || e.TxHash != "0xab" || !errors.Is(e, cause) {
		t.Fatalf("TxPending answered %#v", e)
	}
	if got := codeOf(chainUnavailable(cause)); got != platform.CodeChainUnavailable {
		t.Fatalf("chain unavailable: %s", got)
	}
	if got := codeOf(&RevealError{Reason: 999}); got != platform.CodeInternal {
		t.Fatalf("an unmapped reason: %s", got)
	}
}
