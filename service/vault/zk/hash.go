// Package zk is the zero-knowledge side of the vault: the reveal circuit (gnark, Groth16 on
// BN254), the notes and Merkle tree it proves membership in, the dev proving and verifying keys,
// proofs in snarkjs's JSON form, the conversion of those proofs to the vault's call arguments,
// and off-chain verification of snarkjs proofs.
//
// The formulas (Poseidon is circomlib's, over the BN254 scalar field):
//
//	commitment       = Poseidon(secret, nullifierSecret)          chosen by the sender, sent to commit()
//	leaf             = Poseidon(commitment, amount, tokenId)      computed by the vault, so a leaf
//	                                                              always holds what was deposited
//	nullifier        = Poseidon(nullifierSecret)                   public at reveal; spent once
//	tokenId          = Poseidon(token address, chainId)            service/vault/tokenid
//	changeCommitment = leaf of the change note (value − amount), or 0 when nothing is left
package zk

import (
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	"github.com/seed018cc74c/vaultd/service/vault/poseidon"
)

// ScalarField is r, the order of BN254's groups: public signals must be below it.
var ScalarField = fr.Modulus()

// BaseField is q, the modulus of BN254's coordinates: proof coordinates must be below it.
var BaseField = fp.Modulus()

// MaxAmount bounds amounts (2^248 − 1), so that value − amount never wraps in the circuit. The
// vault refuses larger deposits.
var MaxAmount = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 248), big.NewInt(1))

// Poseidon is circomlib's Poseidon of 1 to 3 field elements (service/vault/poseidon).
func Poseidon(inputs ...*big.Int) *big.Int {
	h, err := poseidon.Hash(inputs...)
	if err != nil {
		panic(err) // only for an input count outside 1..3 or an input ≥ r: a programming error
	}
	return h
}

// Commitment is what a sender passes to the vault's commit: Poseidon(secret, nullifierSecret).
func Commitment(secret, nullifierSecret *big.Int) *big.Int {
	return Poseidon(secret, nullifierSecret)
}

// Leaf is the tree leaf the vault inserts for a deposit: Poseidon(commitment, amount, tokenId).
func Leaf(commitment, amount, tokenID *big.Int) *big.Int {
	return Poseidon(commitment, amount, tokenID)
}

// Nullifier is the public nullifier of a note: Poseidon(nullifierSecret).
func Nullifier(nullifierSecret *big.Int) *big.Int {
	return Poseidon(nullifierSecret)
}
