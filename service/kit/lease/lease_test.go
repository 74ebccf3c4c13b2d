package lease_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/paralleltest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
)

func TestMain(m *testing.M) {
	paralleltest.Default(8) // the tests wait on TTLs
	os.Exit(m.Run())
}

func cfg(owner string, ttl time.Duration) lease.Config {
	return lease.Config{Prefix: "test:lease", Owner: owner, TTL: ttl}
}

// server is a fresh Redis whose first quiet spell (a new Redis looks like one that lost its
// leases: no name is taken for one TTL, here 50 ms) is over.
func server(t *testing.T) string {
	url, _ := redistest.Server(t)
	settle(t, url)
	return url
}

// settle lets a new (or emptied) Redis's quiet spell pass, with a 50 ms TTL.
func settle(t *testing.T, url string) {
	t.Helper()
	if _, err := lease.Acquire(context.Background(), patient(t, url), cfg("settle", 50*time.Millisecond), []string{"settle"}); !errors.Is(err, lease.ErrQuiet) {
		t.Fatalf("the first Acquire on a new Redis: %v, want ErrQuiet", err)
	}
	time.Sleep(60 * time.Millisecond)
}

// A Redis that restarts empty forgets the lease while its holder still acts until its own
// deadline: no one takes the name until that holder has stopped (before, a standby took it at
// once, and two processes acted at the same time).
func TestARedisRestartedEmptyLetsNoOneTakeANameBeforeItsHolderStops(t *testing.T) {
	t.Parallel()
	url, restart := redistest.Restartable(t)
	settle(t, url)
	ctx := context.Background()
	var p redistest.Partition
	a, err := lease.Acquire(ctx, p.Client(t, url), cfg("a", 2*time.Second), []string{"k1"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	restart()
	standby := p.Client(t, url)
	// The standby tries every 20 ms for 4 s (two TTLs): it may get the name once a has stopped,
	// or a may take it back first with a new epoch; never both at once.
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := lease.Acquire(ctx, standby, cfg("b", 2*time.Second), []string{"k1"})
		if err != nil {
			continue // refused (quiet, or held), or Redis not back yet
		}
		defer b.Release(ctx)
		if _, err := a.Hold(); err == nil {
			t.Fatal("the standby took the name while its holder from before Redis restarted still holds it")
		}
		return
	}
}

func TestOneHolderPerName(t *testing.T) {
	t.Parallel()
	url := server(t)
	ctx := context.Background()
	var p redistest.Partition
	a, err := lease.Acquire(ctx, p.Client(t, url), cfg("a", 5*time.Second), []string{"k1", "k2"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	b, err := lease.Acquire(ctx, p.Client(t, url), cfg("b", 5*time.Second), []string{"k1", "k2"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release(ctx)
	if a.Name() == b.Name() {
		t.Fatalf("both hold %s", a.Name())
	}
	if _, err := lease.Acquire(ctx, p.Client(t, url), cfg("c", 5*time.Second), []string{"k1", "k2"}); !errors.Is(err, lease.ErrAllHeld) {
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
	c, err := lease.Acquire(ctx, p.Client(t, url), cfg("c", 5*time.Second), []string{"k1", "k2"})
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
	t.Parallel()
	url := server(t)
	ctx := context.Background()
	// Renewed every second, held locally two seconds after each ask (a margin of one): a renewal
	// a second late, on a loaded machine, does not end a lease this test expects held.
	const ttl = 3 * time.Second
	var pa, pb redistest.Partition
	a, err := lease.Acquire(ctx, pa.Client(t, url), cfg("a", ttl), []string{"key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	time.Sleep(ttl) // renewed meanwhile: still held
	if _, err := a.Hold(); err != nil {
		t.Fatalf("a renewed lease: %v", err)
	}
	pa.Cut(true)

	var b *lease.Lease
	for b == nil {
		b, err = lease.Acquire(ctx, pb.Client(t, url), cfg("b", ttl), []string{"key"})
		if err != nil && !errors.Is(err, lease.ErrAllHeld) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	bStarted := time.Now() // after Redis let b have it
	defer b.Release(ctx)
	aStopped, err := a.Hold() // the deadline a stopped at (by its own clock, however late this asks)
	if !errors.Is(err, lease.ErrLost) || bStarted.Sub(aStopped) < 800*time.Millisecond {
		t.Fatalf("a's deadline %v (%v), b started at %v: a must stop the margin (1 s) before b starts", aStopped, err, bStarted)
	}
	if b.Epoch() <= a.Epoch() {
		t.Fatalf("b's epoch %d, a's %d: want later", b.Epoch(), a.Epoch())
	}
	pa.Cut(false)
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
	t.Parallel()
	url := server(t)
	ctx := context.Background()
	const ttl = 400 * time.Millisecond
	var p redistest.Partition
	var mu sync.Mutex
	var acquired []int64
	c := cfg("a", ttl)
	c.OnAcquire = func(e int64) { mu.Lock(); acquired = append(acquired, e); mu.Unlock() }
	a, err := lease.Acquire(ctx, p.Client(t, url), c, []string{"key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	first := a.Epoch()
	p.Cut(true)
	time.Sleep(2 * ttl)
	if _, err := a.Hold(); !errors.Is(err, lease.ErrLost) {
		t.Fatalf("Hold while cut off past the TTL: %v, want ErrLost", err)
	}
	p.Cut(false)
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

// A Redis that restarts empty counts epochs from 1 again. A holder from before it restarted,
// whose name another holding with the same owner (two replicas in one process) took after the
// quiet spell at the same epoch number, finds the name taken: Lost, never a renewal of the other's
// lease (its token was "<owner>:<epoch>", the same as the new holder's, and both held the name).
func TestAfterAnEmptyRestartTheSameEpochIsAnotherHolding(t *testing.T) {
	t.Parallel()
	url, restart := redistest.Restartable(t)
	settle(t, url)
	ctx := context.Background()
	const ttl = 400 * time.Millisecond
	var pa redistest.Partition
	a, err := lease.Acquire(ctx, pa.Client(t, url), cfg("same", ttl), []string{"key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	pa.Cut(true) // b takes the name first once the quiet spell is over
	restart()
	b := acquireWhenFree(t, patient(t, url), cfg("same", ttl))
	defer b.Release(ctx)
	if b.Epoch() != a.Epoch() {
		t.Fatalf("b's epoch %d, a's %d: the test wants them equal (both the first on their Redis)", b.Epoch(), a.Epoch())
	}
	pa.Cut(false)
	select {
	case <-a.Lost():
	case <-time.After(5 * ttl):
		t.Fatal("a, back in touch with Redis, did not see its name taken: it renewed b's lease")
	}
	if _, err := a.Hold(); !errors.Is(err, lease.ErrLost) {
		t.Fatalf("a's Hold after b took the name: %v, want ErrLost", err)
	}
	if _, err := b.Hold(); err != nil {
		t.Fatalf("b's Hold: %v", err)
	}
}

// A holder whose name Redis forgot (it restarted empty) takes it again after the quiet spell, at
// the epoch it had before (the count started again), and tells its caller (OnAcquire): another
// holder may have acted in between.
func TestAfterAnEmptyRestartTheNameTakenAgainIsToldAtTheSameEpoch(t *testing.T) {
	t.Parallel()
	url, restart := redistest.Restartable(t)
	settle(t, url)
	ctx := context.Background()
	const ttl = 400 * time.Millisecond
	acquired := make(chan int64, 4)
	c := cfg("a", ttl)
	c.OnAcquire = func(e int64) { acquired <- e }
	a, err := lease.Acquire(ctx, patient(t, url), c, []string{"key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	if e := <-acquired; e != 1 {
		t.Fatalf("the first epoch on a new Redis: %d", e)
	}
	restart()
	select {
	case e := <-acquired:
		if e != 1 {
			t.Fatalf("taken again at epoch %d: the test wants the same number as before", e)
		}
	case <-time.After(10 * ttl):
		t.Fatal("the name taken again after Redis restarted empty was not told (OnAcquire)")
	}
	// Hold succeeds once OnAcquire has returned.
	for deadline := time.Now().Add(10 * ttl); ; time.Sleep(10 * time.Millisecond) {
		if _, err := a.Hold(); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("Hold once taken again: %v", err)
		}
	}
}

// acquireWhenFree tries to take "key" every 10 ms until it is free (Redis back, its quiet spell
// over), for at most 10 TTLs.
func acquireWhenFree(t *testing.T, rdb *redis.Client, c lease.Config) *lease.Lease {
	t.Helper()
	for deadline := time.Now().Add(10 * c.TTL); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if l, err := lease.Acquire(context.Background(), rdb, c, []string{"key"}); err == nil {
			return l
		}
	}
	t.Fatal("the name was not free within 10 TTLs")
	return nil
}

// patient is a client of the Redis at url that waits for answers (3 s) and never repeats a
// command: a take whose answer was lost to a short timeout would leave the name held by no one
// for a TTL and move the epoch on, where these tests want the count to start from 1 again.
func patient(t *testing.T, url string) *redis.Client {
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.MaxRetries = -1
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

// A renewal that takes the name anew (it lapsed while Redis was away) and whose answer is lost is
// still this holder's at the next renewal: the same stem is asked again and found. Before, the
// next renewal came with another stem, took the name for another owner's, and the holder lost
// its lease (an ERROR, Lost closed) to itself.
func TestARenewalWhoseAnswerWasLostKeepsTheLease(t *testing.T) {
	t.Parallel()
	url := server(t)
	ctx := context.Background()
	// The first command carrying the token's epoch 1 is the first renewal: its answer is lost.
	l, err := lease.Acquire(ctx, patient(t, redistest.DropFirstAnswer(t, url, ":1\r\n")), cfg("renewer", 300*time.Millisecond), []string{"lost"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	if err := patient(t, url).Del(ctx, "test:lease:lost").Err(); err != nil { // lapsed while Redis was away
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond) // the renewal taking it anew, its answer lost, and the ones after
	select {
	case <-l.Lost():
		t.Fatal("the lease was lost to its own holder")
	default:
	}
	if _, err := l.Hold(); err != nil || l.Epoch() != 2 {
		t.Fatalf("after the lost answer: hold %v, epoch %d (want 2)", err, l.Epoch())
	}
}
