// Package voucher is a relayer sponsor's voucher (docs/relayer.md, "Sponsors who pay ahead"):
// the sponsor's promise to pay for one reveal, up to an allowance, until it expires, as EIP-712
// typed data its voucher signer signs, in the relayer's domain (the vault on its chain, as the
// relayer's quotes). A voucher is bound to one reveal, the one whose public nullifier is its id
// (type Voucher), or, signed as a distinct type (BearerVoucher), pays for whichever reveal
// carries it first: the relayer refuses a bound voucher on any other reveal, and the typehash
// keeps a bound voucher's signature from passing as a bearer one's. The relayer checks vouchers
// with Digest; a sponsor's tools sign them with Sign, or with ForCard for a voucher that a card
// carries in its link (note.Voucher).
package voucher

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
)

// Terms are what a voucher says and its signature covers.
type Terms struct {
	Sponsor   string      // the sponsor's id, sp_…
	Allowance *big.Int    // wei: the most it pays
	ExpiresAt int64       // unix seconds
	ID        common.Hash // bound: the public nullifier of the reveal it pays for; bearer: the sponsor's choice (random)
	// Bearer: it pays for any one reveal, not only the one whose nullifier is ID (its own type,
	// BearerVoucher, so that a bound voucher's signature does not pass for a bearer one's).
	Bearer bool
}

// The voucher's two types: the same fields, two typehashes.
var (
	voucherType       = crypto.Keccak256([]byte("Voucher(string sponsor,uint256 allowance,uint256 expiresAt,bytes32 id)"))
	bearerVoucherType = crypto.Keccak256([]byte("BearerVoucher(string sponsor,uint256 allowance,uint256 expiresAt,bytes32 id)"))
)

// Digest is the EIP-712 hash a voucher's signature signs, in the relayer's domain (package
// typeddata): chainID's vault. Its type is BearerVoucher for a bearer voucher, Voucher otherwise.
// An allowance or expiry that is no uint256 (negative) has none: typeddata.ErrNotUint256.
func Digest(chainID uint64, vault common.Address, t Terms) ([]byte, error) {
	typeHash := voucherType
	if t.Bearer {
		typeHash = bearerVoucherType
	}
	allowance, err := typeddata.Word(t.Allowance)
	if err != nil {
		return nil, fmt.Errorf("allowance: %w", err)
	}
	expiresAt, err := typeddata.Word(big.NewInt(t.ExpiresAt))
	if err != nil {
		return nil, fmt.Errorf("expiresAt: %w", err)
	}
	return typeddata.Digest(chainID, vault, crypto.Keccak256(typeHash, crypto.Keccak256([]byte(t.Sponsor)), allowance, expiresAt, t.ID.Bytes())), nil
}

// Sign signs t with key (the sponsor's voucher signer) as the relayer's document carries it.
func Sign(key *ecdsa.PrivateKey, chainID uint64, vault common.Address, t Terms) (relayerapi.Voucher, error) {
	digest, err := Digest(chainID, vault, t)
	if err != nil {
		return relayerapi.Voucher{}, err
	}
	sig, err := typeddata.Sign(key, digest)
	if err != nil {
		return relayerapi.Voucher{}, err
	}
	v := relayerapi.Voucher{Sponsor: t.Sponsor, Allowance: t.Allowance.String(), ExpiresAt: t.ExpiresAt, Id: t.ID.Hex(), Signature: sig}
	if t.Bearer {
		v.Bearer = &t.Bearer
	}
	return v, nil
}

// ForCard signs a voucher for c's reveal with key (the sponsor's voucher signer) and answers c
// carrying it (note.Card.WithVoucher: its string and link hold it) and the voucher as the relayer
// takes it. Its id is c's public nullifier, which the card need not carry.
func ForCard(key *ecdsa.PrivateKey, c note.Card, sponsor string, allowance *big.Int, expiresAt int64) (note.Card, relayerapi.Voucher, error) {
	v, err := Sign(key, c.ChainID, c.Vault, Terms{Sponsor: sponsor, Allowance: allowance, ExpiresAt: expiresAt, ID: c.VoucherID()})
	if err != nil {
		return c, v, err
	}
	sig, err := typeddata.Signature(v.Signature)
	if err != nil {
		return c, v, err
	}
	sig[64] += 27 // the relayer's form, as the card carries it
	carried, err := c.WithVoucher(note.Voucher{Sponsor: sponsor, Allowance: allowance, ExpiresAt: expiresAt, Signature: sig})
	return carried, v, err
}

// OfCard is the voucher c carries, as the relayer takes it (its id c's public nullifier), or nil.
func OfCard(c note.Card) *relayerapi.Voucher {
	v := c.Voucher()
	if v == nil {
		return nil
	}
	id := c.VoucherID()
	return &relayerapi.Voucher{Sponsor: v.Sponsor, Allowance: v.Allowance.String(), ExpiresAt: v.ExpiresAt, Id: common.Hash(id).Hex(), Signature: hexutil.Encode(v.Signature)}
}
