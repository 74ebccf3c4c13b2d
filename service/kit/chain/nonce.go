package chain

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// NonceAtBlock returns the nonce of addr's next transaction as of block n.
func (c *Client) NonceAtBlock(ctx context.Context, addr common.Address, n uint64) (uint64, error) {
	return do(c, ctx, "nonce", func(ctx context.Context) (uint64, error) {
		return c.eth.NonceAt(ctx, addr, new(big.Int).SetUint64(n))
	})
}

// MinedNonce is where a wallet's nonce was used: the transaction that used it and its block.
type MinedNonce struct {
	Tx    common.Hash
	Block uint64
	Head  uint64 // the head the search started from
}

// FindNonce finds the transaction of from that used nonce, with no index but the node's state:
// it walks back from the head, doubling its step, to a block where the nonce was still unused,
// then bisects to the block that used it (eth_getTransactionCount at block numbers: a few
// dozen calls at most, on recent blocks that every full node keeps), and reads that block's
// transactions. It answers ethereum.NotFound when the node's latest block has not used the
// nonce; a node that cannot answer for an old block (pruned state) answers an error: the caller
// waits, it never guesses.
func (c *Client) FindNonce(ctx context.Context, from common.Address, nonce uint64) (MinedNonce, error) {
	head, err := c.BlockNumber(ctx)
	if err != nil {
		return MinedNonce{}, err
	}
	used := func(block uint64) (bool, error) {
		n, err := c.NonceAtBlock(ctx, from, block)
		return n > nonce, err
	}
	if ok, err := used(head); err != nil || !ok {
		if err == nil {
			err = ethereum.NotFound
		}
		return MinedNonce{}, err
	}
	// hi used it; find lo that did not.
	hi, lo, step := head, uint64(0), uint64(1)
	for {
		if step >= hi {
			lo = 0
			break
		}
		b := hi - step
		ok, err := used(b)
		if err != nil {
			return MinedNonce{}, err
		}
		if !ok {
			lo = b
			break
		}
		hi, step = b, step*2
	}
	if ok, err := used(lo); err != nil {
		return MinedNonce{}, err
	} else if ok { // used at genesis: no transaction to find
		return MinedNonce{}, fmt.Errorf("nonce %d of %s is used at block %d", nonce, from.Hex(), lo)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := used(mid)
		if err != nil {
			return MinedNonce{}, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	block, err := do(c, ctx, "block", func(ctx context.Context) (*types.Block, error) {
		return c.eth.BlockByNumber(ctx, new(big.Int).SetUint64(hi))
	})
	if err != nil {
		return MinedNonce{}, err
	}
	for _, tx := range block.Transactions() {
		if tx.Nonce() != nonce {
			continue
		}
		if sender, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx); err == nil && sender == from {
			return MinedNonce{Tx: tx.Hash(), Block: hi, Head: head}, nil
		}
	}
	return MinedNonce{}, fmt.Errorf("block %d used nonce %d of %s but has no such transaction", hi, nonce, from.Hex())
}
