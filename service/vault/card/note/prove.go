package note

import (
	"errors"
	"math/big"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// ErrUnknownCard is a card whose leaf is not in the tree.
var ErrUnknownCard = errors.New("no deposit for this card on this chain: wrong chain or vault, or the card was never committed")

// Request is a reveal request exactly as the relayer accepts it.
type Request struct {
	Proof         zk.ProofJSON `json:"proof"`
	PublicSignals []string     `json:"publicSignals"`
	Recipient     string       `json:"recipient"`
	TokenAddress  string       `json:"tokenAddress"`
	Amount        string       `json:"amount"`
}

// Reveal is what ProveFrom proves, for a prover of one's own (zk.StreamProver): the circuit's
// request for the reveal of amount of c to recipient (nil: all of it), and the change card of
// a partial reveal.
func Reveal(c Card, tree *zk.Tree, recipient address.Address, amount *big.Int) (zk.RevealRequest, *Card, error) {
	change, err := ChangeOf(c, amount)
	if err != nil {
		return zk.RevealRequest{}, nil, err
	}
	req, err := RevealKeeping(c, tree, recipient, amount, change)
	return req, change, err
}

// ChangeOf draws the change card of a reveal of amount of c (nil when amount is nil or the whole
// card): what is left, with fresh secrets.
func ChangeOf(c Card, amount *big.Int) (*Card, error) {
	if amount == nil || amount.Cmp(c.Amount) >= 0 || amount.Sign() <= 0 {
		return nil, nil
	}
	change := &Card{ChainID: c.ChainID, Vault: c.Vault, Token: c.Token, Amount: new(big.Int).Sub(c.Amount, amount)}
	var err error
	if change.Secret, change.NullifierSecret, err = NewSecrets(); err != nil {
		return nil, err
	}
	return change, nil
}

// RevealKeeping is Reveal with its change given (ChangeOf's, nil for a whole reveal): proofs of
// one reveal made for several relayers then insert the same change card, whichever is mined.
func RevealKeeping(c Card, tree *zk.Tree, recipient address.Address, amount *big.Int, change *Card) (zk.RevealRequest, error) {
	if amount == nil {
		amount = c.Amount
	}
	note, err := c.Note()
	if err != nil {
		return zk.RevealRequest{}, err
	}
	leaf := note.Leaf()
	index := -1
	for i := 0; i < tree.Len(); i++ {
		if tree.Leaf(i).Cmp(leaf) == 0 {
			index = i
			break
		}
	}
	if index < 0 {
		return zk.RevealRequest{}, ErrUnknownCard
	}
	req := zk.RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: amount, Recipient: recipient}
	if amount.Cmp(c.Amount) < 0 && amount.Sign() > 0 {
		if change == nil || change.Amount.Cmp(new(big.Int).Sub(c.Amount, amount)) != 0 || change.Token != c.Token {
			return zk.RevealRequest{}, errors.New("a partial reveal's change must be the rest of the card, in its token")
		}
		req.ChangeSecret, req.ChangeNullifierSecret = change.Secret, change.NullifierSecret
	}
	return req, nil
}

// RequestOf is the relayer's request for req (Reveal's, of card c) with its proof.
func RequestOf(c Card, req zk.RevealRequest, proof zk.Proof, signals zk.Signals) Request {
	return Request{Proof: proof.JSON(), PublicSignals: signals.Hex(), Recipient: req.Recipient.Hex(), TokenAddress: c.Token.Hex(), Amount: req.Amount.String()}
}
