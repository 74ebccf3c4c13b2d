package lease_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/service/lease"
	"github.com/seed018cc74c/vaultd/service/redistest"
)

// partition is one process's link to Redis, which the test can cut (the real Redis stays up
// for the others): the one fault here Redis itself cannot produce.
type partition struct{ cut atomic.Bool }

func (p *partition) client(t *testing.T, url string) *redis.Client {
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.MaxRetries = -1
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 100*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond
	opts.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if p.cut.Load() {
			return nil, errors.New("partitioned from Redis (test)")
		}
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &cuttable{Conn: c, p: p}, nil
	}
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

type cuttable struct {
	net.Conn
	p *partition
}

func (c *cuttable) Write(b []byte) (int, error) {
	if c.p.cut.Load() {
		return 0, errors.New("partitioned from Redis (test)")
	}
	return c.Conn.Write(b)
}

func cfg(owner string, ttl time.Duration) lease.Config {
	return lease.Config{Prefix: "test:lease", Owner: owner, TTL: ttl}
}

func TestOneHolderPerName(t *testing.T) {
	url, _ := redistest.Server(t)
	ctx := context.Background()
	var p partition
	a, err := lease.Acquire(ctx, p.client(t, url), cfg("a", 5*time.Second), []string{"k1", "k2"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	b, err := lease.Acquire(ctx, p.client(t, url), cfg("b", 5*time.Second), []string{"k1", "k2"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release(ctx)
	if a.Name() == b.Name() {
		t.Fatalf("both hold %s", a.Name())
	}
	if _, err := lease.Acquire(ctx, p.client(t, url), cfg("c", 5*time.Second), []string{"k1", "k2"}); !errors.Is(err, lease.ErrAllHeld) {
		t.Fatalf("a third owner of two names: %v, want ErrAllHeld", err)
	}
	if _, err := a.Hold(); err != nil {
		t.Fatalf("the holder's Hold: %v", err)
	}
	// Release gives the name back at once: no waiting for the TTL.
	a.Release(ctx)
	if _, err := a.Hold(); !errors.Is(err, lease.ErrLost) {
		t.Fatalf("Hold after Release: %v, want ErrLost", err)
	}
	c, err := lease.Acquire(ctx, p.client(t, url), cfg("c", 5*time.Second), []string{"k1", "k2"})
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	defer c.Release(ctx)
	if c.Name() != a.Name() || c.Epoch() <= a.Epoch() {
		t.Fatalf("c took %s epoch %d after a released %s epoch %d: want the same name, a later epoch", c.Name(), c.Epoch(), a.Name(), a.Epoch())
	}
}

// A holder cut off from Redis stops (Hold fails) before Redis lets a standby take its name; the
// standby's epoch is later; and the old holder, back, finds the name taken: Lost.
func TestAHolderCutOffStopsBeforeTheStandbyStarts(t *testing.T) {
	url, _ := redistest.Server(t)
	ctx := context.Background()
	const ttl = 600 * time.Millisecond
	var pa, pb partition
	a, err := lease.Acquire(ctx, pa.client(t, url), cfg("a", ttl), []string{"key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	time.Sleep(ttl) // renewed meanwhile: still held
	if _, err := a.Hold(); err != nil {
		t.Fatalf("a renewed lease: %v", err)
	}
	pa.cut.Store(true)

	var b *lease.Lease
	for b == nil {
		b, err = lease.Acquire(ctx, pb.client(t, url), cfg("b", ttl), []string{"key"})
		if err != nil && !errors.Is(err, lease.ErrAllHeld) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	bStarted := time.Now() // after Redis let b have it
	defer b.Release(ctx)
	aStopped, err := a.Hold() // the deadline a stopped at (by its own clock, however late this asks)
	if !errors.Is(err, lease.ErrLost) || bStarted.Sub(aStopped) < 200*time.Millisecond {
		t.Fatalf("a's deadline %v (%v), b started at %v: a must stop the margin (300 ms) before b starts", aStopped, err, bStarted)
	}
	if b.Epoch() <= a.Epoch() {
		t.Fatalf("b's epoch %d, a's %d: want later", b.Epoch(), a.Epoch())
	}
	pa.cut.Store(false)
	select {
	case <-a.Lost():
	case <-time.After(5 * ttl):
		t.Fatal("a, back in touch with Redis, did not see its name taken")
	}
	if _, err := a.Hold(); !errors.Is(err, lease.ErrLost) {
		t.Fatalf("a's Hold after losing the name: %v", err)
	}
	if _, err := b.Hold(); err != nil {
		t.Fatalf("b's Hold: %v", err)
	}
}

// A holder cut off long enough for its lease to lapse, with no one else waiting, takes its name
// again with a new epoch when it is back, and tells its caller first (OnAcquire).
func TestALapsedLeaseIsTakenAgainWithANewEpoch(t *testing.T) {
	url, _ := redistest.Server(t)
	ctx := context.Background()
	const ttl = 400 * time.Millisecond
	var p partition
	var mu sync.Mutex
	var acquired []int64
	c := cfg("a", ttl)
	c.OnAcquire = func(e int64) { mu.Lock(); acquired = append(acquired, e); mu.Unlock() }
	a, err := lease.Acquire(ctx, p.client(t, url), c, []string{"key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	first := a.Epoch()
	p.cut.Store(true)
	time.Sleep(2 * ttl)
	if _, err := a.Hold(); !errors.Is(err, lease.ErrLost) {
		t.Fatalf("Hold while cut off past the TTL: %v, want ErrLost", err)
	}
	p.cut.Store(false)
	deadline := time.Now().Add(5 * ttl)
	for {
		if _, err := a.Hold(); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lease was not taken again")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if a.Epoch() <= first || len(acquired) != 2 || acquired[1] != a.Epoch() {
		t.Fatalf("epochs: first %d, now %d, OnAcquire %v", first, a.Epoch(), acquired)
	}
	select {
	case <-a.Lost():
		t.Fatal("Lost closed, but no one else took the name")
	default:
	}
}
