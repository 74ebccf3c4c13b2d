package relayer

import (
	"time"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/gen/relayerserver"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

// keyUnavailable is the answer to a reveal while the relayer has no operator set up.
func keyUnavailable() *RevealError {
	return &RevealError{Reason: OperatorKeyUnavailable, Retry: time.Second,
		Message: "this relayer replica is a standby: it is starting, or every operator key is leased by another replica; send the request to another replica"}
}

// standbyHealth is GET /health while the relayer has no operator set up.
func (a *api) standbyHealth() relayerserver.GetHealthResponseObject {
	return relayerserver.GetHealth200JSONResponse{Body: relayerapi.Health{Status: relayerapi.Standby, Version: buildversion.String(), Balance: "0",
		Threshold: a.r.cfg.Operator.MinBalance.String(), ChainId: int64(a.r.chainID), Uptime: int(time.Since(a.started) / time.Second)}}
}
