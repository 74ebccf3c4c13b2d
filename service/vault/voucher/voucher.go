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
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
)

// Terms are what a voucher says and its signature covers.
type Terms struct {
	Sponsor   string   // the sponsor's id, sp_…
	Allowance *big.Int // wei: the most it pays
	ExpiresAt int64    // unix seconds
	ID        common.Hash
}

var (
	domainType  = crypto.Keccak256([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))
	voucherType = crypto.Keccak256([]byte("Voucher(string sponsor,uint256 allowance,uint256 expiresAt,bytes32 id)"))
)

// Digest is the EIP-712 hash a voucher's signature signs: keccak256(0x1901 ‖ domainSeparator ‖
// hashStruct(voucher)), in the domain {name: "vaultd relayer", version: "1", chainId, vault}.
func Digest(chainID uint64, vault common.Address, t Terms) []byte {
	domain := crypto.Keccak256(domainType, crypto.Keccak256([]byte("vaultd relayer")), crypto.Keccak256([]byte("1")),
		word(new(big.Int).SetUint64(chainID)), common.LeftPadBytes(vault.Bytes(), 32))
	data := crypto.Keccak256(voucherType, crypto.Keccak256([]byte(t.Sponsor)), word(t.Allowance), word(big.NewInt(t.ExpiresAt)), t.ID.Bytes())
	return crypto.Keccak256([]byte{0x19, 0x01}, domain, data)
}

func word(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }

// Sign signs t with key (the sponsor's voucher signer) as the relayer's document carries it:
// r ‖ s ‖ v, v 27 or 28.
func Sign(key *ecdsa.PrivateKey, chainID uint64, vault common.Address, t Terms) (relayerapi.Voucher, error) {
	sig, err := crypto.Sign(Digest(chainID, vault, t), key)
	if err != nil {
		return relayerapi.Voucher{}, err
	}
	sig[64] += 27
	return relayerapi.Voucher{Sponsor: t.Sponsor, Allowance: t.Allowance.String(), ExpiresAt: t.ExpiresAt, Id: t.ID.Hex(), Signature: hexutil.Encode(sig)}, nil
}
