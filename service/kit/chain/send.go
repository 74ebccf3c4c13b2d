package chain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// SendTx signs and sends an EIP-1559 transaction from key, as a wallet would: the pending nonce,
// the node's suggested tip, a fee cap of 2 × base fee + tip, and the estimated gas + 20 %.
// to == nil creates a contract. An estimate that reverts is returned as the node gave it, so
// the caller can decode it (RevertOf). The relayer has its own manager (nonces, replacement);
// this is for the dev chain, tests and the card command.
func SendTx(ctx context.Context, client *ethclient.Client, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte) (*types.Transaction, error) {
	from := crypto.PubkeyToAddress(key.PublicKey)
	if value == nil {
		value = new(big.Int)
	}
	gas, err := client.EstimateGasAtBlock(ctx, ethereum.CallMsg{From: from, To: to, Value: value, Data: data}, nil) // "latest", named (Hardhat defaults to "pending")
	if err != nil {
		return nil, err
	}
	chainID, err := client.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	nonce, err := client.PendingNonceAt(ctx, from)
	if err != nil {
		return nil, err
	}
	tip, feeCap, err := WalletFees(ctx, client)
	if err != nil {
		return nil, err
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: gas * 12 / 10, To: to, Value: value, Data: data,
	})
	if err != nil {
		return nil, err
	}
	return tx, client.SendTransaction(ctx, tx)
}

// WalletFees is what a wallet bids: the node's suggested tip, and FeeCap of the latest base fee.
func WalletFees(ctx context.Context, client *ethclient.Client) (tip, feeCap *big.Int, err error) {
	if tip, err = client.SuggestGasTipCap(ctx); err != nil {
		return nil, nil, err
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	return tip, FeeCap(head.BaseFee, tip), nil
}

// FeeCap is the usual EIP-1559 fee cap: 2 × base fee + tip, so the transaction stays valid while
// the base fee doubles.
func FeeCap(baseFee, tip *big.Int) *big.Int {
	return new(big.Int).Add(new(big.Int).Mul(baseFee, big.NewInt(2)), tip)
}
