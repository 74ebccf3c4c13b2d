package faucet

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/faucetserver"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// api implements the generated strict server; the errors its handlers return are answered by
// answers.go's answer, the faucet's one way from an error to its HTTP answer (the 409 too, whose
// body carries the claim).
type api struct {
	f       *Faucet
	started time.Time
	schema  map[string]int64 // the database's migrations at start (GET /health)
}

var _ faucetserver.StrictServerInterface = (*api)(nil)

func (a *api) Claim(ctx context.Context, req faucetserver.ClaimRequestObject) (faucetserver.ClaimResponseObject, error) {
	if err := a.f.pause.Check(); err != nil {
		return nil, err
	}
	addr, err := parseAddress(req.Body.Address)
	if err != nil {
		return nil, err
	}
	var proof Proof
	if p := req.Body.Pow; p != nil {
		proof.Work = &Solution{Challenge: p.Challenge, Nonce: uint64(p.Nonce)} // the document bounds it to 0..2^53-1
	}
	if req.Body.Captcha != nil {
		proof.Captcha = *req.Body.Captcha
	}
	c, err := a.f.Claim(ctx, addr, proof)
	if waited(err) { // its solution was never checked: not counted against the client's claims
		_ = a.f.perIP.Undo(ctx, ratelimit.ClientKey(edge.ClientIP(ctx), a.f.cfg.Limits.IPv6Prefix))
	}
	var already *AlreadyClaimedError
	if errors.As(err, &already) { // the 409's body carries the claim the address has
		e := answer(err)
		return faucetserver.Claim409JSONResponse{Body: faucetapi.AlreadyClaimed{Code: e.Code, Error: e.Message, Claim: toAPI(already.Claim)}}, nil
	}
	if err != nil {
		return nil, err
	}
	return faucetserver.Claim202JSONResponse{Body: toAPI(c)}, nil
}

func (a *api) GetChallenge(ctx context.Context, req faucetserver.GetChallengeRequestObject) (faucetserver.GetChallengeResponseObject, error) {
	addr, err := parseAddress(req.Params.Address)
	if err != nil {
		return nil, err
	}
	c, err := a.f.Challenge(ctx, addr)
	if err != nil {
		return nil, err
	}
	return faucetserver.GetChallenge200JSONResponse{Body: toChallenge(c), Headers: faucetserver.GetChallenge200ResponseHeaders{CacheControl: edge.Omitted("no-store")}}, nil
}

func (a *api) GetClaimStatus(ctx context.Context, req faucetserver.GetClaimStatusRequestObject) (faucetserver.GetClaimStatusResponseObject, error) {
	addr, err := parseAddress(req.Params.Address)
	if err != nil {
		return nil, err
	}
	c, err := a.f.Status(ctx, addr)
	if err != nil {
		return nil, err
	}
	return faucetserver.GetClaimStatus200JSONResponse{Body: toAPI(c)}, nil
}

func (a *api) GetHealth(ctx context.Context, req faucetserver.GetHealthRequestObject) (faucetserver.GetHealthResponseObject, error) {
	f := a.f
	balance, open, reachable := f.gate.State()
	next, inFlight := f.tx.State()
	h := faucetapi.Health{
		Status:    faucetapi.Healthy,
		Version:   buildversion.String(),
		Schema:    edge.Schema(a.schema),
		Faucet:    f.tx.From().Hex(),
		Balance:   "0",
		Threshold: f.cfg.Wallet.MinBalance.String(),
		Amount:    f.claimAmount().String(),
		ChainId:   int64(f.chainID),
		NextNonce: int64(next),
		InFlight:  inFlight,
		Uptime:    int(time.Since(a.started) / time.Second),
	}
	if balance != nil {
		h.Balance = balance.String()
	}
	if !open || !reachable {
		h.Status = faucetapi.Degraded
	}
	return faucetserver.GetHealth200JSONResponse{Body: h}, nil
}

// GetReady is the readiness probe: 503 while the gate is closed, the spend limit reached or the
// chain unreachable. It is
// answered, not logged, however often a load balancer asks.
func (a *api) GetReady(ctx context.Context, req faucetserver.GetReadyRequestObject) (faucetserver.GetReadyResponseObject, error) {
	_, open, reachable := a.f.gate.State()
	switch {
	case a.f.pause.State().Paused:
		return faucetserver.GetReady503JSONResponse{Body: faucetapi.NotReadyError{Code: edge.CodePaused, Error: "an operator paused this replica"}}, nil
	case !reachable:
		return faucetserver.GetReady503JSONResponse{Body: faucetapi.NotReadyError{Code: edge.CodeChainUnavailable, Error: "the chain is unreachable"}}, nil
	case !open:
		return faucetserver.GetReady503JSONResponse{Body: faucetapi.NotReadyError{Code: CodeFaucetBalanceLow, Error: "the faucet balance is under MIN_FAUCET_BALANCE"}}, nil
	case a.f.affordable(a.f.claimAmount(), plainTransferGas) != nil:
		return faucetserver.GetReady503JSONResponse{Body: faucetapi.NotReadyError{Code: CodeFaucetBalanceLow, Error: "the faucet holds less than one claim"}}, nil
	case a.f.gate.SpendReached():
		return faucetserver.GetReady503JSONResponse{Body: faucetapi.NotReadyError{Code: CodeSpendLimitReached, Error: "the faucet has spent FAUCET_SPEND_LIMIT for now"}}, nil
	}
	return faucetserver.GetReady200JSONResponse{Body: faucetapi.Ready{Ready: true}}, nil
}

// waited reports whether err is a claim the faucet had no turn to check (PowBusy, PowInFlight):
// the client sends it again after Retry-After, and that costs it no claim of its per-IP limit.
func waited(err error) bool {
	var ce *ClaimError
	return errors.As(err, &ce) && (ce.Reason == PowBusy || ce.Reason == PowInFlight)
}

// parseAddress accepts any letter case; a mixed-case address must carry its EIP-55 checksum
// (a typo in a mixed-case address is caught, not paid). The zero address is refused.
func parseAddress(s string) (common.Address, error) {
	a, err := address.ParseNonZero(s)
	switch {
	case errors.Is(err, address.ErrZero):
		return a, edge.InvalidRequest("address is the zero address")
	case err != nil:
		return a, edge.InvalidRequest("address: %v", err)
	}
	return a, nil
}

// walletRoutes are the operator's routes of the faucet's wallet (service/edge/wallet); its
// transactions are those of its claims (store.go).
func (f *Faucet) walletRoutes() *wallet.Routes {
	return &wallet.Routes{Switch: f.pause,
		Wallet: func() (*txmgr.Manager, *gate.Gate, error) { return f.tx, f.gate, nil },
		List: func(ctx context.Context, w common.Address, q txmgr.PageQuery) (txmgr.Page, error) {
			return f.store.listOf(ctx, key(w), q)
		}}
}
