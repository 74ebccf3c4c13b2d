package relayer

import (
	"context"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	vouchers "github.com/seed018cc74c/vaultd/service/vault/voucher"
)

// A voucher is a sponsor's promise to pay for one reveal, up to an allowance, until it expires,
// signed by the sponsor's voucher signer (EIP-712, in the relayer's domain: package voucher), so that
// a card carries its own postage without the sponsor's key. A voucher is bound to the reveal
// whose nullifier is its id, unless it is a bearer voucher (a type of its own, which the
// signature covers). Its id is recorded used in the database transaction that reserves its
// reveal's worst case (sponsorStore.useVoucher), and forgotten with the reservation if that
// reveal is not sent.

// voucher is a voucher as parse reads it.
type voucher struct {
	sponsor   string
	allowance *big.Int
	expiresAt int64 // unix seconds
	id        common.Hash
	bearer    bool   // it pays for any reveal; otherwise for the one whose nullifier is id alone
	sig       []byte // r ‖ s ‖ v, v 0 or 1
}

// checkVoucher is checkFunding for a reveal carrying a voucher: the relayer takes sponsors, the
// reveal carries nothing else that pays, the voucher is for this reveal (a bearer one, or one
// whose id is the reveal's nullifier), its sponsor's signer's signature over its terms,
// unexpired, and the sponsor is not revoked. Whether it was used is decided with its
// reservation (reserveSponsor).
func (r *Relayer) checkVoucher(ctx context.Context, a *attempt) error {
	v := a.in.voucher
	if !r.cfg.Fees.Sponsors {
		return reject(SponsorsNotAccepted, "this relayer takes no sponsors (RELAYER_FUNDING): send the reveal without the voucher")
	}
	if a.in.fee != nil {
		return reject(InvalidInput, "a reveal is paid by one of a fee, a sponsor's key or a voucher: send it with one")
	}
	if !v.bearer && v.id != a.in.nullifier {
		return reject(VoucherInvalid, "the voucher is bound to another reveal (its id is not this reveal's nullifier): it pays for that card's reveal alone")
	}
	sp, err := r.sponsors.get(ctx, v.sponsor)
	if errors.Is(err, errNoSponsor) {
		return reject(VoucherInvalid, "the voucher names no sponsor of this relayer")
	}
	if err != nil {
		return err
	}
	if err := r.checkVoucherSignature(v, sp); err != nil {
		return err
	}
	if time.Now().Unix() > v.expiresAt {
		return reject(VoucherExpired, "the voucher expired at %s", time.Unix(v.expiresAt, 0).UTC().Format(time.RFC3339))
	}
	if sp.revoked() {
		return reject(SponsorRevoked, "the voucher's sponsor was revoked: it pays for no reveal")
	}
	a.payer = &payer{sponsor: sp.id, voucher: v.id.Hex(), allowance: v.allowance}
	return nil
}

// checkVoucherSignature refuses a voucher not signed by its sponsor's voucher signer over these
// terms (or whose sponsor takes no vouchers).
func (r *Relayer) checkVoucherSignature(v *voucher, sp sponsor) error {
	if sp.signer == (common.Address{}) {
		return reject(VoucherInvalid, "the voucher's sponsor has no voucher signer: it pays with its key alone")
	}
	digest, err := vouchers.Digest(r.chainID, r.cfg.Contracts.Vault, vouchers.Terms{Sponsor: v.sponsor, Allowance: v.allowance, ExpiresAt: v.expiresAt, ID: v.id, Bearer: v.bearer})
	if err != nil { // parseVoucher refused what has no digest
		return reject(InvalidInput, "the voucher: %v", err)
	}
	if signer, err := typeddata.Signer(digest, v.sig); err != nil || signer != sp.signer {
		return reject(VoucherInvalid, "the voucher is not signed by its sponsor's voucher signer over these terms")
	}
	return nil
}
