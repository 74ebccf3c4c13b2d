package relayer

import (
	"context"
	"fmt"
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

func (l *localInserts) hold(_ context.Context, age, history uint32, change bool) (bool, uint32, error) {
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

func (l *localInserts) add(_ context.Context, delta int) error {
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
	ok, inFlight, err := r.inserts.hold(ctx, age, r.rootHistory, change)
	if err != nil {
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
	return r.releaseInsert(), nil
}

// addInsert counts one more insert in flight that no holdRoot counted (a reveal adopted from the
// pool), and returns its release.
func (r *Relayer) addInsert() func() {
	r.addInserts(1, "could not count an adopted reveal's insert with the other replicas")
	return r.releaseInsert()
}

// releaseInsert is the release of one counted insert.
func (r *Relayer) releaseInsert() func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			r.addInserts(-1, "could not release a reveal's insert with the other replicas; it lapses with this replica's count")
		})
	}
}

// addInserts changes the count of inserts in flight. Only a shared count can
// fail, and then the shared count is off until this replica's count lapses: a warning.
func (r *Relayer) addInserts(delta int, warning string) {
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Chain.RPCTimeout)
	defer cancel()
	if err := r.inserts.add(ctx, delta); err != nil {
		r.log.Warn(warning, "err", err)
	}
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
