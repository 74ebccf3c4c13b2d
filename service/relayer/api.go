package relayer

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/gen/relayerserver"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// api implements the generated strict server; the errors its handlers return are answered by
// answers.go's answer, the relayer's one way from an error to its HTTP answer.
type api struct {
	r       *Relayer
	started time.Time
	schema  map[string]int64 // the database's migrations at start (GET /health)
}

var _ relayerserver.StrictServerInterface = (*api)(nil)

func (a *api) Reveal(ctx context.Context, req relayerserver.RevealRequestObject) (relayerserver.RevealResponseObject, error) {
	if err := a.r.pause.Check(); err != nil {
		return nil, err
	}
	if !a.r.isSet() {
		return nil, keyUnavailable()
	}
	res, err := a.r.revealWire(ctx, *req.Body)
	if err != nil {
		return nil, err // answered by the strict handler's one mapping (answer)
	}
	return relayerserver.Reveal200JSONResponse{Body: res}, nil
}

// Quote answers the fee a reveal pays, signed (funding.Quote). A standby answers too: the quote's
// key and receiver are the fleet's, not a leased key's.
func (a *api) Quote(ctx context.Context, req relayerserver.QuoteRequestObject) (relayerserver.QuoteResponseObject, error) {
	q, err := a.r.quoteWire(ctx, *req.Body)
	if err != nil {
		return nil, err
	}
	return relayerserver.Quote200JSONResponse{Body: q}, nil
}

// GetReveal answers where a reveal stands, from the record the relayers share (sent.go): any
// replica, standing by or not, answers for the whole fleet.
func (a *api) GetReveal(ctx context.Context, req relayerserver.GetRevealRequestObject) (relayerserver.GetRevealResponseObject, error) {
	nullifier := common.HexToHash(req.Nullifier) // 0x and 64 hex digits: the document's pattern, checked before
	o, err := a.r.sentTxs.status(ctx, nullifier)
	if err != nil {
		return nil, fmt.Errorf("read the reveal's record: %w", err)
	}
	st := relayerapi.RevealStatus{Nullifier: nullifier.Hex(), State: relayerapi.RevealStatusState(o.state)} // status answers pending, mined, reverted or unknown
	if st.State != stateUnknown {
		hash := o.txHash.Hex()
		st.TxHash = &hash
	}
	if st.State == stateMined || st.State == stateReverted {
		block, gas := int64(o.blockNumber), strconv.FormatUint(o.gasUsed, 10)
		st.BlockNumber, st.GasUsed = &block, &gas
	}
	if st.State == stateReverted {
		st.Reason = &o.reason
	}
	return relayerserver.GetReveal200JSONResponse{Body: st}, nil
}

func (a *api) GetHealth(ctx context.Context, req relayerserver.GetHealthRequestObject) (relayerserver.GetHealthResponseObject, error) {
	if !a.r.isSet() {
		return a.standbyHealth(), nil
	}
	balance, open, reachable := a.r.gate.State()
	next, inFlight := a.r.tx.State()
	h := relayerapi.Health{
		Status:    relayerapi.Healthy,
		Version:   buildversion.String(),
		Schema:    edge.Schema(a.schema),
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
	if !open || !reachable || !a.r.holdsKey() {
		h.Status = relayerapi.Degraded
	}
	return relayerserver.GetHealth200JSONResponse{Body: h}, nil
}

// GetReady is the readiness probe: 503 while paused, standing by, the gate closed, the spend limit
// reached or the chain unreachable (notReady). It is answered, not logged, however often a load
// balancer asks.
func (a *api) GetReady(ctx context.Context, req relayerserver.GetReadyRequestObject) (relayerserver.GetReadyResponseObject, error) {
	if code, message := a.r.notReady(); code != "" {
		return relayerserver.GetReady503JSONResponse{Body: relayerapi.NotReadyError{Code: code, Error: message}}, nil
	}
	return relayerserver.GetReady200JSONResponse{Body: relayerapi.Ready{Ready: true}}, nil
}

// GetStatus is how the relayer stands, for clients choosing among relayers: from memory, no
// chain call (status.go).
func (a *api) GetStatus(ctx context.Context, req relayerserver.GetStatusRequestObject) (relayerserver.GetStatusResponseObject, error) {
	return relayerserver.GetStatus200JSONResponse{Body: toStatus(a.r.status()),
		Headers: relayerserver.GetStatus200ResponseHeaders{CacheControl: edge.Omitted(statusCacheControl)}}, nil
}

// GetSponsor is the account of the sponsor whose key the request carries (a revoked one's too).
func (a *api) GetSponsor(ctx context.Context, _ relayerserver.GetSponsorRequestObject) (relayerserver.GetSponsorResponseObject, error) {
	sp, err := a.r.funding.SponsorByKey(ctx, sponsorKeyOf(ctx))
	if err != nil {
		return nil, err
	}
	return relayerserver.GetSponsor200JSONResponse{Body: toSponsor(sp)}, nil
}

// CreateSponsor, ListSponsors, CreditSponsor and RevokeSponsor are the operator's routes of the
// sponsors who pay ahead (funding.Accounts).
func (a *api) CreateSponsor(ctx context.Context, req relayerserver.CreateSponsorRequestObject) (relayerserver.CreateSponsorResponseObject, error) {
	var signer common.Address
	if s := req.Body.VoucherSigner; s != nil {
		var err error
		if signer, err = address.ParseNonZero(*s); err != nil {
			return nil, edge.InvalidRequest("voucherSigner: not a valid address")
		}
	}
	sp, key, err := a.r.funding.Accounts().Create(ctx, req.Body.Name, signer)
	if err != nil {
		return nil, err
	}
	return relayerserver.CreateSponsor201JSONResponse{Body: relayerapi.SponsorCreated{Sponsor: toSponsor(sp), Key: key}}, nil
}

func (a *api) ListSponsors(ctx context.Context, _ relayerserver.ListSponsorsRequestObject) (relayerserver.ListSponsorsResponseObject, error) {
	list, err := a.r.funding.Accounts().List(ctx)
	if err != nil {
		return nil, err
	}
	out := relayerapi.SponsorList{Sponsors: make([]relayerapi.Sponsor, len(list))}
	for i, sp := range list {
		out.Sponsors[i] = toSponsor(sp)
	}
	return relayerserver.ListSponsors200JSONResponse{Body: out}, nil
}

func (a *api) CreditSponsor(ctx context.Context, req relayerserver.CreditSponsorRequestObject) (relayerserver.CreditSponsorResponseObject, error) {
	amount, ok := new(big.Int).SetString(req.Body.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(maxUint256) > 0 {
		return nil, edge.InvalidRequest("amount must be a decimal integer of wei from 1 to 2^256-1")
	}
	key := ""
	if req.Params.IdempotencyKey != nil {
		key = *req.Params.IdempotencyKey
	}
	sp, err := a.r.funding.Accounts().Credit(ctx, req.Id, amount, key)
	if err != nil {
		return nil, err
	}
	return relayerserver.CreditSponsor200JSONResponse{Body: toSponsor(sp)}, nil
}

func (a *api) RevokeSponsor(ctx context.Context, req relayerserver.RevokeSponsorRequestObject) (relayerserver.RevokeSponsorResponseObject, error) {
	sp, err := a.r.funding.Accounts().Revoke(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return relayerserver.RevokeSponsor200JSONResponse{Body: toSponsor(sp)}, nil
}

// walletRoutes are the operator's routes of the wallet the relayer pays from (service/edge/wallet):
// a replica standing by has no wallet of its own, and answers 503 OPERATOR_KEY_UNAVAILABLE.
func (r *Relayer) walletRoutes() *wallet.Routes {
	return &wallet.Routes{Switch: r.pause, List: r.sentTxs.list,
		Wallet: func() (*txmgr.Manager, *gate.Gate, error) {
			if !r.isSet() {
				return nil, nil, keyUnavailable()
			}
			return r.tx, r.gate, nil
		}}
}
