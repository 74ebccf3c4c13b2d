// Package ratelimit is the sliding-window rate limiting of vaultd's services: a Window counts
// events per key, in one process (Limiter, the default) or in Redis so that a limit holds across
// every replica (Redis); and the "N/window" setting that configures one (RATE_LIMIT_PER_IP=5/1m).
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// Rate is "N per window".
type Rate struct {
	N      int
	Window time.Duration
}

func (r Rate) String() string { return fmt.Sprintf("%d per %s", r.N, windowName(r.Window)) }

func windowName(d time.Duration) string {
	switch d {
	case time.Second:
		return "second"
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return d.String()
}

// FromEnv reads the variable name as "N/window", e.g. "5/1m", "10/1h"; def when unset.
func FromEnv(e *config.Env, name, def string) Rate {
	s := e.String(name, def)
	n, w, ok := strings.Cut(s, "/")
	count, err1 := strconv.Atoi(strings.TrimSpace(n))
	window, err2 := time.ParseDuration(strings.TrimSpace(w))
	if !ok || err1 != nil || err2 != nil || count < 1 || window <= 0 {
		e.Fail("%s must look like 5/1m (count/window), got %q", name, s)
		return Rate{N: 1, Window: time.Minute}
	}
	return Rate{N: count, Window: window}
}

// ClientLimit is a per-client-IP limit's settings: RATE_LIMIT_PER_IP and RATE_LIMIT_IPV6_PREFIX.
type ClientLimit struct {
	PerIP      Rate
	IPv6Prefix int
}

// ClientLimitFromEnv reads RATE_LIMIT_PER_IP (default def) and RATE_LIMIT_IPV6_PREFIX.
func ClientLimitFromEnv(e *config.Env, def string) ClientLimit {
	return ClientLimit{PerIP: FromEnv(e, "RATE_LIMIT_PER_IP", def), IPv6Prefix: IPv6PrefixFromEnv(e)}
}

// IPv6PrefixFromEnv reads RATE_LIMIT_IPV6_PREFIX: how many leading bits of an IPv6 client's
// address are one client (default 64; 56 or 48 where providers give each subscriber that much).
func IPv6PrefixFromEnv(e *config.Env) int {
	return int(e.Int("RATE_LIMIT_IPV6_PREFIX", 64, 32, 128))
}

// Window allows at most Rate().N events per Rate().Window for each key. Allow records an event
// if the limit allows it and says what is left; Undo takes back the newest event of a key (one
// Allow let through that did not happen after all). An error (a store unreachable) allows
// nothing: callers refuse rather than let through.
type Window interface {
	Allow(ctx context.Context, key string) (Decision, error)
	Undo(ctx context.Context, key string) error
	// Count is how many events key has in the window now, recording none.
	Count(ctx context.Context, key string) (int, error)
	Rate() Rate
}

var (
	_ Window = (*Limiter)(nil)
	_ Window = (*Redis)(nil)
)

// Decision is a Window's answer to one event: OK if it was allowed (and recorded); Remaining,
// how many more the key may have in the window now; Reset, how long until the oldest event in
// the window leaves it, which is, when refused, how long until one more is allowed.
type Decision struct {
	OK        bool
	Remaining int
	Reset     time.Duration
}

// Quota is a limit and its decision for one request, as a client is told it (the RateLimit and
// RateLimit-Policy response headers, edge.SetRateLimit); Policy names the limit ("ip").
type Quota struct {
	Policy string
	Rate   Rate
	Decision
}

// Limiter is a Window in this process's memory.
type Limiter struct {
	rate Rate
	now  func() time.Time

	mu     sync.Mutex
	events map[string]*keyEvents
	base   time.Time
	swept  time.Duration
}

// keyEvents are a key's events, as times since the limiter's base (the clock's first reading):
// durations hold no pointer, so a busy key's events (a second of a load test's requests under a
// limit set out of its reach) are neither scanned by the collector nor three times their size.
// Those in the window are at[start:]; the room of those before start, gone from the window, is
// used again once at is full and they are half of it (the events copied down), rather than a new
// array made every few thousand events.
type keyEvents struct {
	at    []time.Duration
	start int
}

// live are the events in the window of e, the oldest first, after it leaves out those at or
// before cutoff.
func (e *keyEvents) live(cutoff time.Duration) []time.Duration {
	for e.start < len(e.at) && e.at[e.start] <= cutoff {
		e.start++
	}
	return e.at[e.start:]
}

// add records an event at t, the latest.
func (e *keyEvents) add(t time.Duration) {
	if len(e.at) == cap(e.at) && e.start > 0 && e.start >= len(e.at)/2 {
		e.at = e.at[:copy(e.at, e.at[e.start:])]
		e.start = 0
	}
	e.at = append(e.at, t)
}

// New makes a limiter of r.
func New(r Rate) *Limiter {
	return &Limiter{rate: r, now: time.Now, events: map[string]*keyEvents{}}
}

// since is the clock's time now as a duration since base (its first reading).
func (l *Limiter) since() time.Duration {
	now := l.now()
	if l.base.IsZero() {
		l.base = now
	}
	return now.Sub(l.base)
}

// Rate is the limiter's rate.
func (l *Limiter) Rate() Rate { return l.rate }

// Allow records an event for key if the limit allows it. It never fails.
func (l *Limiter) Allow(_ context.Context, key string) (Decision, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.since()
	cutoff := now - l.rate.Window
	e := l.events[key]
	if e == nil {
		e = &keyEvents{}
		l.events[key] = e
	}
	if ev := e.live(cutoff); len(ev) >= l.rate.N {
		return Decision{Reset: ev[0] - cutoff}, nil
	}
	e.add(now)
	ev := e.live(cutoff)
	if now-l.swept > l.rate.Window { // forget keys that went quiet, so memory stays bounded
		for k, v := range l.events {
			if len(v.at) == v.start || v.at[len(v.at)-1] <= cutoff {
				delete(l.events, k)
			}
		}
		l.swept = now
	}
	return Decision{OK: true, Remaining: l.rate.N - len(ev), Reset: ev[0] - cutoff}, nil
}

// Undo takes back the newest event recorded for key (one that Allow let through but that did
// not happen after all).
func (l *Limiter) Undo(_ context.Context, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.events[key]; e != nil && len(e.at) > e.start {
		e.at = e.at[:len(e.at)-1]
	}
	return nil
}

// Count is how many events key has in the window now. It never fails.
func (l *Limiter) Count(_ context.Context, key string) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cutoff := l.since() - l.rate.Window
	n := 0
	if e := l.events[key]; e != nil {
		for _, t := range e.at[e.start:] {
			if t > cutoff {
				n++
			}
		}
	}
	return n, nil
}

// ClientKey is the key a client's IP is limited by: the address itself for IPv4 (IPv4-mapped
// IPv6 included), its prefix of v6Bits for IPv6 (RATE_LIMIT_IPV6_PREFIX), since one subscriber
// commonly holds a whole /64 (or a /56, a /48) and could otherwise take a fresh address for
// every request.
func ClientKey(ip netip.Addr, v6Bits int) string {
	ip = ip.Unmap()
	if ip.Is6() {
		p, err := ip.Prefix(v6Bits)
		if err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// ExceededError is a limit reached: what is limited, at which rate, and when asking again
// makes sense (the services answer it 429 RATE_LIMITED with Retry-After).
type ExceededError struct {
	Rate       Rate
	What       string // "requests per client IP", "claims in total"
	RetryAfter time.Duration
}

func (e *ExceededError) Error() string {
	return fmt.Sprintf("rate limit exceeded: %s %s", e.Rate, e.What)
}

// Exceeded is the refusal of a limit, naming it ("rate limit exceeded: 5 per minute requests per
// client IP").
func Exceeded(r Rate, what string, retry time.Duration) error {
	return &ExceededError{Rate: r, What: what, RetryAfter: retry}
}

// ErrUnavailable is limits that cannot be checked (their Redis unreachable): callers refuse
// rather than let anything through unchecked (the services answer it 503 UNAVAILABLE).
var ErrUnavailable = errors.New("the rate limits cannot be checked right now; try again later")

// Unavailable is ErrUnavailable with its cause.
func Unavailable(cause error) error { return &unavailableError{cause} }

type unavailableError struct{ cause error }

func (e *unavailableError) Error() string   { return ErrUnavailable.Error() }
func (e *unavailableError) Unwrap() []error { return []error{ErrUnavailable, e.cause} }
