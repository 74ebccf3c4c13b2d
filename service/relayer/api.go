package relayer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/platform"
)

// api implements the generated strict server: the relayer's domain errors become HTTP answers
// here (reasons), the shared layer's (rate limits, the balance gate, bad input) are answered by
// platform.WriteError as they are.
type api struct {
	r       *Relayer
	started time.Time
}

var _ relayerapi.StrictServerInterface = (*api)(nil)

func (a *api) Reveal(ctx context.Context, req relayerapi.RevealRequestObject) (relayerapi.RevealResponseObject, error) {
	res, err := a.r.Reveal(ctx, *req.Body)
	if err != nil {
		return nil, httpError(err)
	}
	return relayerapi.Reveal200JSONResponse(res), nil
}

func (a *api) GetHealth(ctx context.Context, req relayerapi.GetHealthRequestObject) (relayerapi.GetHealthResponseObject, error) {
	balance, open, reachable := a.r.gate.State()
	next, inFlight := a.r.tx.State()
	h := relayerapi.Health{
		Status:    relayerapi.Healthy,
		Operator:  a.r.tx.From().Hex(),
		Balance:   "0",
		Threshold: a.r.cfg.Operator.MinBalance.String(),
		ChainId:   int64(a.r.chainID),
		NextNonce: int64(next),
		InFlight:  inFlight,
		Uptime:    int(time.Since(a.started) / time.Second),
	}
	if balance != nil {
		h.Balance = balance.String()
	}
	if !open || !reachable {
		h.Status = relayerapi.Degraded
	}
	return relayerapi.GetHealth200JSONResponse(h), nil
}

// GetReady is the readiness probe: 503 while the gate is closed, the spend limit reached or the
// chain unreachable. It is
// answered, not logged, however often a load balancer asks.
func (a *api) GetReady(ctx context.Context, req relayerapi.GetReadyRequestObject) (relayerapi.GetReadyResponseObject, error) {
	_, open, reachable := a.r.gate.State()
	switch {
	case !reachable:
		return relayerapi.GetReady503JSONResponse{Code: platform.CodeChainUnavailable, Error: "the chain is unreachable"}, nil
	case !open:
		return relayerapi.GetReady503JSONResponse{Code: CodeOperatorBalanceLow, Error: "the operator balance is under MIN_OPERATOR_BALANCE"}, nil
	case a.r.gate.SpendReached():
		return relayerapi.GetReady503JSONResponse{Code: CodeSpendLimitReached, Error: "the operator has spent OPERATOR_SPEND_LIMIT for now"}, nil
	}
	return relayerapi.GetReady200JSONResponse{Ready: true}, nil
}

// reasons is the one table from the relayer's reasons (errors.go) to HTTP statuses and codes.
var reasons = map[Reason]struct {
	status int
	code   string
}{
	NullifierUsed:    {http.StatusConflict, CodeNullifierUsed},
	UnknownRoot:      {http.StatusUnprocessableEntity, CodeUnknownRoot},
	InvalidProof:     {http.StatusUnprocessableEntity, CodeInvalidProof},
	InvalidRecipient: {http.StatusUnprocessableEntity, CodeInvalidRecipient},
	SignalMismatch:   {http.StatusUnprocessableEntity, CodeSignalMismatch},
	RevealRejected:   {http.StatusUnprocessableEntity, CodeRevealRejected},
	RootExpiring:     {http.StatusConflict, CodeRootExpiring},
	ChainUnavailable: {http.StatusBadGateway, platform.CodeChainUnavailable},
	TxPending:        {http.StatusGatewayTimeout, CodeTxPending},
	TxReverted:       {http.StatusUnprocessableEntity, CodeTxReverted},
}

// httpError is err as the relayer answers it: a *RevealError through reasons, anything else
// (the shared layer's *platform.Error, or a fault: 500) as it is.
func httpError(err error) error {
	var re *RevealError
	if !errors.As(err, &re) {
		return err
	}
	m, ok := reasons[re.Reason]
	if !ok {
		return platform.Internal(fmt.Errorf("no HTTP mapping for reason %d: %w", re.Reason, err))
	}
	return &platform.Error{Status: m.status, Code: m.code, Message: re.Message, TxHash: re.TxHash, Cause: re.Cause}
}

// codeOf is the code err is answered with (metrics, spans).
func codeOf(err error) string { return platform.AsError(httpError(err)).Code }
