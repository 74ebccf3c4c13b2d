package relayer

import (
	"context"
	"net/http"
	"time"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
)

// Run is the relayer process (cmd/relayer): it serves on PORT until ctx is done. Until Start has
// the operator set up, the relayer serves as a standby (GET /health 200 with status standby, so
// that a liveness probe keeps it; GET /ready and POST /reveal 503 OPERATOR_KEY_UNAVAILABLE): a
// replica that finds every key of OPERATOR_PRIVATE_KEYS leased stays one until it leases a key.
func Run(ctx context.Context, cfg Config, opts Options) error {
	svc, err := New(ctx, cfg, opts)
	if err != nil {
		return err
	}
	defer svc.Close()
	return svc.Run(ctx)
}

// keyUnavailable is the answer to a reveal while the relayer has no operator set up.
func keyUnavailable() *platform.Error {
	return &platform.Error{Status: http.StatusServiceUnavailable, Code: CodeOperatorKeyUnavailable, RetryAfter: time.Second,
		Message: "this relayer replica is a standby: it is starting, or every operator key is leased by another replica; send the request to another replica"}
}

// standbyHealth is GET /health while the relayer has no operator set up.
func (a *api) standbyHealth() relayerapi.GetHealthResponseObject {
	return relayerapi.GetHealth200JSONResponse{Body: relayerapi.Health{Status: relayerapi.Standby, Balance: "0",
		Threshold: a.r.cfg.Operator.MinBalance.String(), ChainId: int64(a.r.chainID), Uptime: int(time.Since(a.started) / time.Second)}}
}

// standbyReady is GET /ready while the relayer has no operator set up.
func standbyReady() relayerapi.GetReadyResponseObject {
	return relayerapi.GetReady503JSONResponse{Body: relayerapi.NotReadyError{Code: CodeOperatorKeyUnavailable,
		Error: "a standby: starting, or every operator key is leased by another replica"}}
}
