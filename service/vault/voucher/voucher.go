// Package voucher is a relayer sponsor's voucher (docs/relayer.md, "Sponsors who pay ahead"):
// the sponsor's promise to pay for one reveal, up to an allowance, until it expires, as EIP-712
// typed data its voucher signer signs, in the relayer's domain (the vault on its chain, as the
// relayer's quotes). The relayer checks vouchers with Digest; a sponsor's tools sign them with
// Sign, or with ForCard for a voucher that a card carries in its link (note.Voucher).
package voucher

import (
	"crypto/ecdsa"
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
	Sponsor   string   // the sponsor's id, sp_…
	Allowance *big.Int // wei: the most it pays
	ExpiresAt int64    // unix seconds
	ID        common.Hash
}

var voucherType = crypto.Keccak256([]byte("Voucher(string sponsor,uint256 allowance,uint256 expiresAt,bytes32 id)"))

// Digest is the EIP-712 hash a voucher's signature signs, in the relayer's domain (package
// typeddata): chainID's vault.
func Digest(chainID uint64, vault common.Address, t Terms) []byte {
	return typeddata.Digest(chainID, vault, crypto.Keccak256(voucherType, crypto.Keccak256([]byte(t.Sponsor)),
		typeddata.Word(t.Allowance), typeddata.Word(big.NewInt(t.ExpiresAt)), t.ID.Bytes()))
}

// Sign signs t with key (the sponsor's voucher signer) as the relayer's document carries it.
func Sign(key *ecdsa.PrivateKey, chainID uint64, vault common.Address, t Terms) (relayerapi.Voucher, error) {
	sig, err := typeddata.Sign(key, Digest(chainID, vault, t))
	if err != nil {
		return relayerapi.Voucher{}, err
	}
	return relayerapi.Voucher{Sponsor: t.Sponsor, Allowance: t.Allowance.String(), ExpiresAt: t.ExpiresAt, Id: t.ID.Hex(), Signature: sig}, nil
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
