package relayer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// The counts of the reveals with change in flight (insertCounter, relayer.go), which the root
// guard holds a reveal's place among (holdRoot).

// localInserts is the insertCounter of a relayer that runs alone.
type localInserts struct {
	mu sync.Mutex
	n  int
}

func (l *localInserts) hold(_ context.Context, _ string, age, history uint32, change bool) (bool, uint32, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	inFlight := uint32(l.n)
	if uint64(age)+uint64(inFlight) >= uint64(history) {
		return false, inFlight, nil
	}
	if change {
		l.n++
	}
	return true, inFlight, nil
}

// count and release are each called once per insert (releaseInsert), and a count in process
// has no answer to lose: the ids are not needed.
func (l *localInserts) count(context.Context, string) error { return l.add(1) }

func (l *localInserts) release(context.Context, string) error { return l.add(-1) }

func (l *localInserts) add(delta int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n += delta
	return nil
}

// holdRoot refuses a reveal whose root the inserts ahead of it would push out of the tree's root
// history before it is mined: its root is age inserts old, and each reveal with change in flight
// inserts one more. A reveal with change holds its place among those inserts until release (when
// its transaction settles, or is not sent).
func (r *Relayer) holdRoot(ctx context.Context, age uint32, change bool) (release func(), err error) {
	id := newInsertID()
	ok, inFlight, err := r.inserts.hold(ctx, id, age, r.rootHistory, change)
	if err != nil {
		if change { // its answer may be lost after it counted: given back, if it did
			r.releaseInsert(id)()
		}
		return nil, holdsUnavailable(err)
	}
	if !ok {
		return nil, &RevealError{Reason: RootExpiring, Message: fmt.Sprintf(
			"the proof's root is %d inserts old and the relayer has %d inserts in flight ahead of it; the tree keeps %d roots, so the root would be unknown by the time the reveal is mined: prove again against the current root",
			age, inFlight, r.rootHistory)}
	}
	if !change {
		return func() {}, nil
	}
	return r.releaseInsert(id), nil
}

// addInsert counts one more insert in flight that no holdRoot counted (a reveal adopted from the
// pool), and returns its release.
func (r *Relayer) addInsert() func() {
	id := newInsertID()
	r.changeInserts(func(ctx context.Context) error { return r.inserts.count(ctx, id) },
		"could not count an adopted reveal's insert with the other replicas")
	return r.releaseInsert(id)
}

// releaseInsert is the release of the counted insert id.
func (r *Relayer) releaseInsert(id string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			r.changeInserts(func(ctx context.Context) error { return r.inserts.release(ctx, id) },
				"could not release a reveal's insert with the other replicas; it lapses with this replica's count")
		})
	}
}

// changeInserts runs a change of the count of inserts in flight. Only a shared count can
// fail, and then the shared count is off until this replica's count lapses: a warning.
func (r *Relayer) changeInserts(change func(context.Context) error, warning string) {
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Chain.RPCTimeout)
	defer cancel()
	if err := change(ctx); err != nil {
		r.log.Warn(warning, "err", err)
	}
}

// newInsertID names a counted insert once, for every write of it to the shared count.
func newInsertID() string { return strconv.FormatUint(rand.Uint64(), 36) }

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

// redisNow is the Lua that reads Redis's clock into now, in milliseconds: one clock for every
// replica.
const redisNow = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// counted is the Lua that counts the insert ARGV[3] for owner ARGV[1] (KEYS[2]..owner, lapsing
// after ARGV[2] ms) once: not if its id was counted before or given back (KEYS[3], the owner's
// ids of the last hour).
const counted = redisNow + `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 3600000)
if not redis.call('ZSCORE', KEYS[3], ARGV[3] .. ':released') and redis.call('ZADD', KEYS[3], 'NX', now, ARGV[3]) == 1 then
  redis.call('INCR', KEYS[2] .. ARGV[1])
  redis.call('SADD', KEYS[1], ARGV[1])
end
redis.call('PEXPIRE', KEYS[3], 3600000)
`

// holdScript sums every owner's count (dropping lapsed owners); if ARGV[4] (the root's age) plus
// that sum is under ARGV[5] (the root history) it counts the insert ARGV[3] for owner ARGV[1]
// when ARGV[6] is 1 (a reveal with change), and answers {1, sum}; else {0, sum}.
var holdScript = redis.NewScript(`
local sum = 0
for _, o in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local v = redis.call('GET', KEYS[2] .. o)
  if v then sum = sum + tonumber(v) else redis.call('SREM', KEYS[1], o) end
end
if tonumber(ARGV[4]) + sum >= tonumber(ARGV[5]) then return {0, sum} end
if ARGV[6] == '1' then` + counted + `end
redis.call('PEXPIRE', KEYS[2] .. ARGV[1], ARGV[2])
return {1, sum}
`)

// countScript counts the insert ARGV[3] for owner ARGV[1] once.
var countScript = redis.NewScript(counted + `
redis.call('PEXPIRE', KEYS[2] .. ARGV[1], ARGV[2])
return 1
`)

// releaseScript gives back the insert ARGV[3] of owner ARGV[1] if it was counted, once, and
// marks it given back, so that a count of it arriving after changes nothing.
var releaseScript = redis.NewScript(redisNow + `
if redis.call('ZREM', KEYS[3], ARGV[3]) == 1 then
  local v = redis.call('DECR', KEYS[2] .. ARGV[1])
  if v <= 0 then
    redis.call('DEL', KEYS[2] .. ARGV[1])
    redis.call('SREM', KEYS[1], ARGV[1])
  else
    redis.call('PEXPIRE', KEYS[2] .. ARGV[1], ARGV[2])
  end
end
redis.call('ZADD', KEYS[3], now, ARGV[3] .. ':released')
redis.call('PEXPIRE', KEYS[3], 3600000)
return 1
`)

func (f *fleetInserts) keys() []string {
	return []string{insertsPrefix + ":owners", insertsPrefix + ":count:", insertsPrefix + ":ids:" + f.owner}
}

// hold checks age against the fleet's inserts in flight and counts this reveal's when change.
func (f *fleetInserts) hold(ctx context.Context, id string, age, history uint32, change bool) (ok bool, inFlight uint32, err error) {
	c := "0"
	if change {
		c = "1"
	}
	out, err := holdScript.Run(ctx, f.client, f.keys(), f.owner, f.ttl.Milliseconds(), id, age, history, c).Int64Slice()
	if err != nil {
		return false, 0, err
	}
	if len(out) != 2 {
		return false, 0, fmt.Errorf("inserts in flight: unexpected answer %v", out)
	}
	return out[0] == 1, uint32(out[1]), nil
}

// count counts the insert id, once.
func (f *fleetInserts) count(ctx context.Context, id string) error {
	return countScript.Run(ctx, f.client, f.keys(), f.owner, f.ttl.Milliseconds(), id).Err()
}

// release gives back the insert id if it was counted, once.
func (f *fleetInserts) release(ctx context.Context, id string) error {
	return releaseScript.Run(ctx, f.client, f.keys(), f.owner, f.ttl.Milliseconds(), id).Err()
}
