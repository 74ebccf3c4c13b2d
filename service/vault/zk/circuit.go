//go:build !(js && wasm)

package zk

import (
	"github.com/consensys/gnark/frontend"
	"github.com/vocdoni/gnark-crypto-primitives/hash/native/bn254/poseidon"
)

// amountBits bounds amount and change in the circuit (see MaxAmount).
const amountBits = 248

// RevealCircuit proves: I know a note (secret, nullifierSecret) and its value, whose leaf
// Poseidon(Poseidon(secret, nullifierSecret), value, tokenId) is in the tree (a LeanIMT of at
// most TreeDepth levels) under MerkleRoot;
// Nullifier is Poseidon(nullifierSecret); Amount ≤ value; and ChangeCommitment is the leaf of a
// note holding value − Amount (or 0 when nothing is left). Recipient is bound to the proof.
// The public fields are declared in the order of docs/design.md ("Reveals"), which is the order of the signals.
type RevealCircuit struct {
	MerkleRoot       frontend.Variable `gnark:",public"`
	Nullifier        frontend.Variable `gnark:",public"`
	Amount           frontend.Variable `gnark:",public"`
	Recipient        frontend.Variable `gnark:",public"`
	ChangeCommitment frontend.Variable `gnark:",public"`
	TokenID          frontend.Variable `gnark:",public"`

	Secret                frontend.Variable
	NullifierSecret       frontend.Variable
	Value                 frontend.Variable
	ChangeSecret          frontend.Variable
	ChangeNullifierSecret frontend.Variable
	PathElements          [TreeDepth]frontend.Variable
	PathIndices           [TreeDepth]frontend.Variable
}

// Define states the constraints. It uses no api.Commit (nor std/rangecheck, which uses it), so
// proofs stay plain Groth16 that snarkjs and the Solidity verifier accept.
func (c *RevealCircuit) Define(api frontend.API) error {
	hash := func(in ...frontend.Variable) frontend.Variable {
		h, err := poseidon.Hash(api, in...)
		if err != nil {
			panic(err) // fixed input counts 1..3: cannot fail
		}
		return h
	}

	commitment := hash(c.Secret, c.NullifierSecret)
	node := hash(commitment, c.Value, c.TokenID)
	// The tree is a LeanIMT (tree.go): a level where the node has no sibling (PathElements[i]
	// is 0) leaves it unchanged; elsewhere the parent is the hash of the two. No real node is 0
	// (every leaf is a Poseidon output), and a sibling claimed missing that is not gives a root
	// the tree never had.
	for i := range TreeDepth {
		api.AssertIsBoolean(c.PathIndices[i])
		left := api.Select(c.PathIndices[i], c.PathElements[i], node)
		right := api.Select(c.PathIndices[i], node, c.PathElements[i])
		node = api.Select(api.IsZero(c.PathElements[i]), node, hash(left, right))
	}
	api.AssertIsEqual(node, c.MerkleRoot)
	api.AssertIsEqual(hash(c.NullifierSecret), c.Nullifier)

	// Amount ≤ Value, both below 2^248: no wrap-around can make change out of nothing.
	change := api.Sub(c.Value, c.Amount)
	api.ToBinary(c.Amount, amountBits)
	api.ToBinary(change, amountBits)
	api.ToBinary(c.Value, amountBits) // the note itself, not only its parts: soundness does not rest on the vault's MAX_AMOUNT alone
	changeLeaf := hash(hash(c.ChangeSecret, c.ChangeNullifierSecret), change, c.TokenID)
	api.AssertIsEqual(c.ChangeCommitment, api.Select(api.IsZero(change), 0, changeLeaf))

	// Bind the recipient: a public input in no constraint would not be bound by the proof.
	api.AssertIsEqual(api.Mul(c.Recipient, c.Recipient), api.Mul(c.Recipient, c.Recipient))
	return nil
}
