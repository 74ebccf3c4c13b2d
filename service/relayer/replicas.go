package relayer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// nullifierClaims makes a nullifier's reveal one transaction across the relayer replicas that
// share a Redis (REDIS_URL). The replica whose checks pass first claims the nullifier with a
// token of its own and sends; it records the hash of every signed version of its transaction
// (the first, and each fee-bumped replacement) on the claim before that version is sent, and
// only while the claim is still its own (compare-and-set on the token). A replica with a copy of
// the request finds the claim taken and answers with that transaction's outcome, read from the
// chain, never a second send. A claim released lets the next copy try (its checks run again):
// it is released before anything is sent (a limit, the gate), and on every path that ends the
// reveal with nothing revealed (the node refusing the send of a version recorded on it, an
// operator's cancel mined, the transaction reverted, its record found displaced), so that such
// a reveal can be sent again at once, on any replica, as in one process. A transaction given up
// (not mined after txmgr's 30 minutes) may still be mined: its claim is kept until it lapses.
// While its reveal waits to be sent (behind a slow node, say) the claim is refreshed, so it
// lapses only when its replica died before sending.
//
// A Redis that restarts empty forgets every claim while their reveals may be in flight: the
// first claim to notice (a marker key is missing) refuses every claim for one quiet spell
// (OPERATOR_LEASE_TTL), and so do all after it until the spell ends (503, nothing sent), which
// lets reveals in flight be mined before a copy can claim their nullifier again. A new Redis
// looks the same: New waits out its first spell (waitQuiet).
type nullifierClaims struct {
	client   *redis.Client
	claimTTL time.Duration // how long a claim lasts unrefreshed before its transaction is recorded
	ttl      time.Duration // how long a claim outlives its last record: well past the transaction's life
	quiet    time.Duration // how long claims are refused once Redis is found to have lost them
}

// Keys marking the Redis the claims are written to, and the quiet spell after it lost them: the
// operator keys' leases' own (service/kit/lease), so that one spell covers both.
const (
	claimsMarker = leasePrefix + ":incarnation"
	claimsQuiet  = leasePrefix + ":quiet"
)

// errRedisWiped is a claim refused while Redis is in its quiet spell after losing its data.
var errRedisWiped = errors.New("Redis lost the nullifier claims (it restarted empty, or is new); no reveal is claimed for a moment")

// claimToken is one claim of a nullifier: what makes it this request's own. stop ends its
// refreshing.
type claimToken struct {
	value string
	stop  func()
}

func (c *nullifierClaims) key(n common.Hash) string { return "vaultd:relayer:nullifier:" + n.Hex() }

// errClaimLost is a record refused because the claim is no longer this request's: it lapsed,
// and another replica may have taken it.
var errClaimLost = errors.New("the nullifier's claim lapsed before its transaction was recorded")

// Each claim's value is its token, then a space and the newest hash once a version is recorded.
var (
	claimScript = redis.NewScript(`if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], '1')
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[3])
  return -1
end
if redis.call('EXISTS', KEYS[3]) == 1 then return -1 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`)
	recordScript = redis.NewScript(`local v = redis.call('GET', KEYS[1])
if not v or string.sub(v, 1, string.len(ARGV[1])) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'PX', ARGV[3])
return 1`)
	refreshScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`)
	releaseScript = redis.NewScript(`local v = redis.call('GET', KEYS[1])
if v and (v == ARGV[1] or string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ') then return redis.call('DEL', KEYS[1]) end
return 0`)
	releaseSentScript = redis.NewScript(`local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local _, _, hash = string.find(v, ' (.*)$')
for _, h in ipairs(ARGV) do
  if h == hash then return redis.call('DEL', KEYS[1]) end
end
return 0`)
)

// claim takes the nullifier for this request; nil when another holds it. The claim is refreshed
// every claimTTL/3 until it is recorded or released.
func (c *nullifierClaims) claim(ctx context.Context, n common.Hash) (*claimToken, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	// The token ends with the claiming request's trace and span: a copy of the reveal that waits
	// for it on another replica links to that trace.
	tok := edge.Instance() + "/" + hex.EncodeToString(b[:])
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		tok += "/" + sc.TraceID().String() + "-" + sc.SpanID().String()
	}
	got, err := claimScript.Run(ctx, c.client, []string{c.key(n), claimsMarker, claimsQuiet}, tok, c.claimTTL.Milliseconds(), c.quiet.Milliseconds()).Int()
	switch {
	case err != nil:
		return nil, err
	case got < 0:
		return nil, errRedisWiped
	case got == 0:
		return nil, nil
	}
	refreshCtx, stop := context.WithCancel(context.Background())
	go func() {
		t := time.NewTicker(c.claimTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-refreshCtx.Done():
				return
			case <-t.C:
				if n, err := refreshScript.Run(refreshCtx, c.client, []string{c.key(n)}, tok, c.claimTTL.Milliseconds()).Int(); err == nil && n == 0 {
					return // recorded (its TTL is the record's now), or lost
				}
			}
		}
	}()
	return &claimToken{value: tok, stop: stop}, nil
}

// record stores the hash of a version about to be sent, if the claim is still tok's.
func (c *nullifierClaims) record(ctx context.Context, n common.Hash, tok *claimToken, hash common.Hash) error {
	ok, err := recordScript.Run(ctx, c.client, []string{c.key(n)}, tok.value, hash.Hex(), c.ttl.Milliseconds()).Int()
	if err != nil {
		return err
	}
	tok.stop()
	if ok == 0 {
		return errClaimLost
	}
	return nil
}

// release gives the nullifier back, if the claim is still tok's (with a version recorded on it
// or not): when nothing was sent, or when what was sent ended with nothing revealed.
func (c *nullifierClaims) release(ctx context.Context, n common.Hash, tok *claimToken) {
	tok.stop()
	_ = releaseScript.Run(ctx, c.client, []string{c.key(n)}, tok.value).Err()
}

// releaseSent gives the nullifier back when the version recorded on its claim is one of hashes:
// a transaction known to have ended with nothing revealed, whose claim's token this process
// does not have (it was claimed before a restart, or by the replica that held the key before).
func (c *nullifierClaims) releaseSent(ctx context.Context, n common.Hash, hashes []common.Hash) error {
	args := make([]any, len(hashes))
	for i, h := range hashes {
		args[i] = h.Hex()
	}
	return releaseSentScript.Run(ctx, c.client, []string{c.key(n)}, args...).Err()
}

// state reads a claim: released (no key), claimed but not yet sent, or the newest hash sent; and
// the span of the request that claimed it (invalid when it named none).
func (c *nullifierClaims) state(ctx context.Context, n common.Hash) (hash common.Hash, held bool, by trace.SpanContext, err error) {
	v, err := c.client.Get(ctx, c.key(n)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return common.Hash{}, false, by, nil
	case err != nil:
		return common.Hash{}, false, by, err
	}
	tok, h, sent := strings.Cut(v, " ")
	by = claimer(tok)
	if sent {
		return common.HexToHash(h), true, by, nil
	}
	return common.Hash{}, true, by, nil
}

// claimer is the span a claim's token names (its last part: trace id and span id), or none.
func claimer(tok string) trace.SpanContext {
	ids := tok[strings.LastIndexByte(tok, '/')+1:]
	tid, sid, ok := strings.Cut(ids, "-")
	traceID, err1 := trace.TraceIDFromHex(tid)
	spanID, err2 := trace.SpanIDFromHex(sid)
	if !ok || err1 != nil || err2 != nil {
		return trace.SpanContext{}
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, Remote: true})
}

// unclaim gives the nullifier back to the other replicas when nothing was sent, or the send was
// refused, or its transaction ended unrevealed (a send whose answer was lost is followed as sent:
// it never gets here before it settles).
func (r *Relayer) unclaim(ctx context.Context, nullifier common.Hash, claim *claimToken) {
	if claim != nil {
		r.claims.release(ctx, nullifier, claim)
	}
}

// claimsUnavailable is a claim that cannot be checked: the relayer refuses rather than risk a
// second transaction.
func claimsUnavailable(err error) *RevealError {
	return &RevealError{Reason: ClaimsUnavailable, Retry: time.Second, Cause: err,
		Message: "the relayer cannot coordinate with its other replicas right now; try again later"}
}

// errClaimReleased is another replica giving a nullifier back unsent: this copy may claim it.
var errClaimReleased = errors.New("claim released")

// awaitOther answers a copy of a reveal whose nullifier another replica claimed: with that
// transaction's outcome once mined (200, or 422 TX_REVERTED), 504 TX_PENDING after
// RECEIPT_TIMEOUT, or errClaimReleased when the other replica gave it back unsent.
//
// Its span links to the request that claimed the nullifier, on whichever replica.
func (r *Relayer) awaitOther(ctx context.Context, n common.Hash) (RevealResult, error) {
	wctx, end := r.stage(ctx, "receipt")
	deadline := time.Now().Add(r.cfg.Tx.ReceiptTimeout)
	var last common.Hash
	linked := false
	for {
		hash, held, by, err := r.claims.state(ctx, n)
		if by.IsValid() && !linked {
			trace.SpanFromContext(wctx).AddLink(trace.Link{SpanContext: by, Attributes: []attribute.KeyValue{attribute.String("vaultd.link", "claimed by")}})
			linked = true
		}
		switch {
		case err != nil:
			end(err)
			return RevealResult{}, claimsUnavailable(err)
		case !held:
			end(nil)
			return RevealResult{}, errClaimReleased
		case hash != common.Hash{}:
			last = hash
			if rc, err := r.client.TransactionReceipt(ctx, hash); err == nil && rc != nil {
				end(nil)
				res := resultOf(rc)
				if !res.Success {
					return res, &RevealError{Reason: TxReverted, Message: "the reveal transaction reverted on chain; it is not retried", TxHash: res.TxHash}
				}
				return res, nil
			}
		}
		if time.Now().After(deadline) {
			err := &RevealError{Reason: TxPending, Message: "the reveal was sent by another replica but not mined in time; it may still be mined", TxHash: hexOrEmpty(last)}
			end(err)
			return RevealResult{TxHash: hexOrEmpty(last)}, err
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
