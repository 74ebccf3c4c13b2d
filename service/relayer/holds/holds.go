// Package holds keeps a nullifier's reveal to one transaction across the relayer replicas
// that share a Redis: a hold per nullifier, the hash of each version sent recorded on it.
package holds

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// Holds makes a nullifier's reveal one transaction across the relayer replicas that
// share a Redis (REDIS_URL). The replica whose checks pass first holds the nullifier with a
// token of its own and sends; it records the hash of every signed version of its transaction
// (the first, and each fee-bumped replacement) on the hold before that version is sent, and
// only while the hold is still its own (compare-and-set on the token). A replica with a copy of
// the request finds the hold taken and answers with that transaction's outcome, read from the
// chain, never a second send. A hold released lets the next copy try (its checks run again):
// it is released before anything is sent (a limit, the gate), and on every path that ends the
// reveal with nothing revealed (the node refusing the send of a version recorded on it, an
// operator's cancel mined, the transaction reverted, its record found displaced), so that such
// a reveal can be sent again at once, on any replica, as in one process. A transaction given up
// (not mined after txmgr's 30 minutes) may still be mined: its hold is kept until it lapses.
// While its reveal waits to be sent (behind a slow node, say) the hold is refreshed, so it
// lapses only when its replica died before sending.
//
// A Redis that restarts empty forgets every hold while their reveals may be in flight: the
// first hold to notice (a marker key is missing) refuses every hold for one quiet spell
// (OPERATOR_LEASE_TTL), and so do all after it until the spell ends (503, nothing sent), which
// lets reveals in flight be mined before a copy can hold their nullifier again. A new Redis
// looks the same: the relayer waits out its first spell before it holds.
type Holds struct {
	client  *redis.Client
	holdTTL time.Duration // how long a hold lasts unrefreshed before its transaction is recorded
	ttl     time.Duration // how long a hold outlives its last record: well past the transaction's life
	quiet   time.Duration // how long holds are refused once Redis is found to have lost them
}

// LeasePrefix is the Redis keys' prefix of the relayer's operator keys' leases
// (service/kit/lease). Marker marks the Redis the holds are written to and Quiet the quiet spell
// after it lost them: the leases' own keys, so that one spell covers both.
const (
	LeasePrefix = "vaultd:relayer:operator"
	Marker      = LeasePrefix + ":incarnation"
	Quiet       = LeasePrefix + ":quiet"
)

// New is the holds of the replicas sharing client: a hold lasts holdTTL unrefreshed before
// its transaction is recorded, and ttl after its last record; quiet is the spell holds are
// refused for once Redis is found to have lost them.
func New(client *redis.Client, holdTTL, ttl, quiet time.Duration) *Holds {
	return &Holds{client: client, holdTTL: holdTTL, ttl: ttl, quiet: quiet}
}

// ErrRedisWiped is a hold refused while Redis is in its quiet spell after losing its data.
var ErrRedisWiped = errors.New("Redis lost the nullifier holds (it restarted empty, or is new); no reveal is held for a moment")

// Token is one hold of a nullifier: what makes it this request's own. stop ends its
// refreshing.
type Token struct {
	value string
	stop  func()
}

func (c *Holds) key(n common.Hash) string { return "vaultd:relayer:nullifier:" + n.Hex() }

// ErrLost is a record refused because the hold is no longer this request's: it lapsed,
// and another replica may have taken it.
var ErrLost = errors.New("the nullifier's hold lapsed before its transaction was recorded")

// Each hold's value is its token, then a space and the newest hash once a version is recorded.
var (
	holdScript = redis.NewScript(`if redis.call('EXISTS', KEYS[2]) == 0 then
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

// Hold takes the nullifier for this request; nil when another holds it. The hold is refreshed
// every holdTTL/3 until it is recorded or released.
func (c *Holds) Hold(ctx context.Context, n common.Hash) (*Token, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	// The token ends with the holding request's trace and span: a copy of the reveal that waits
	// for it on another replica links to that trace.
	tok := edge.Instance() + "/" + hex.EncodeToString(b[:])
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		tok += "/" + sc.TraceID().String() + "-" + sc.SpanID().String()
	}
	got, err := holdScript.Run(ctx, c.client, []string{c.key(n), Marker, Quiet}, tok, c.holdTTL.Milliseconds(), c.quiet.Milliseconds()).Int()
	switch {
	case err != nil:
		return nil, err
	case got < 0:
		return nil, ErrRedisWiped
	case got == 0:
		return nil, nil
	}
	refreshCtx, stop := context.WithCancel(context.Background())
	go func() {
		t := time.NewTicker(c.holdTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-refreshCtx.Done():
				return
			case <-t.C:
				if n, err := refreshScript.Run(refreshCtx, c.client, []string{c.key(n)}, tok, c.holdTTL.Milliseconds()).Int(); err == nil && n == 0 {
					return // recorded (its TTL is the record's now), or lost
				}
			}
		}
	}()
	return &Token{value: tok, stop: stop}, nil
}

// Record stores the hash of a version about to be sent, if the hold is still tok's.
func (c *Holds) Record(ctx context.Context, n common.Hash, tok *Token, hash common.Hash) error {
	ok, err := recordScript.Run(ctx, c.client, []string{c.key(n)}, tok.value, hash.Hex(), c.ttl.Milliseconds()).Int()
	if err != nil {
		return err
	}
	tok.stop()
	if ok == 0 {
		return ErrLost
	}
	return nil
}

// Release gives the nullifier back, if the hold is still tok's (with a version recorded on it
// or not): when nothing was sent, or when what was sent ended with nothing revealed.
func (c *Holds) Release(ctx context.Context, n common.Hash, tok *Token) {
	tok.stop()
	_ = releaseScript.Run(ctx, c.client, []string{c.key(n)}, tok.value).Err()
}

// ReleaseSent gives the nullifier back when the version recorded on its hold is one of hashes:
// a transaction known to have ended with nothing revealed, whose hold's token this process
// does not have (it was held before a restart, or by the replica that held the key before).
func (c *Holds) ReleaseSent(ctx context.Context, n common.Hash, hashes []common.Hash) error {
	args := make([]any, len(hashes))
	for i, h := range hashes {
		args[i] = h.Hex()
	}
	return releaseSentScript.Run(ctx, c.client, []string{c.key(n)}, args...).Err()
}

// State reads a hold: released (no key), held but not yet sent, or the newest hash sent; and
// the span of the request that held it (invalid when it named none).
func (c *Holds) State(ctx context.Context, n common.Hash) (hash common.Hash, held bool, by trace.SpanContext, err error) {
	v, err := c.client.Get(ctx, c.key(n)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return common.Hash{}, false, by, nil
	case err != nil:
		return common.Hash{}, false, by, err
	}
	tok, h, sent := strings.Cut(v, " ")
	by = holder(tok)
	if sent {
		return common.HexToHash(h), true, by, nil
	}
	return common.Hash{}, true, by, nil
}

// holder is the span a hold's token names (its last part: trace id and span id), or none.
func holder(tok string) trace.SpanContext {
	ids := tok[strings.LastIndexByte(tok, '/')+1:]
	tid, sid, ok := strings.Cut(ids, "-")
	traceID, err1 := trace.TraceIDFromHex(tid)
	spanID, err2 := trace.SpanIDFromHex(sid)
	if !ok || err1 != nil || err2 != nil {
		return trace.SpanContext{}
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, Remote: true})
}
