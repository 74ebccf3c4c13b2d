package gate

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Shared is a spend budget's account kept where every replica sees it (SharedRedis): what the
// wallets of all replicas paid in the window, and what each replica has reserved for its
// transactions in flight. With one, the budget holds across replicas: a send is admitted, and
// its worst-case cost reserved, in one step (Admit) while the fleet's spending is under the
// limit, so the bound is the limit plus one transaction, as for one process.
//
// Every write is named by an id and counted once, however many times it is sent: a write whose
// answer was lost is sent again as it was, and an admission whose answer was lost is taken back
// (Unreserve), which changes nothing if it never arrived.
type Shared interface {
	// Paid records a payment, once by id.
	Paid(ctx context.Context, id string, wei *big.Int) error
	// Reserve changes this replica's reservation by delta (negative to release), once by id.
	Reserve(ctx context.Context, id string, delta *big.Int) error
	// Unreserve takes back the reservation of the admission id, if it was made.
	Unreserve(ctx context.Context, id string, cost *big.Int) error
	// Total is what was paid within window by every replica plus what every replica has
	// reserved, and when the oldest payment in the window was made (zero: none).
	Total(ctx context.Context, window time.Duration) (wei *big.Int, oldest time.Time, err error)
	// Admit reserves cost for this replica under id if the total is under limit, in one step no
	// other replica's admission can come between; it answers the total it saw.
	Admit(ctx context.Context, window time.Duration, limit *big.Int, id string, cost *big.Int) (ok bool, total *big.Int, oldest time.Time, err error)
}

// SharedRedis keeps a budget's account in Redis under prefix: a sorted set of payments (scored
// by Redis's own clock), and one key per replica holding its reservations, which lapses if the
// replica stops renewing it (it died: its transactions are counted again as their new holder
// reserves or pays them). Amounts are counted in gwei, rounded up: exact to 9 million native
// tokens per window.
type SharedRedis struct {
	rdb    *redis.Client
	prefix string // e.g. "vaultd:relayer:spend"
	owner  string // this replica
	ttl    time.Duration
}

// NewSharedRedis is the account at prefix for the replica owner; a reservation not touched for
// ttl lapses.
func NewSharedRedis(rdb *redis.Client, prefix, owner string, ttl time.Duration) *SharedRedis {
	return &SharedRedis{rdb: rdb, prefix: prefix, owner: owner, ttl: ttl}
}

var gwei = big.NewInt(1e9)

// ceilGwei is wei in gwei, rounded up.
func ceilGwei(wei *big.Int) int64 {
	q, r := new(big.Int).QuoRem(wei, gwei, new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	} else if r.Sign() < 0 {
		q.Sub(q, big.NewInt(1))
	}
	return q.Int64()
}

// redisNow is the Lua that reads Redis's clock into now, in milliseconds: one clock for every
// replica.
const redisNow = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// paidScript adds ARGV[2] gwei (member ARGV[1]) to the payments KEYS[1] at Redis's time.
var paidScript = redis.NewScript(redisNow + `
redis.call('ZADD', KEYS[1], now, ARGV[1] .. ':' .. ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return now
`)

// applied is the Lua that records the write ARGV[4] in the sorted set KEYS[3] of this owner's
// writes of the last hour, at Redis's time; fresh is false when it was recorded before (the
// write came again: it is not applied twice).
const applied = redisNow + `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 3600000)
local fresh = redis.call('ZADD', KEYS[3], 'NX', now, ARGV[4]) == 1
redis.call('PEXPIRE', KEYS[3], 3600000)
`

// change is the Lua that adds ARGV[1] gwei to the reservation KEYS[2] of owner ARGV[3], lapsing
// after ARGV[2] ms, and keeps the owners set KEYS[1].
const change = `
local v = redis.call('INCRBY', KEYS[2], ARGV[1])
if v <= 0 then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[1], ARGV[3])
else
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  redis.call('SADD', KEYS[1], ARGV[3])
end
`

// reserveScript changes the reservation KEYS[2] of owner ARGV[3] by ARGV[1] gwei, once by the
// id ARGV[4] (KEYS[3]: the owner's writes).
var reserveScript = redis.NewScript(applied + `
if fresh then` + change + `end
return 1
`)

// unreserveScript takes back the ARGV[1] (negative) gwei of the admission ARGV[4] if it was made
// and not taken back before, and marks it undone (ARGV[4]:undone) so that an admission still on
// its way, arriving after, reserves nothing.
var unreserveScript = redis.NewScript(redisNow + `
if redis.call('ZREM', KEYS[3], ARGV[4]) == 1 then` + change + `end
redis.call('ZADD', KEYS[3], now, ARGV[4] .. ':undone')
redis.call('PEXPIRE', KEYS[3], 3600000)
return 1
`)

// admitScript forgets payments older than ARGV[1] ms and sums the rest and every owner's
// reservation (dropping owners whose reservation lapsed); when the sum is under ARGV[4] gwei it
// adds ARGV[5] gwei to this owner's reservation (KEYS[3]), recorded as the admission ARGV[7]
// (KEYS[4]: the owner's writes) unless that was taken back already, and renews the reservation
// either way. It answers {admitted (1/0), sum, oldest payment, now}.
var admitScript = redis.NewScript(redisNow + `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
local sum = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  sum = sum + tonumber(string.match(m, ':(%d+)$'))
end
for _, o in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local v = redis.call('GET', ARGV[2] .. o)
  if v then sum = sum + tonumber(v) else redis.call('SREM', KEYS[2], o) end
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local ok = 0
if sum < tonumber(ARGV[4]) and ARGV[7] ~= '' and not redis.call('ZSCORE', KEYS[4], ARGV[7] .. ':undone') then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - 3600000)
  redis.call('ZADD', KEYS[4], now, ARGV[7])
  redis.call('PEXPIRE', KEYS[4], 3600000)
  redis.call('INCRBY', KEYS[3], ARGV[5])
  redis.call('SADD', KEYS[2], ARGV[6])
  ok = 1
end
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return {tostring(ok), string.format('%.0f', sum), oldest[2] or '', tostring(now)}
`)

// Admit reserves cost if the fleet's total is under limit, atomically.
func (s *SharedRedis) Admit(ctx context.Context, window time.Duration, limit *big.Int, id string, cost *big.Int) (bool, *big.Int, time.Time, error) {
	paid, owners, reserved := s.keys()
	out, err := admitScript.Run(ctx, s.rdb, []string{paid, owners, reserved + s.owner, s.writes()}, window.Milliseconds(), reserved, s.ttl.Milliseconds(),
		ceilGwei(limit), ceilGwei(cost), s.owner, id).StringSlice()
	if err != nil {
		return false, nil, time.Time{}, err
	}
	if len(out) != 4 {
		return false, nil, time.Time{}, fmt.Errorf("spend admit: unexpected answer %v", out)
	}
	sum, ok := new(big.Int).SetString(out[1], 10)
	if !ok {
		return false, nil, time.Time{}, fmt.Errorf("spend total: %q", out[1])
	}
	var oldest time.Time
	if out[2] != "" {
		ms, _ := strconv.ParseInt(out[2], 10, 64)
		now, _ := strconv.ParseInt(out[3], 10, 64)
		// Redis's clock decides the window; translate its oldest payment to this clock.
		oldest = time.Now().Add(time.Duration(ms-now) * time.Millisecond)
	}
	return out[0] == "1", sum.Mul(sum, gwei), oldest, nil
}

func (s *SharedRedis) keys() (paid, owners, reservedPrefix string) {
	return s.prefix + ":paid", s.prefix + ":owners", s.prefix + ":reserved:"
}

// writes is the key of this replica's writes of the last hour, by id.
func (s *SharedRedis) writes() string { return s.prefix + ":writes:" + s.owner }

// Paid records a payment, once by id.
func (s *SharedRedis) Paid(ctx context.Context, id string, wei *big.Int) error {
	paid, _, _ := s.keys()
	return paidScript.Run(ctx, s.rdb, []string{paid}, id, ceilGwei(wei), (48 * time.Hour).Milliseconds()).Err()
}

// Reserve changes this replica's reservation, once by id.
func (s *SharedRedis) Reserve(ctx context.Context, id string, delta *big.Int) error {
	_, owners, reserved := s.keys()
	return reserveScript.Run(ctx, s.rdb, []string{owners, reserved + s.owner, s.writes()}, ceilGwei(delta), s.ttl.Milliseconds(), s.owner, id).Err()
}

// Unreserve takes back the admission id's reservation of cost, if it was made.
func (s *SharedRedis) Unreserve(ctx context.Context, id string, cost *big.Int) error {
	_, owners, reserved := s.keys()
	return unreserveScript.Run(ctx, s.rdb, []string{owners, reserved + s.owner, s.writes()}, -ceilGwei(cost), s.ttl.Milliseconds(), s.owner, id).Err()
}

// Total sums the fleet's payments in window and reservations.
func (s *SharedRedis) Total(ctx context.Context, window time.Duration) (*big.Int, time.Time, error) {
	_, total, oldest, err := s.Admit(ctx, window, new(big.Int), "", new(big.Int)) // a limit of 0 admits nothing: a read
	return total, oldest, err
}

// newWriteID names a write to the shared budget once, for every time it is sent.
func newWriteID() string { return strconv.FormatUint(rand.Uint64(), 36) }
