package ratelimit_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/service/kit/paralleltest"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
)

func TestMain(m *testing.M) {
	paralleltest.Default(8) // the tests wait on windows and retries
	os.Exit(m.Run())
}

func client(t *testing.T, url string) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

// Three replicas, each with its own connection to one Redis, take 90 events at once for one key
// under a limit of 10: exactly 10 pass, whichever replica they reach; the refused get a
// Retry-After within the window; Undo gives exactly one back; other keys do not share.
func TestRedisLimitHoldsExactlyAcrossReplicas(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	rate := ratelimit.Rate{N: 10, Window: time.Minute}
	var replicas []ratelimit.Window
	for range 3 {
		replicas = append(replicas, ratelimit.NewRedis(client(t, url), "test:total", rate))
	}
	ctx := context.Background()
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := range 90 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := replicas[i%3].Allow(ctx, "")
			ok, retry := d.OK, d.Reset
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				allowed.Add(1)
			} else if retry <= 0 || retry > time.Minute {
				t.Errorf("Retry-After %s", retry)
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != 10 {
		t.Fatalf("%d events passed a limit of 10 across three replicas", n)
	}
	if err := replicas[1].Undo(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if d, _ := replicas[2].Allow(ctx, ""); !d.OK {
		t.Fatal("refused after an Undo on another replica")
	}
	if d, _ := replicas[0].Allow(ctx, ""); d.OK {
		t.Fatal("Undo gave back more than one")
	}
	if d, _ := replicas[0].Allow(ctx, "another key"); !d.OK {
		t.Fatal("another key was refused")
	}
}

// The window slides on Redis's clock: once an event is older than the window, another passes.
func TestRedisWindowSlides(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	l := ratelimit.NewRedis(client(t, url), "test:slide", ratelimit.Rate{N: 1, Window: 300 * time.Millisecond})
	ctx := context.Background()
	if d, err := l.Allow(ctx, "k"); !d.OK || err != nil {
		t.Fatalf("first event: %v %v", d.OK, err)
	}
	d, _ := l.Allow(ctx, "k")
	ok, retry := d.OK, d.Reset
	if ok || retry <= 0 || retry > 300*time.Millisecond {
		t.Fatalf("second event at once: %v, retry %s", ok, retry)
	}
	time.Sleep(retry + 20*time.Millisecond)
	if d, _ := l.Allow(ctx, "k"); !d.OK {
		t.Fatal("refused after the window slid")
	}
}

// Redis gone: Allow fails (and callers refuse); nothing is let through.
func TestRedisDownAllowsNothing(t *testing.T) {
	t.Parallel()
	url, stop := redistest.Server(t)
	l := ratelimit.NewRedis(client(t, url), "test:down", ratelimit.Rate{N: 100, Window: time.Minute})
	stop()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if d, err := l.Allow(ctx, "k"); d.OK || err == nil {
		t.Fatalf("with Redis down: ok %v, err %v", d.OK, err)
	}
}

// BenchmarkAllow is what counting one event costs, in process and in a Redis on loopback: a
// reveal counts three (per IP, per recipient, total), so Redis adds three round trips.
func BenchmarkAllow(b *testing.B) {
	ctx := context.Background()
	rate := ratelimit.Rate{N: 1 << 30, Window: time.Hour}
	b.Run("process", func(b *testing.B) {
		l := ratelimit.New(rate)
		for b.Loop() {
			l.Allow(ctx, "k")
		}
	})
	b.Run("redis", func(b *testing.B) {
		url, _ := redistest.Server(b)
		opts, _ := redis.ParseURL(url)
		c := redis.NewClient(opts)
		defer c.Close()
		l := ratelimit.NewRedis(c, "bench", ratelimit.Rate{N: 1 << 30, Window: time.Second})
		for b.Loop() {
			if _, err := l.Allow(ctx, "k"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// What a limit counts (a client's IP, a recipient) never appears in Redis: its keys are HMACs
// under a secret Redis does not hold (the password in REDIS_URL), the same for every replica.
func TestRedisKeysHoldNoAddress(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	c := client(t, url)
	ctx := context.Background()
	ip := "203.0.113.77"
	if d, err := ratelimit.NewRedis(c, "test:ip", ratelimit.Rate{N: 1, Window: time.Minute}).Allow(ctx, ip); err != nil || !d.OK {
		t.Fatalf("allow: %v %v", d.OK, err)
	}
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys %v (%v), want one", keys, err)
	}
	if strings.Contains(keys[0], ip) || strings.Contains(keys[0], "203") {
		t.Fatalf("the key %q shows the address", keys[0])
	}
	// Another replica (same REDIS_URL) counts the same key.
	if d, err := ratelimit.NewRedis(client(t, url), "test:ip", ratelimit.Rate{N: 1, Window: time.Minute}).Allow(ctx, ip); err != nil || d.OK {
		t.Fatalf("the second event at another replica: %v %v, want refused", d.OK, err)
	}
}

// Redis's decisions say what is left too: the count exactly, the reset within the window.
func TestRedisDecisionTellsRemainingAndReset(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	l := ratelimit.NewRedis(client(t, url), "test:remaining", ratelimit.Rate{N: 2, Window: time.Minute})
	ctx := context.Background()
	for i, want := range []struct {
		ok        bool
		remaining int
	}{{true, 1}, {true, 0}, {false, 0}} {
		d, err := l.Allow(ctx, "k")
		if err != nil || d.OK != want.ok || d.Remaining != want.remaining || d.Reset <= 0 || d.Reset > time.Minute {
			t.Fatalf("event %d: %+v %v, want ok %v, %d left, a reset within the minute", i, d, err, want.ok, want.remaining)
		}
	}
}

// Connect reaches the server before it answers: a Redis that is not there stops a start, with the
// setting named; one that is answers, traced.
func TestConnectReachesRedisFirst(t *testing.T) {
	t.Parallel()
	if _, err := ratelimit.Connect(t.Context(), "redis://127.0.0.1:1/0", noop.NewTracerProvider()); err == nil || !strings.HasPrefix(err.Error(), "REDIS_URL: ") {
		t.Fatalf("Connect to nothing: %v, want a REDIS_URL error", err)
	}
	url, _ := redistest.Server(t)
	client, err := ratelimit.Connect(t.Context(), url, noop.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if err := client.Set(t.Context(), "k", "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
}

// Count is the events in the window now, in Redis and in memory alike, and records none: it
// falls as the window slides.
func TestCountIsTheWindowsEvents(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	rate := ratelimit.Rate{N: 5, Window: 400 * time.Millisecond}
	for name, l := range map[string]ratelimit.Window{"redis": ratelimit.NewRedis(client(t, url), "test:count", rate), "memory": ratelimit.New(rate)} {
		ctx := t.Context()
		for range 3 {
			if d, err := l.Allow(ctx, "k"); !d.OK || err != nil {
				t.Fatalf("%s: allow: %v %v", name, d.OK, err)
			}
		}
		for range 2 { // counting twice records nothing
			if n, err := l.Count(ctx, "k"); n != 3 || err != nil {
				t.Fatalf("%s: count after 3 events: %d %v", name, n, err)
			}
		}
		if n, _ := l.Count(ctx, "other"); n != 0 {
			t.Fatalf("%s: another key counts %d", name, n)
		}
		time.Sleep(450 * time.Millisecond)
		if n, err := l.Count(ctx, "k"); n != 0 || err != nil {
			t.Fatalf("%s: count once the window slid: %d %v", name, n, err)
		}
	}
}

// A command whose answer was lost (the connection dropped after Redis ran it) is not sent again
// by the client: it may have run, and the spend budget's and the leases' scripts must not run
// twice. The proxy stands in for a fault a real Redis does not make on demand: it forwards the
// first INCR and drops the connection instead of its answer.
func TestACommandWhoseAnswerWasLostIsNotSentAgain(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	c, err := ratelimit.Dial(redistest.DropFirstAnswer(t, url, "INCR"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Incr(context.Background(), "vaultd:test:lost").Err(); err == nil {
		t.Fatal("an INCR whose answer was lost answered")
	}
	if n, err := client(t, url).Get(context.Background(), "vaultd:test:lost").Int(); err != nil || n != 1 {
		t.Fatalf("the INCR ran %d times (%v), want once", n, err)
	}
}
