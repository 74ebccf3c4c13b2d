// Package tokenid computes the identifier of a token inside the vault's zero-knowledge circuits:
// tokenId = Poseidon(address as a 160-bit integer, chainId), with circomlib-compatible Poseidon
// over the BN254 scalar field (service/vault/poseidon), rendered as 0x + 64 lowercase hex digits.
// "Poseidon2" in the protocol's texts means Poseidon of two inputs (circomlib's, t = 3), not the
// Poseidon2 permutation.
package tokenid

import (
	"fmt"
	"math/big"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/poseidon"
)

// Compute returns the tokenId of token on chainID as a field element.
func Compute(token address.Address, chainID uint64) (*big.Int, error) {
	h, err := poseidon.Hash(new(big.Int).SetBytes(token.Bytes()), new(big.Int).SetUint64(chainID))
	if err != nil {
		return nil, fmt.Errorf("tokenid: %w", err)
	}
	return h, nil
}

// Hex returns the tokenId of token on chainID as 0x + 64 lowercase hex digits (leading zeros kept).
func Hex(token address.Address, chainID uint64) (string, error) {
	h, err := Compute(token, chainID)
	if err != nil {
		return "", err
	}
	return Format(h), nil
}

// Format renders a field element as 0x + 64 lowercase hex digits.
func Format(v *big.Int) string {
	return fmt.Sprintf("0x%064x", v)
}
