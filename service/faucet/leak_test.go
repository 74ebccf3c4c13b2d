package faucet_test

import (
	"testing"

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
	goleak.VerifyNone(t, ignore)
}
