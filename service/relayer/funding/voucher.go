package funding

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
)

// A voucher is a sponsor's promise to pay for one reveal, up to an allowance, until it expires,
// signed by the sponsor's voucher signer (EIP-712, in the relayer's domain: package voucher), so that
// a card carries its own postage without the sponsor's key. A voucher is bound to the reveal
// whose nullifier is its id, unless it is a bearer voucher (a type of its own, which the
// signature covers). Its id is recorded used in the database transaction that reserves its
// reveal's worst case (Accounts.useVoucher), and forgotten with the reservation if that
// reveal is not sent.

// Voucher is a voucher as the edge reads it: its terms and its signature.
type Voucher struct {
	voucher.Terms
	Sig []byte // r ‖ s ‖ v, v 0 or 1
}

// byVoucher is Check for a reveal carrying a voucher: the relayer takes sponsors, the reveal
// carries nothing else that pays, the voucher is for this reveal (a bearer one, or one whose id
// is the reveal's nullifier), its sponsor's signer's signature over its terms, unexpired, and
// the sponsor is not revoked. Whether it was used is decided with its reservation (Reserve).
func (f *Funding) byVoucher(ctx context.Context, rv Reveal, o Offer) (Payment, error) {
	v := o.Voucher
	if !f.cfg.Sponsors {
		return nil, refuse(SponsorsNotAccepted, "this relayer takes no sponsors (RELAYER_FUNDING): send the reveal without the voucher")
	}
	if o.Fee != nil {
		return nil, ErrOnePayer
	}
	if !v.Bearer && v.ID != rv.Nullifier {
		return nil, refuse(VoucherInvalid, "the voucher is bound to another reveal (its id is not this reveal's nullifier): it pays for that card's reveal alone")
	}
	sp, err := f.accounts.get(ctx, v.Sponsor)
	if errors.Is(err, ErrNoSponsor) {
		return nil, refuse(VoucherInvalid, "the voucher names no sponsor of this relayer")
	}
	if err != nil {
		return nil, err
	}
	if err := f.checkVoucherSignature(v, sp); err != nil {
		return nil, err
	}
	if time.Now().Unix() > v.ExpiresAt {
		return nil, refuse(VoucherExpired, "the voucher expired at %s", time.Unix(v.ExpiresAt, 0).UTC().Format(time.RFC3339))
	}
	if sp.Revoked() {
		return nil, refuse(SponsorRevoked, "the voucher's sponsor was revoked: it pays for no reveal")
	}
	return &sponsorPayment{accounts: f.accounts, rv: rv, payer: payer{sponsor: sp.ID, voucher: v.ID.Hex(), allowance: v.Allowance}}, nil
}

// checkVoucherSignature refuses a voucher not signed by its sponsor's voucher signer over these
// terms (or whose sponsor takes no vouchers).
func (f *Funding) checkVoucherSignature(v *Voucher, sp Account) error {
	if sp.Signer == (common.Address{}) {
		return refuse(VoucherInvalid, "the voucher's sponsor has no voucher signer: it pays with its key alone")
	}
	digest, err := voucher.Digest(f.chainID, f.vault, v.Terms)
	if err != nil { // the edge refused what has no digest
		return refuse(VoucherInvalid, "the voucher: %v", err)
	}
	if signer, err := typeddata.Signer(digest, v.Sig); err != nil || signer != sp.Signer {
		return refuse(VoucherInvalid, "the voucher is not signed by its sponsor's voucher signer over these terms")
	}
	return nil
}
