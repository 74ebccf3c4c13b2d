package funding

import (
	"context"
	"database/sql"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// Funding is who pays for the relayer's reveals: for each reveal, the payment that pays for it
// (Check), before anything is read from the chain; the quotes a fee is paid on (Quote); the
// sponsors' accounts (Accounts), whose reservations are settled with the reveal's outcome
// (Settle).
type Funding struct {
	cfg      Config
	chainID  uint64
	vault    common.Address
	chain    Chain
	figures  figures
	accounts *Accounts // nil: no database (a sponsor's payment is then never asked for)
}

// Chain is what quotes and fee checks read of the chain. Its errors are passed on as they are:
// the relayer's reader says them as the chain's unavailability.
type Chain interface {
	// FeePerGas is what the chain charges a transaction now: its base fee and the tip the node
	// suggests.
	FeePerGas(ctx context.Context) (*big.Int, error)
	// NextIndex is the tree's next leaf index: where a change inserted now would go.
	NextIndex(ctx context.Context) (uint64, error)
}

// New is the funding of the relayer of chainID's vault, paid as cfg says, reading chain, with
// the sponsors' accounts.
func New(cfg Config, chainID uint64, vault common.Address, chain Chain, accounts *Accounts) *Funding {
	return &Funding{cfg: cfg, chainID: chainID, vault: vault, chain: chain, accounts: accounts}
}

// Accounts are the sponsors' accounts.
func (f *Funding) Accounts() *Accounts { return f.accounts }

// Reveal is what funding reads of a reveal it pays for.
type Reveal struct {
	Nullifier common.Hash
	Token     common.Address
	Amount    *big.Int
	Partial   bool // it inserts a change note
}

// Offer is what a reveal request offers to pay with, as the edge reads it: a fee, a sponsor's key
// or a sponsor's voucher, one at most; none: the treasury.
type Offer struct {
	Fee        *PaidFee // a fee out of the revealed tokens, on a quote
	SponsorKey string   // X-Sponsor-Key (never logged)
	Voucher    *Voucher // a sponsor's voucher
}

// SponsorKeyHeader carries a sponsor's key (openapi/relayer.yaml's sponsorKey).
const SponsorKeyHeader = "X-Sponsor-Key"

// Payment is how one reveal is paid for, as Check found it. The reveal's steps ask it what its
// way to pay checks: a fee its quote's terms (Terms), then whether it covers the gas simulated
// (CoversGas); a sponsor a reservation of the worst case (Reserve), given back if the reveal is
// not sent (Release) and settled with its outcome otherwise (Funding.Settle).
type Payment interface {
	// By is who pays, as RELAYER_FUNDING names it: Treasury, Fee or Sponsor.
	By() string
	// Terms checks a payment's terms against the reveal, once its proof is known to bind them.
	Terms(ctx context.Context) error
	// CoversGas checks that the payment covers gas, the gas the reveal was estimated to use.
	CoversGas(ctx context.Context, gas uint64) error
	// Reserve holds worst wei, the reveal's worst case, for it.
	Reserve(ctx context.Context, worst *big.Int) error
	// Release gives back what Reserve held, for a reveal not sent.
	Release(ctx context.Context) error
}

// Check is the payment of a reveal offering o, or why the relayer's funding does not pay for it:
// a sponsor's key or voucher it does not take, or that is no sponsor's; no fee where the
// treasury pays for none; a fee where the relayer takes none. It reads no chain.
func (f *Funding) Check(ctx context.Context, rv Reveal, o Offer) (Payment, error) {
	switch {
	case o.SponsorKey != "":
		return f.bySponsorKey(ctx, rv, o)
	case o.Voucher != nil:
		return f.byVoucher(ctx, rv, o)
	case o.Fee == nil && !f.cfg.Treasury:
		return nil, refuse(PaymentRequired, "%s", f.paymentRequired())
	case o.Fee != nil && !f.cfg.Fees:
		return nil, refuse(FeesNotAccepted, "this relayer takes no fees (RELAYER_FUNDING): send the reveal without one")
	case o.Fee != nil:
		return &feePayment{f: f, rv: rv, fee: o.Fee}, nil
	}
	return treasury{}, nil
}

// paymentRequired says how a reveal gets paid for where the treasury pays for none.
func (f *Funding) paymentRequired() string {
	var ways []string
	if f.cfg.Fees {
		ways = append(ways, "ask POST /quote for a fee, prove the reveal with it and send it with fee")
	}
	if f.cfg.Sponsors {
		ways = append(ways, "send it with a sponsor's "+SponsorKeyHeader)
	}
	return "this relayer does not pay for reveals: " + strings.Join(ways, ", or ")
}

// Settle ends, in tx, the transaction that stores how nullifier's reveal ended, what a sponsor
// holds for it (Accounts.settle): paid (mined, reverted too) it is debited cost, or its worst case
// where cost is nil; not paid (never mined), all is given back. It answers the debit (nil: no
// sponsor paid).
func (f *Funding) Settle(ctx context.Context, tx *sql.Tx, nullifier common.Hash, paid bool, cost *big.Int) (*Debit, error) {
	if f.accounts == nil {
		return nil, nil
	}
	return f.accounts.settle(ctx, tx, nullifier, paid, cost)
}

// free is the part of a payment that has nothing of its own to check or hold.
type free struct{}

func (free) Terms(context.Context) error             { return nil }
func (free) CoversGas(context.Context, uint64) error { return nil }
func (free) Reserve(context.Context, *big.Int) error { return nil }
func (free) Release(context.Context) error           { return nil }

// treasury is a reveal the operator's wallet pays for, with nothing back.
type treasury struct{ free }

func (treasury) By() string { return Treasury }
