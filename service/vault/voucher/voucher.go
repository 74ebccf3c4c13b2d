// Package voucher is a relayer sponsor's voucher (docs/relayer.md, "Sponsors who pay ahead"):
// the sponsor's promise to pay for one reveal, up to an allowance, until it expires, as EIP-712
// typed data its voucher signer signs, in the relayer's domain (the vault on its chain, as the
// relayer's quotes). The relayer checks vouchers with Digest; a sponsor's tools sign them with
// Sign.
package voucher

import (
	"crypto/ecdsa"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
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
