// Package lease gives one process at a time the use of a named resource (an operator key)
// through Redis, with a fencing epoch: each time the name changes hands its epoch grows, and the
// holder's right to act ends, by its own clock, before Redis lets anyone else take the name.
//
// A lease is a Redis key "<prefix>:<name>" holding "<owner>/<random>:<epoch>" with a time to
// live; the random part, new each time the name is taken, tells this holding from every other,
// the same owner's included. The holder renews it every TTL/3. Its local deadline is the time it
// asked Redis (before the answer) plus the TTL minus a safety margin, so that it stops (Hold
// fails) at least the margin before Redis expires the key, even when Redis is unreachable:
// whoever takes the name next starts after the previous holder stopped. A holder that finds its
// name taken by another has lost it for good (Lost is closed); one whose name merely expired
// (Redis was away) takes it again with a new epoch (OnAcquire tells the caller, which re-reads
// what another holder may have changed).
//
// A Redis that restarts empty (no persistence) forgets every lease while their holders still
// act until their own deadlines: the first process to notice (a marker key is missing) keeps
// every name untaken for one TTL (ErrQuiet), after which every holder from before has stopped.
// A new Redis looks the same, so a fleet's very first start waits one TTL too. Its epochs count
// from 1 again, so an epoch's number alone does not tell one holding from another: a renewal
// extends the key only while it holds this holding's token, and a name taken again is always
// told to the caller (OnAcquire), whatever its epoch.
package lease

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrAllHeld is an Acquire that found every name held by another owner.
var ErrAllHeld = errors.New("every name is leased by another owner")

// ErrQuiet is an Acquire (or a renewal) refused because Redis has lost what was written before
// (it restarted without persistence, or was flushed), or is new: a holder from before may still
// act until its own deadline, so no name is taken for one TTL from the moment that was noticed.
var ErrQuiet = errors.New("Redis holds no leases from before (it restarted empty, or is new); no name is taken for one TTL")

// ErrLost is a Hold after the lease's deadline passed (not renewed in time, or taken by another).
var ErrLost = errors.New("the lease is not held")

// Config is what a lease is taken with.
type Config struct {
	Prefix string        // the Redis keys' prefix, e.g. "vaultd:relayer:operator"
	Owner  string        // this process, unique to it (edge.Instance: host:pid:random)
	TTL    time.Duration // how long Redis keeps a lease not renewed
	// Margin is how much earlier than Redis the holder stops: the room for clock-rate drift and
	// for a send begun just before the deadline to reach the node. Default TTL/5, at least 1 s
	// (or TTL/2 when TTL is below 2 s).
	Margin time.Duration
	// OnAcquire, when set, is called (from Acquire, or from the renewal loop) each time the name
	// is taken rather than renewed, before Hold succeeds under the new epoch: another holder may
	// have acted in between, whatever the epoch's number.
	OnAcquire func(epoch int64)
	Logger    *slog.Logger
}

func (c Config) margin() time.Duration {
	switch {
	case c.Margin > 0:
		return c.Margin
	case c.TTL < 2*time.Second:
		return c.TTL / 2
	}
	return max(c.TTL/5, time.Second)
}

// Lease is one name held by this process.
type Lease struct {
	rdb  *redis.Client
	cfg  Config
	name string
	key  string

	mu       sync.Mutex
	token    string // "<owner>/<random>:<epoch>" while held
	stem     string // the stem of a take not answered yet, used again by the next (renew)
	epoch    int64
	deadline time.Time // Hold fails from here on

	lost     chan struct{}
	lostOnce sync.Once
	stop     context.CancelFunc
	done     chan struct{}
}

// take sets KEYS[1] to ARGV[1]..":"..epoch with a TTL of ARGV[2] ms when it is free, with a new
// epoch from KEYS[2] ({epoch, 1}), or renews it when it is already ARGV[3], this holding's token
// ({epoch, 0}), or a take of the same stem ARGV[1] whose answer was lost ({epoch, 1}); {0, 0}
// when another holds it. Only the token tells a renewal from a new take: a
// Redis that restarted empty counts epochs from 1 again. KEYS[3] marks the Redis as one the leases were written to: when it is
// missing, Redis lost everything (or is new), and KEYS[4] keeps every name untaken for one TTL
// (-1), long enough for any holder from before to have passed its deadline.
var take = redis.NewScript(`
if redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[3], '1')
  redis.call('SET', KEYS[4], '1', 'PX', ARGV[2])
  return {-1, 0}
end
if redis.call('EXISTS', KEYS[4]) == 1 then return {-1, 0} end
local v = redis.call('GET', KEYS[1])
if v and v == ARGV[3] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {tonumber(string.match(v, ':(%d+)$')), 0}
end
if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ':' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {tonumber(string.match(v, ':(%d+)$')), 1}
end
if v then return {0, 0} end
local e = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. e, 'PX', ARGV[2])
return {e, 1}
`)

// quietScript answers 1 while Redis is in a quiet spell: it starts one of ARGV[1] ms when the
// marker KEYS[1] is missing (Redis lost everything, or is new), and KEYS[2] holds it.
var quietScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], '1')
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
  return 1
end
if redis.call('EXISTS', KEYS[2]) == 1 then return 1 end
return 0
`)

// Quiet reports whether the Redis guards under prefix (limits, budgets) are in a quiet spell:
// Redis lost what they held (it restarted empty), or is new, and for spell from the moment that
// was first noticed, what they would let through cannot be trusted. The caller sends nothing
// meanwhile. The same keys as Acquire's when prefix is a lease's.
func Quiet(ctx context.Context, rdb *redis.Client, prefix string, spell time.Duration) (bool, error) {
	n, err := quietScript.Run(ctx, rdb, []string{prefix + ":incarnation", prefix + ":quiet"}, spell.Milliseconds()).Int()
	return n == 1, err
}

// WaitQuiet waits until Quiet answers false (a new Redis's first spell, at a fleet's start), at
// most ctx's time.
func WaitQuiet(ctx context.Context, rdb *redis.Client, prefix string, spell time.Duration) error {
	for {
		quiet, err := Quiet(ctx, rdb, prefix, spell)
		if err != nil || !quiet {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// drop deletes KEYS[1] if it still holds ARGV[1].
var drop = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

// Acquire takes the first free name of names (tried from a random one on, so that replicas
// starting together spread out), and renews it in the background until Release. ErrAllHeld when
// every name is held.
func Acquire(ctx context.Context, rdb *redis.Client, cfg Config, names []string) (*Lease, error) {
	if cfg.TTL <= 0 || cfg.Prefix == "" {
		return nil, errors.New("lease: a prefix and a TTL are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	start := rand.IntN(max(len(names), 1))
	for i := range names {
		name := names[(start+i)%len(names)]
		l := &Lease{rdb: rdb, cfg: cfg, name: name, key: cfg.Prefix + ":" + name, lost: make(chan struct{}), done: make(chan struct{})}
		ok, err := l.renew(ctx)
		if err != nil { // ErrQuiet included: the caller waits, as for ErrAllHeld
			return nil, err
		}
		if ok {
			rctx, cancel := context.WithCancel(context.Background())
			l.stop = cancel
			go l.keep(rctx)
			return l, nil
		}
	}
	return nil, ErrAllHeld
}

// Name is the leased name.
func (l *Lease) Name() string { return l.name }

// Epoch is the lease's current epoch: it grows each time the name changes hands, and starts
// from 1 again when Redis restarts empty.
func (l *Lease) Epoch() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.epoch
}

// Hold answers until when this process may act on the name, or ErrLost. A caller that acts
// (sends a transaction) bounds the act by the deadline it is given.
func (l *Lease) Hold() (deadline time.Time, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !time.Now().Before(l.deadline) {
		return l.deadline, fmt.Errorf("%w: %s (epoch %d) ended at %s", ErrLost, l.name, l.epoch, l.deadline.Format(time.RFC3339Nano))
	}
	return l.deadline, nil
}

// Lost is closed when another owner took the name: this process will not hold it again.
func (l *Lease) Lost() <-chan struct{} { return l.lost }

// Release stops renewing and gives the name back at once (if it is still this process's), so
// that a standby need not wait for the TTL.
func (l *Lease) Release(ctx context.Context) {
	l.stop()
	<-l.done
	l.mu.Lock()
	token := l.token
	l.deadline = time.Time{}
	l.mu.Unlock()
	if token != "" {
		_ = drop.Run(ctx, l.rdb, []string{l.key}, token).Err()
	}
}

// renew runs take once: true while the name is this process's, with the deadline moved on.
func (l *Lease) renew(ctx context.Context) (bool, error) {
	l.mu.Lock()
	token := l.token
	if l.stem == "" { // the token's stem, if the name is taken anew: kept until an attempt is answered
		l.stem = fmt.Sprintf("%s/%016x", l.cfg.Owner, rand.Uint64())
	}
	holder := l.stem
	l.mu.Unlock()
	asked := time.Now() // before the call: Redis starts the TTL later than this
	got, err := take.Run(ctx, l.rdb, []string{l.key, l.key + ":epoch", l.cfg.Prefix + ":incarnation", l.cfg.Prefix + ":quiet"},
		holder, l.cfg.TTL.Milliseconds(), token).Int64Slice()
	if err != nil {
		return false, err
	}
	l.mu.Lock()
	l.stem = ""
	l.mu.Unlock()
	if len(got) != 2 {
		return false, fmt.Errorf("lease: unexpected answer %v", got)
	}
	e, taken := got[0], got[1] == 1
	if e < 0 {
		return false, ErrQuiet
	}
	if e == 0 {
		return false, nil
	}
	l.mu.Lock()
	l.epoch = e
	if taken {
		l.token = fmt.Sprintf("%s:%d", holder, e)
	}
	if taken && l.cfg.OnAcquire != nil {
		l.deadline = time.Time{} // Hold fails until the caller has caught up
		l.mu.Unlock()
		l.cfg.OnAcquire(e)
		l.mu.Lock()
	}
	l.deadline = asked.Add(l.cfg.TTL - l.cfg.margin())
	l.mu.Unlock()
	return true, nil
}

// keep renews every TTL/3 until stopped; an unreachable Redis is retried every TTL/10 (the
// deadline passes meanwhile, and Hold fails), another owner's name closes Lost and ends it.
func (l *Lease) keep(ctx context.Context) {
	defer close(l.done)
	wait := l.cfg.TTL / 3
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		cctx, cancel := context.WithTimeout(ctx, l.cfg.TTL/3)
		ok, err := l.renew(cctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			if !failing {
				l.cfg.Logger.Warn("cannot renew the lease; it lapses if Redis stays unreachable or empty", "name", l.name, "epoch", l.Epoch(), "err", err)
			}
			failing, wait = true, max(l.cfg.TTL/10, 10*time.Millisecond)
		case !ok:
			l.mu.Lock()
			l.deadline, l.token = time.Time{}, ""
			l.mu.Unlock()
			l.cfg.Logger.Error("the lease was taken by another owner", "name", l.name, "epoch", l.Epoch())
			l.lostOnce.Do(func() { close(l.lost) })
			return
		default:
			if failing {
				l.cfg.Logger.Info("renewing the lease again", "name", l.name, "epoch", l.Epoch())
			}
			failing, wait = false, l.cfg.TTL/3
		}
	}
}
