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

// fleetInserts counts the change-note inserts in flight of every replica sharing a Redis: each
// replica keeps its own count (a key that lapses if the replica stops touching it: it died, and
// whoever adopts its transactions counts them again), and holdRoot checks a root's age against
// the sum, atomically with counting its own reveal: so a burst of partial reveals spread over
// the replicas never sends more than the tree's root history allows.
type fleetInserts struct {
	client *redis.Client
	owner  string
	ttl    time.Duration
}

const insertsPrefix = "vaultd:relayer:inserts"

// holdScript sums every owner's count (dropping lapsed owners); if ARGV[1] (the root's age) plus
// that sum is under ARGV[2] (the root history) it counts one more for owner ARGV[3] when ARGV[4]
// is 1 (a reveal with change), and answers {1, sum}; else {0, sum}.
var holdScript = redis.NewScript(`
local sum = 0
for _, o in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local v = redis.call('GET', KEYS[2] .. o)
  if v then sum = sum + tonumber(v) else redis.call('SREM', KEYS[1], o) end
end
if tonumber(ARGV[1]) + sum >= tonumber(ARGV[2]) then return {0, sum} end
if ARGV[4] == '1' then
  redis.call('INCR', KEYS[2] .. ARGV[3])
  redis.call('SADD', KEYS[1], ARGV[3])
end
redis.call('PEXPIRE', KEYS[2] .. ARGV[3], ARGV[5])
return {1, sum}
`)

// addScript changes owner ARGV[2]'s count by ARGV[1].
var addScript = redis.NewScript(`
local v = redis.call('INCRBY', KEYS[2] .. ARGV[2], ARGV[1])
if v <= 0 then
  redis.call('DEL', KEYS[2] .. ARGV[2])
  redis.call('SREM', KEYS[1], ARGV[2])
else
  redis.call('PEXPIRE', KEYS[2] .. ARGV[2], ARGV[3])
  redis.call('SADD', KEYS[1], ARGV[2])
end
return v
`)

func (f *fleetInserts) keys() []string {
	return []string{insertsPrefix + ":owners", insertsPrefix + ":count:"}
}

// hold checks age against the fleet's inserts in flight and counts this reveal's when change.
func (f *fleetInserts) hold(ctx context.Context, age, history uint32, change bool) (ok bool, inFlight uint32, err error) {
	c := "0"
	if change {
		c = "1"
	}
	out, err := holdScript.Run(ctx, f.client, f.keys(), age, history, f.owner, c, f.ttl.Milliseconds()).Int64Slice()
	if err != nil {
		return false, 0, err
	}
	if len(out) != 2 {
		return false, 0, fmt.Errorf("inserts in flight: unexpected answer %v", out)
	}
	return out[0] == 1, uint32(out[1]), nil
}

// add changes this replica's count.
func (f *fleetInserts) add(ctx context.Context, delta int) error {
	return addScript.Run(ctx, f.client, f.keys(), delta, f.owner, f.ttl.Milliseconds()).Err()
}
