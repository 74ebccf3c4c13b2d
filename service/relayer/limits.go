package relayer

import (
	"sync"
	"time"
)

// limiter is a sliding-window rate limiter: at most rate.N events per rate.Window for each key.
type limiter struct {
	rate Rate
	now  func() time.Time

	mu     sync.Mutex
	events map[string][]time.Time
	swept  time.Time
}

func newLimiter(r Rate) *limiter {
	return &limiter{rate: r, now: time.Now, events: map[string][]time.Time{}}
}

// allow records an event for key if the limit allows it; otherwise it returns how long until
// it would.
func (l *limiter) allow(key string) (ok bool, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	cutoff := now.Add(-l.rate.Window)
	ev := l.events[key]
	i := 0
	for i < len(ev) && !ev[i].After(cutoff) {
		i++
	}
	ev = ev[i:]
	if len(ev) >= l.rate.N {
		l.events[key] = ev
		return false, ev[0].Sub(cutoff)
	}
	l.events[key] = append(ev, now)
	if now.Sub(l.swept) > l.rate.Window { // forget keys that went quiet, so memory stays bounded
		for k, v := range l.events {
			if len(v) == 0 || !v[len(v)-1].After(cutoff) {
				delete(l.events, k)
			}
		}
		l.swept = now
	}
	return true, 0
}

// undo takes back the newest event recorded for key (one that allow let through but that did
// not happen after all).
func (l *limiter) undo(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ev := l.events[key]; len(ev) > 0 {
		l.events[key] = ev[:len(ev)-1]
	}
}
