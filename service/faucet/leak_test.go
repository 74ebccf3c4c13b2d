package faucet_test

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
)

// Everything a faucet starts, it stops: with its limits in Redis, built, started and closed, it
// leaves no goroutine behind (the dev chain's own, running before, are not counted). Before,
// each Redis client left a go-redis cleanup loop running.
func TestNoGoroutineOutlivesTheFaucet(t *testing.T) {
	c := devchaintest.Start(t)
	redisURL, stopRedis := redistest.Server(t)
	defer stopRedis()
	ignore := goleak.IgnoreCurrent()

	cfg, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"REDIS_URL": redisURL}))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := faucet.New(ctx, cfg, faucet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc.Start()
	svc.Close()
	goleak.VerifyNone(t, append(devchaintest.IgnoreChain(), ignore)...)
}

// New wires and waits for nothing: on a new Redis (in its quiet spell, here an hour long) it
// returns at once, where it waited the spell out before; Start waits, and Close ends that wait.
func TestNewWaitsForNoQuietSpell(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	redisURL, stopRedis := redistest.Server(t)
	defer stopRedis()
	cfg, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"REDIS_URL": redisURL, "REDIS_WIPE_QUIET": "1h"}))
	if err != nil {
		t.Fatal(err)
	}
	built := make(chan *faucet.Service, 1)
	go func() {
		svc, err := faucet.New(ctx, cfg, faucet.Options{})
		if err != nil {
			t.Error(err)
		}
		built <- svc
	}()
	select {
	case svc := <-built:
		if svc != nil {
			svc.Close()
		}
	case <-time.After(30 * time.Second):
		t.Fatal("faucet.New waited out Redis's quiet spell")
	}
}
