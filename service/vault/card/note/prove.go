package note

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

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
func Reveal(c Card, tree *zk.Tree, recipient common.Address, amount *big.Int) (zk.RevealRequest, *Card, error) {
	if amount == nil {
		amount = c.Amount
	}
	note, err := c.Note()
	if err != nil {
		return zk.RevealRequest{}, nil, err
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
		return zk.RevealRequest{}, nil, ErrUnknownCard
	}
	req := zk.RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: amount, Recipient: recipient}
	var change *Card
	if amount.Cmp(c.Amount) < 0 && amount.Sign() > 0 {
		change = &Card{ChainID: c.ChainID, Vault: c.Vault, Token: c.Token, Amount: new(big.Int).Sub(c.Amount, amount)}
		if change.Secret, change.NullifierSecret, err = NewSecrets(); err != nil {
			return zk.RevealRequest{}, nil, err
		}
		req.ChangeSecret, req.ChangeNullifierSecret = change.Secret, change.NullifierSecret
	}
	return req, change, nil
}

// RequestOf is the relayer's request for req (Reveal's, of card c) with its proof.
func RequestOf(c Card, req zk.RevealRequest, proof zk.Proof, signals zk.Signals) Request {
	return Request{Proof: proof.JSON(), PublicSignals: signals.Hex(), Recipient: req.Recipient.Hex(), TokenAddress: c.Token.Hex(), Amount: req.Amount.String()}
}
