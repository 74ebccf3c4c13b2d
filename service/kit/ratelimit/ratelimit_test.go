package ratelimit

import (
	"context"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

var ctx = context.Background()

// N events per window per key; the window slides; Undo gives one back; keys do not share.
func TestSlidingWindow(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	l := New(Rate{N: 2, Window: time.Minute})
	l.now = func() time.Time { return now }
	for i := range 2 {
		if d, _ := l.Allow(ctx, "a"); !d.OK {
			t.Fatalf("event %d refused", i)
		}
		now = now.Add(10 * time.Second)
	}
	d, _ := l.Allow(ctx, "a")
	ok, retry := d.OK, d.Reset
	if ok || retry != 40*time.Second {
		t.Fatalf("third event: %v, retry %s; want refused, 40s", ok, retry)
	}
	if d, _ := l.Allow(ctx, "b"); !d.OK {
		t.Fatal("another key was refused")
	}
	l.Undo(ctx, "a")
	if d, _ := l.Allow(ctx, "a"); !d.OK {
		t.Fatal("refused after Undo")
	}
	now = now.Add(51 * time.Second) // the first event has left the window
	if d, _ := l.Allow(ctx, "a"); !d.OK {
		t.Fatal("refused after the window slid")
	}
}

// A key busy at a steady rate keeps its events in one array: the room of the events that left
// the window is used again, and the window's count stays exact while it is (every decision's
// Remaining is the limit less the events of the last window).
func TestBusyKeyReusesItsEvents(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(Rate{N: 1 << 20, Window: time.Second})
	l.now = func() time.Time { return now }
	const perWindow = 1000
	step := time.Second / perWindow
	allow := func() Decision {
		now = now.Add(step)
		d, _ := l.Allow(ctx, "busy")
		return d
	}
	for range 10 * perWindow { // until the array's size settles
		allow()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 20 * perWindow {
		if d := allow(); !d.OK || d.Remaining != l.rate.N-perWindow {
			t.Fatalf("event %d: %+v, want allowed with %d remaining", i, d, l.rate.N-perWindow)
		}
	}
	runtime.ReadMemStats(&after)
	// A few for the test's own closure and the runtime; a new array every few hundred events
	// would be dozens.
	if n := after.Mallocs - before.Mallocs; n > 10 {
		t.Errorf("%d allocations for %d events of a steady key", n, 20*perWindow)
	}
}

func TestFromEnv(t *testing.T) {
	t.Parallel()
	e := config.NewEnv(func(k string) string {
		return map[string]string{"A": "5/1m", "B": " 10 / 1h ", "C": "5 per minute", "D": "0/1m"}[k]
	})
	if r := FromEnv(e, "A", ""); r != (Rate{5, time.Minute}) || r.String() != "5 per minute" {
		t.Fatalf("A: %v", r)
	}
	if r := FromEnv(e, "B", ""); r != (Rate{10, time.Hour}) {
		t.Fatalf("B: %v", r)
	}
	if r := FromEnv(e, "E", "3/2s"); r != (Rate{3, 2 * time.Second}) {
		t.Fatalf("default: %v", r)
	}
	FromEnv(e, "C", "")
	FromEnv(e, "D", "")
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), "C must look like") || !strings.Contains(err.Error(), "D must look like") {
		t.Fatalf("problems: %v", err)
	}
}

// IPv6 clients are keyed by their /64 (or the prefix configured); IPv4 ones, mapped or not, by
// their address.
func TestClientKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"2001:db8:1:2:3:4:5:6": "2001:db8:1::/48",
		"2001:db8:1:ff::1":     "2001:db8:1::/48",
		"203.0.113.7":          "203.0.113.7",
	} {
		if got := ClientKey(netip.MustParseAddr(in), 48); got != want {
			t.Errorf("ClientKey(%s, 48) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"203.0.113.7":          "203.0.113.7",
		"::ffff:203.0.113.7":   "203.0.113.7",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":      "2001:db8:1:3::/64",
	} {
		if got := ClientKey(netip.MustParseAddr(in), 64); got != want {
			t.Errorf("ClientKey(%s) = %s, want %s", in, got, want)
		}
	}
}

// Each decision says how many more the key may have and when the oldest event leaves the window,
// so that a client can be told (the RateLimit header).
func TestDecisionTellsRemainingAndReset(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	l := New(Rate{N: 3, Window: time.Minute})
	l.now = func() time.Time { return now }
	for i, want := range []Decision{{OK: true, Remaining: 2, Reset: time.Minute}, {OK: true, Remaining: 1, Reset: 50 * time.Second},
		{OK: true, Remaining: 0, Reset: 40 * time.Second}, {OK: false, Remaining: 0, Reset: 30 * time.Second}} {
		if got, _ := l.Allow(ctx, "a"); got != want {
			t.Fatalf("event %d: %+v, want %+v", i, got, want)
		}
		now = now.Add(10 * time.Second)
	}
}

// REDIS_URL: empty counts in the process; a redis:// or rediss:// URL is taken; anything else
// is refused without its value, which may hold a password.
func TestStoreFromEnv(t *testing.T) {
	t.Parallel()
	for url, ok := range map[string]bool{"": true, "redis://:pw@127.0.0.1:6379/0": true, "rediss://h:6380": true, "http://:s3cret@h": false, "h:6379": false} {
		e := config.NewEnv(func(k string) string { return map[string]string{"REDIS_URL": url}[k] })
		s := StoreFromEnv(e)
		err := s.Validate()
		if s.RedisURL != url || (err == nil) != ok {
			t.Errorf("%q: store %q, %v", url, s.RedisURL, err)
		}
		if err != nil && (strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "REDIS_URL")) {
			t.Errorf("%q: %v", url, err)
		}
	}
}
