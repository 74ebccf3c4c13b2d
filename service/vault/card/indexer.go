package card

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// IndexerLeaves reads the leaves from an indexer's GET /api/indexer (its CommitmentInserted
// events, page by page), for where the chain's own log query is empty or too slow.
func IndexerLeaves(baseURL string) (Leaves, error) {
	client, err := indexerapi.NewClientWithResponses(baseURL)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, treeAddr common.Address) (*zk.Tree, error) {
		t := &zk.Tree{}
		limit := 10000
		params := &indexerapi.ListEventsParams{Event: indexerapi.CommitmentInserted, Limit: &limit}
		for {
			r, err := client.ListEventsWithResponse(ctx, params)
			if err != nil {
				return nil, fmt.Errorf("%w: the indexer: %w", chain.ErrUnavailable, err)
			}
			if r.JSON200 == nil {
				return nil, fmt.Errorf("the indexer answered %d: %s", r.StatusCode(), r.Body)
			}
			for _, e := range r.JSON200.Events {
				if common.HexToAddress(e.Address) != treeAddr {
					continue // another tree's
				}
				var args struct{ Commitment, LeafIndex string }
				if err := json.Unmarshal(e.Args, &args); err != nil {
					return nil, fmt.Errorf("the indexer's CommitmentInserted: %w", err)
				}
				if i, err := strconv.Atoi(args.LeafIndex); err != nil || i != t.Len() {
					return nil, fmt.Errorf("the indexer's CommitmentInserted events out of order: leaf %s after %d leaves", args.LeafIndex, t.Len())
				}
				commitment, ok := new(big.Int).SetString(args.Commitment, 0)
				if !ok {
					return nil, fmt.Errorf("the indexer's CommitmentInserted: commitment %q", args.Commitment)
				}
				t.Append(commitment)
			}
			if r.JSON200.NextCursor == nil {
				return t, nil
			}
			params.Cursor = r.JSON200.NextCursor
		}
	}, nil
}
