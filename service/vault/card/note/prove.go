package note

import (
	"errors"
	"fmt"
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

// ProveFrom proves the reveal of amount of card c to recipient against tree, which must hold
// the card's leaf; with nothing else to read, it runs where the card is (the browser prover
// calls it). An amount below the card's is a partial reveal: the rest goes to a change note
// with fresh secrets, returned as its own card. A nil amount is the whole card.
func ProveFrom(keys *zk.Keys, c Card, tree *zk.Tree, recipient common.Address, amount *big.Int) (Request, *Card, error) {
	return ProvePaying(keys, c, tree, recipient, amount, nil)
}

// ProvePaying is ProveFrom for a reveal that pays fee out of the amount revealed (nil: none),
// as a relayer quoted it: signal [3] is then zk.FeeBinding(recipient, *fee). Send the request
// with the fee and its quote.
func ProvePaying(keys *zk.Keys, c Card, tree *zk.Tree, recipient common.Address, amount *big.Int, fee *zk.Fee) (Request, *Card, error) {
	req, change, err := Reveal(c, tree, recipient, amount)
	if err != nil {
		return Request{}, nil, err
	}
	req.Fee = fee
	proof, signals, err := keys.Prove(req)
	if err != nil {
		return Request{}, nil, fmt.Errorf("prove: %w", err)
	}
	return RequestOf(c, req, proof, signals), change, nil
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
