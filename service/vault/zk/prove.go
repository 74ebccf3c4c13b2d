package zk

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/frontend"
	"github.com/ethereum/go-ethereum/common"
)

// Note is what a card holds: the secrets of a deposit, its value and its token.
type Note struct {
	Secret          *big.Int
	NullifierSecret *big.Int
	Value           *big.Int
	TokenID         *big.Int
}

// Commitment is the note's commitment (what commit() takes).
func (n Note) Commitment() *big.Int { return Commitment(n.Secret, n.NullifierSecret) }

// Leaf is the note's leaf in the tree.
func (n Note) Leaf() *big.Int { return Leaf(n.Commitment(), n.Value, n.TokenID) }

// Nullifier is the note's nullifier.
func (n Note) Nullifier() *big.Int { return Nullifier(n.NullifierSecret) }

// RevealRequest is everything needed to prove a reveal of Amount of the note to Recipient.
type RevealRequest struct {
	Note      Note
	Tree      *Tree // holds the note's leaf
	LeafIndex int
	Amount    *big.Int
	Recipient common.Address
	// Change is the note receiving Value − Amount; only its secrets are used. Ignored when
	// nothing is left.
	ChangeSecret, ChangeNullifierSecret *big.Int
}

// ErrNoChangeSecrets is a partial reveal without the change note's secrets.
var ErrNoChangeSecrets = errors.New("a partial reveal needs non-zero secrets for its change note (ChangeSecret, ChangeNullifierSecret)")

// Prove proves a reveal and returns the proof and its public signals.
func (k *Keys) Prove(req RevealRequest) (Proof, Signals, error) {
	n := req.Note
	if req.Amount == nil || req.Amount.Sign() <= 0 || req.Amount.Cmp(n.Value) > 0 {
		return Proof{}, Signals{}, fmt.Errorf("amount must be from 1 to the note's value %s", n.Value)
	}
	siblings, bits, err := req.Tree.Path(req.LeafIndex)
	if err != nil {
		return Proof{}, Signals{}, err
	}
	change := new(big.Int).Sub(n.Value, req.Amount)
	changeSecret, changeNullifier := orZero(req.ChangeSecret), orZero(req.ChangeNullifierSecret)
	changeCommitment := new(big.Int)
	if change.Sign() > 0 {
		// A change note with known (zero) secrets could be spent by anyone.
		if changeSecret.Sign() == 0 || changeNullifier.Sign() == 0 {
			return Proof{}, Signals{}, ErrNoChangeSecrets
		}
		changeCommitment = Leaf(Commitment(changeSecret, changeNullifier), change, n.TokenID)
	}
	signals := Signals{req.Tree.Root(), n.Nullifier(), req.Amount, new(big.Int).SetBytes(req.Recipient.Bytes()), changeCommitment, n.TokenID}

	assignment := &RevealCircuit{
		MerkleRoot: signals[SignalMerkleRoot], Nullifier: signals[SignalNullifier], Amount: signals[SignalAmount],
		Recipient: signals[SignalRecipient], ChangeCommitment: signals[SignalChangeCommitment], TokenID: signals[SignalTokenID],
		Secret: n.Secret, NullifierSecret: n.NullifierSecret, Value: n.Value,
		ChangeSecret: changeSecret, ChangeNullifierSecret: changeNullifier,
	}
	for i := range TreeDepth {
		assignment.PathElements[i] = siblings[i]
		assignment.PathIndices[i] = bits[i]
	}
	w, err := frontend.NewWitness(assignment, ecc.BN254.ScalarField())
	if err != nil {
		return Proof{}, Signals{}, err
	}
	proof, err := groth16.Prove(k.ccs, k.pk, w)
	if err != nil {
		return Proof{}, Signals{}, fmt.Errorf("prove: %w", err)
	}
	p := proof.(*groth16bn254.Proof)
	return Proof{A: p.Ar, B: p.Bs, C: p.Krs}, signals, nil
}

func orZero(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}
