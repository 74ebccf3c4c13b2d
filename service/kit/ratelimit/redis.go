package ratelimit

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// Redis is a sliding-window limit kept in Redis, so that it holds exactly across every replica
// counting through the same Redis: each key is a sorted set of its events within the window,
// checked and added to in one script, on Redis's clock (no replica's clock matters). What is
// limited (a client's IP, a recipient) never appears in Redis: its key is an HMAC-SHA256 of it
// under a secret every replica shares and Redis does not hold, the password in REDIS_URL.
type Redis struct {
	client *redis.Client
	rate   Rate
	prefix string // vaultd:ratelimit:<name>:
	secret []byte
}

// Dial connects to the Redis at url (redis://host:port/db, rediss:// for TLS); it makes no call.
func Dial(url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 2*time.Second, time.Second, time.Second
	// A command is never sent again by the client: one whose answer was lost may have run, and
	// the spend budget's reservations and the leases' takes must not run twice. Each caller
	// decides instead (a limit fails closed, a lease renews at its next turn).
	opts.MaxRetries = -1
	// Maintenance notifications are a Redis Enterprise/Cloud feature; left on ("auto"), each
	// client starts a circuit breaker's cleanup loop that its Close never stops (go-redis
	// v9.23): a goroutine leaked per client (TestNoGoroutineOutlivesTheRelayer).
	opts.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return redis.NewClient(opts), nil
}

// Connect is the Redis at url as every service uses it: dialled as Dial does, traced (Trace) and
// reached once, so that a wrong REDIS_URL stops a start as a wrong RPC_URL does.
func Connect(ctx context.Context, url string, tp trace.TracerProvider) (*redis.Client, error) {
	client, err := Dial(url)
	if err != nil {
		return nil, err
	}
	if err := Trace(client, tp); err != nil {
		client.Close()
		return nil, err
	}
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	return client, nil
}

// NewRedis makes the limit r named name (e.g. "relayer:ip") on client.
func NewRedis(client *redis.Client, name string, r Rate) *Redis {
	return &Redis{client: client, rate: r, prefix: "vaultd:ratelimit:" + name + ":",
		secret: []byte("vaultd rate-limit keys\x00" + client.Options().Password)}
}

// redisKey is the Redis key of what key limits: the limit's prefix and an HMAC of key.
func (l *Redis) redisKey(key string) string {
	mac := hmac.New(sha256.New, l.secret)
	mac.Write([]byte(key))
	return l.prefix + hex.EncodeToString(mac.Sum(nil)[:16])
}

// Rate is the limit's rate.
func (l *Redis) Rate() Rate { return l.rate }

// allowScript drops the events older than the window, and adds this one unless the window is
// full; it answers {1 if added else 0, how many more fit, milliseconds until the oldest event
// leaves the window}.
var allowScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local ok = 0
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  ok = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {ok, limit - redis.call('ZCARD', KEYS[1]), tonumber(oldest[2]) + window - now}
`)

// Allow records an event for key if the limit allows it. An error (Redis unreachable) allows
// nothing: callers refuse, never let through.
func (l *Redis) Allow(ctx context.Context, key string) (Decision, error) {
	var id [12]byte
	_, _ = rand.Read(id[:])
	res, err := allowScript.Run(ctx, l.client, []string{l.redisKey(key)}, l.rate.Window.Milliseconds(), l.rate.N, hex.EncodeToString(id[:])).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("rate limit in Redis: %w", err)
	}
	if len(res) != 3 {
		return Decision{}, fmt.Errorf("rate limit in Redis: unexpected answer %v", res)
	}
	return Decision{OK: res[0] == 1, Remaining: int(max(res[1], 0)), Reset: max(time.Duration(res[2])*time.Millisecond, 0)}, nil
}

// Undo takes back the newest event recorded for key.
func (l *Redis) Undo(ctx context.Context, key string) error {
	return l.client.ZPopMax(ctx, l.redisKey(key), 1).Err()
}

// countScript answers how many events are in the window now, by Redis's clock (as allowScript's).
var countScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. (now - tonumber(ARGV[1])), '+inf')
`)

// Count is how many events key has in the window now.
func (l *Redis) Count(ctx context.Context, key string) (int, error) {
	n, err := countScript.Run(ctx, l.client, []string{l.redisKey(key)}, l.rate.Window.Milliseconds()).Int()
	if err != nil {
		return 0, fmt.Errorf("rate limit in Redis: %w", err)
	}
	return n, nil
}

// Trace makes a client span of each of client's commands run inside a traced operation (a
// request's, a background job's): the command's name, never its keys or arguments (the keys
// hold a client's HMAC-ed address).
func Trace(client *redis.Client, tp trace.TracerProvider) error {
	return redisotel.InstrumentTracing(client, redisotel.WithTracerProvider(tracing.ChildrenOnly(tp)), redisotel.WithDBStatement(false))
}

// Store is where the limits count: in this process when RedisURL is empty, or in the Redis at
// RedisURL so that they hold across every replica sharing it.
type Store struct {
	RedisURL string // never logged: it may carry a password
}

// StoreFromEnv reads REDIS_URL.
func StoreFromEnv(e *config.Env) Store { return Store{RedisURL: e.String("REDIS_URL", "")} }

// Validate reports a REDIS_URL that is no redis:// or rediss:// URL, without its value.
func (s Store) Validate() error {
	if s.RedisURL == "" {
		return nil
	}
	if _, err := redis.ParseURL(s.RedisURL); err != nil {
		return errors.New("REDIS_URL is not a redis:// or rediss:// URL")
	}
	return nil
}
