package funding

import (
	"context"
	"errors"
	"math/big"
)

// A reveal paid by a sponsor (its accounts: accounts.go): who the payer is (Check, before
// anything is read), then the worst case reserved once the gas limit is known (Reserve, given
// back by Release when the reveal is not sent), then the debit once mined (Settle).

// payer is the sponsor paying for a reveal, and the voucher it pays through (none with its key)
// with the voucher's allowance.
type payer struct {
	sponsor   string
	voucher   string
	allowance *big.Int // nil with the key
}

// sponsorPayment is a reveal a sponsor pays for, by its key or its voucher.
type sponsorPayment struct {
	free
	accounts *Accounts
	rv       Reveal
	payer    payer
}

func (*sponsorPayment) By() string { return Sponsor }

// bySponsorKey is Check for a reveal carrying a sponsor's key: the relayer takes sponsors, the
// reveal pays no fee besides, and the key is a sponsor's, not revoked.
func (f *Funding) bySponsorKey(ctx context.Context, rv Reveal, o Offer) (Payment, error) {
	if !f.cfg.Sponsors {
		return nil, refuse(SponsorsNotAccepted, "this relayer takes no sponsors (RELAYER_FUNDING): send the reveal without %s", SponsorKeyHeader)
	}
	if o.Fee != nil || o.Voucher != nil {
		return nil, ErrOnePayer
	}
	sp, err := f.SponsorByKey(ctx, o.SponsorKey)
	if err != nil {
		return nil, err
	}
	if sp.Revoked() {
		return nil, refuse(SponsorRevoked, "the sponsor's key was revoked: it pays for no reveal")
	}
	return &sponsorPayment{accounts: f.accounts, rv: rv, payer: payer{sponsor: sp.ID}}, nil
}

// SponsorByKey is the sponsor whose key this is; a key that is no sponsor's is refused.
func (f *Funding) SponsorByKey(ctx context.Context, key string) (Account, error) {
	sp, err := f.accounts.ByKey(ctx, key)
	if errors.Is(err, ErrNoSponsor) {
		return sp, refuse(SponsorKeyUnknown, "the %s is no sponsor's", SponsorKeyHeader)
	}
	return sp, err
}

// Reserve holds the reveal's worst case of its sponsor's balance (within its voucher's
// allowance), given back by Release when the reveal stops before its send, and settled once its
// transaction is mined.
func (p *sponsorPayment) Reserve(ctx context.Context, worst *big.Int) error {
	if allowance := p.payer.allowance; allowance != nil && allowance.Cmp(worst) < 0 {
		return refuse(VoucherAllowanceLow, "the voucher allows %s wei, less than this reveal's worst case of %s wei", allowance, worst)
	}
	return p.accounts.reserve(ctx, p.rv.Nullifier, p.payer, worst)
}

// Release gives back what Reserve held.
func (p *sponsorPayment) Release(ctx context.Context) error {
	return p.accounts.release(ctx, p.rv.Nullifier)
}
