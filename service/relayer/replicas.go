package relayer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/platform"
)

// nullifierClaims makes a nullifier's reveal one transaction across the relayer replicas that
// share a Redis (REDIS_URL). The replica whose checks pass first claims the nullifier and sends;
// it records the hash of every signed version of its transaction (the first, and each fee-bumped
// replacement) before that version is sent. A replica with a copy of the request finds the claim
// taken and answers with that transaction's outcome, read from the chain, never a second send.
// A claim released before anything was sent (a limit, the gate) lets the next copy try.
type nullifierClaims struct {
	client *redis.Client
	ttl    time.Duration // how long a claim outlives its last record: well past the transaction's life
}

// claimTTL bounds a claim whose replica died before sending: the send follows the claim within
// seconds, and a claim not recorded by then frees itself.
const claimTTL = time.Minute

const claimedNotSent = "claimed"

func (c *nullifierClaims) key(n common.Hash) string { return "vaultd:relayer:nullifier:" + n.Hex() }

// claim takes the nullifier for this replica; false when another replica holds it.
func (c *nullifierClaims) claim(ctx context.Context, n common.Hash) (bool, error) {
	return c.client.SetNX(ctx, c.key(n), claimedNotSent, claimTTL).Result()
}

// record stores the hash of a version about to be sent.
func (c *nullifierClaims) record(ctx context.Context, n common.Hash, hash common.Hash) error {
	return c.client.Set(ctx, c.key(n), hash.Hex(), c.ttl).Err()
}

// release gives the nullifier back when nothing was sent.
func (c *nullifierClaims) release(ctx context.Context, n common.Hash) {
	_ = c.client.Del(ctx, c.key(n)).Err()
}

// state reads a claim: released (no key), claimed but not yet sent, or the newest hash sent.
func (c *nullifierClaims) state(ctx context.Context, n common.Hash) (hash common.Hash, held bool, err error) {
	v, err := c.client.Get(ctx, c.key(n)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return common.Hash{}, false, nil
	case err != nil:
		return common.Hash{}, false, err
	case v == claimedNotSent:
		return common.Hash{}, true, nil
	}
	return common.HexToHash(v), true, nil
}

// claimsUnavailable is the 503 of a claim that cannot be checked: the relayer refuses rather
// than risk a second transaction.
func claimsUnavailable(err error) *platform.Error {
	return &platform.Error{Status: http.StatusServiceUnavailable, Code: platform.CodeUnavailable,
		Message: "the relayer cannot coordinate with its other replicas right now; try again later", RetryAfter: time.Second, Cause: err}
}

// errClaimReleased is another replica giving a nullifier back unsent: this copy may claim it.
var errClaimReleased = errors.New("claim released")

// awaitOther answers a copy of a reveal whose nullifier another replica claimed: with that
// transaction's outcome once mined (200, or 422 TX_REVERTED), 504 TX_PENDING after
// RECEIPT_TIMEOUT, or errClaimReleased when the other replica gave it back unsent.
func (r *Relayer) awaitOther(ctx context.Context, n common.Hash) (relayerapi.RevealResult, error) {
	_, end := r.stage(ctx, "receipt")
	deadline := time.Now().Add(r.cfg.Tx.ReceiptTimeout)
	var last common.Hash
	for {
		hash, held, err := r.claims.state(ctx, n)
		switch {
		case err != nil:
			end(err)
			return relayerapi.RevealResult{}, claimsUnavailable(err)
		case !held:
			end(nil)
			return relayerapi.RevealResult{}, errClaimReleased
		case hash != common.Hash{}:
			last = hash
			if rc, err := r.client.TransactionReceipt(ctx, hash); err == nil && rc != nil {
				end(nil)
				res := relayerapi.RevealResult{Success: rc.Status == types.ReceiptStatusSuccessful, TxHash: rc.TxHash.Hex(),
					BlockNumber: rc.BlockNumber.Int64(), GasUsed: fmt.Sprint(rc.GasUsed)}
				if !res.Success {
					return res, &RevealError{Reason: TxReverted, Message: "the reveal transaction reverted on chain; it is not retried", TxHash: res.TxHash}
				}
				return res, nil
			}
		}
		if time.Now().After(deadline) {
			err := &RevealError{Reason: TxPending, Message: "the reveal was sent by another replica but not mined in time; it may still be mined", TxHash: hexOrEmpty(last)}
			end(err)
			return relayerapi.RevealResult{TxHash: hexOrEmpty(last)}, err
		}
		time.Sleep(r.cfg.Tx.ReceiptPoll)
	}
}

func hexOrEmpty(h common.Hash) string {
	if h == (common.Hash{}) {
		return ""
	}
	return h.Hex()
}
