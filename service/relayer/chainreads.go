package relayer

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// vaultReads reads the vault's contracts through the chain client: the checks' chainReader, and
// the chain figures funding reads (funding.Chain).
type vaultReads struct {
	client     *chain.Client
	nullifiers common.Address // NULLIFIER_REGISTRY_ADDRESS
	tree       common.Address // COMMITMENT_TREE_ADDRESS
}

func (v vaultReads) isSpent(ctx context.Context, nullifier common.Hash) (bool, error) {
	out, err := v.client.Call(ctx, "is_spent", v.nullifiers, vaultABI.PackIsSpent(nullifier))
	if err != nil {
		return false, err
	}
	return vaultABI.UnpackIsSpent(out)
}

// rootAge is whether root is among the tree's recent roots, and how many inserts ago it was the
// current one.
func (v vaultReads) rootAge(ctx context.Context, root common.Hash) (contracts.RootAgeOutput, error) {
	out, err := v.client.Call(ctx, "root_age", v.tree, vaultABI.PackRootAge(root))
	if err != nil {
		return contracts.RootAgeOutput{}, err
	}
	return vaultABI.UnpackRootAge(out)
}

func (v vaultReads) simulate(ctx context.Context, msg ethereum.CallMsg) error {
	return v.client.Simulate(ctx, msg)
}

func (v vaultReads) estimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error) {
	return v.client.EstimateGas(ctx, msg)
}

// FeePerGas is what the chain charges a transaction now: its base fee and the tip the node
// suggests (what the operator's transactions pay when mined at once). Quotes and fee checks read
// it (funding.Chain).
func (v vaultReads) FeePerGas(ctx context.Context) (*big.Int, error) {
	tip, base, _, err := v.client.Fees(ctx)
	if err != nil {
		return nil, chainUnavailable(err)
	}
	return new(big.Int).Add(base, tip), nil
}

// NextIndex is the tree's next leaf index: where a change inserted now would go. A partial
// reveal's quote reads it (funding.Chain).
func (v vaultReads) NextIndex(ctx context.Context) (uint64, error) {
	out, err := v.client.Call(ctx, "next_index", v.tree, vaultABI.PackNextIndex())
	if err != nil {
		return 0, chainUnavailable(err)
	}
	next, err := vaultABI.UnpackNextIndex(out)
	return uint64(next), err
}
