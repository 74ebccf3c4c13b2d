//go:build !(js && wasm)

package note

import (
	"fmt"
	"math/big"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Proving with zk.Keys (gnark's prover) is for the servers and tools: the browser's prover proves
// with zk.StreamProver and links none of gnark's packages.

// ProveFrom proves the reveal of amount of card c to recipient against tree, which must hold
// the card's leaf; with nothing else to read, it runs where the card is (the browser prover
// calls it). An amount below the card's is a partial reveal: the rest goes to a change note
// with fresh secrets, returned as its own card. A nil amount is the whole card.
func ProveFrom(keys *zk.Keys, c Card, tree *zk.Tree, recipient address.Address, amount *big.Int) (Request, *Card, error) {
	return ProvePaying(keys, c, tree, recipient, amount, nil)
}

// ProvePaying is ProveFrom for a reveal that pays fee out of the amount revealed (nil: none),
// as a relayer quoted it: signal [3] is then zk.FeeBinding(recipient, *fee). Send the request
// with the fee and its quote.
func ProvePaying(keys *zk.Keys, c Card, tree *zk.Tree, recipient address.Address, amount *big.Int, fee *zk.Fee) (Request, *Card, error) {
	change, err := ChangeOf(c, amount)
	if err != nil {
		return Request{}, nil, err
	}
	req, err := ProveKeeping(keys, c, tree, recipient, amount, fee, change)
	return req, change, err
}

// ProveKeeping is ProvePaying with the partial reveal's change given (ChangeOf's; nil for a
// whole reveal), for proofs of one reveal that must all make the same change card.
func ProveKeeping(keys *zk.Keys, c Card, tree *zk.Tree, recipient address.Address, amount *big.Int, fee *zk.Fee, change *Card) (Request, error) {
	req, err := RevealKeeping(c, tree, recipient, amount, change)
	if err != nil {
		return Request{}, err
	}
	req.Fee = fee
	proof, signals, err := keys.Prove(req)
	if err != nil {
		return Request{}, fmt.Errorf("prove: %w", err)
	}
	return RequestOf(c, req, proof, signals), nil
}
