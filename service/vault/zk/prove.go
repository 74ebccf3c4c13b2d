package zk

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	"github.com/seed018cc74c/vaultd/service/kit/address"
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
	Recipient address.Address
	// Change is the note receiving Value − Amount; only its secrets are used. Ignored when
	// nothing is left.
	ChangeSecret, ChangeNullifierSecret *big.Int
	// Fee, when set, is paid out of Amount to its receiver (the vault's revealWithFee): signal
	// [3] is then FeeBinding(Recipient, *Fee) rather than the recipient.
	Fee *Fee
}

// ErrNoChangeSecrets is a partial reveal without the change note's secrets.
var ErrNoChangeSecrets = errors.New("a partial reveal needs non-zero secrets for its change note (ChangeSecret, ChangeNullifierSecret)")

// witness checks the request and returns the circuit's full witness and the public signals.
func (req RevealRequest) witness() (fullWitness, Signals, error) {
	n := req.Note
	if req.Amount == nil || req.Amount.Sign() <= 0 || req.Amount.Cmp(n.Value) > 0 {
		return fullWitness{}, Signals{}, fmt.Errorf("amount must be from 1 to the note's value %s", n.Value)
	}
	siblings, bits, err := req.Tree.Path(req.LeafIndex)
	if err != nil {
		return fullWitness{}, Signals{}, err
	}
	change := new(big.Int).Sub(n.Value, req.Amount)
	changeSecret, changeNullifier := orZero(req.ChangeSecret), orZero(req.ChangeNullifierSecret)
	changeCommitment := new(big.Int)
	if change.Sign() > 0 {
		// A change note with known (zero) secrets could be spent by anyone.
		if changeSecret.Sign() == 0 || changeNullifier.Sign() == 0 {
			return fullWitness{}, Signals{}, ErrNoChangeSecrets
		}
		changeCommitment = Leaf(Commitment(changeSecret, changeNullifier), change, n.TokenID)
	}
	recipient := new(big.Int).SetBytes(req.Recipient.Bytes())
	if req.Fee != nil {
		if err := req.Fee.check(req.Amount); err != nil {
			return fullWitness{}, Signals{}, err
		}
		recipient = FeeBinding(req.Recipient, *req.Fee)
	}
	signals := Signals{req.Tree.Root(), n.Nullifier(), req.Amount, recipient, changeCommitment, n.TokenID}
	w := witnessOf(signals, []*big.Int{n.Secret, n.NullifierSecret, n.Value, changeSecret, changeNullifier}, siblings, bits)
	return w, signals, nil
}

// witnessOf is the full witness of RevealCircuit, built without gnark's frontend: its variables
// in the order frontend.NewWitness walks the struct, the public ones (the signals) first, then the
// secret ones (the note's secrets, its value and the change's secrets, then PathElements and
// PathIndices). A test checks it against frontend.NewWitness.
func witnessOf(signals Signals, secrets []*big.Int, siblings [TreeDepth]*big.Int, bits [TreeDepth]uint) fullWitness {
	v := make(fr.Vector, 0, NumSignals+len(secrets)+2*TreeDepth)
	for _, x := range append(append(signals[:], secrets...), siblings[:]...) {
		var e fr.Element
		e.SetBigInt(x)
		v = append(v, e)
	}
	for _, b := range bits {
		v = append(v, fr.NewElement(uint64(b)))
	}
	return fullWitness{v: v}
}

// fullWitness is the circuit's public and secret inputs, the constant one not included: what the
// solver takes.
type fullWitness struct{ v fr.Vector }

func orZero(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}
