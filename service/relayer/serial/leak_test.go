package serial_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// Everything a relayer starts, it stops: built, started and closed, or refused by New after it
// opened the chain client, Redis and its lease's spell, it leaves no goroutine behind (the dev
// chain's own, running before, are not counted). Alone: goleak counts every goroutine of the
// process, a neighbour's too.
func TestNoGoroutineOutlivesTheRelayer(t *testing.T) {
	c := devchaintest.Start(t)
	redisURL, stopRedis := redistest.Server(t)
	defer stopRedis()
	ignore := goleak.IgnoreCurrent()

	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"REDIS_URL": redisURL}))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc.Start()
	svc.Close()

	// Refused after the chain, Redis and the quiet spell: the tree's address is not a tree.
	cfg, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"REDIS_URL": redisURL, "COMMITMENT_TREE_ADDRESS": c.Tokens[0].Address.Hex()}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := relayer.New(ctx, cfg, relayer.Options{}); err == nil {
		t.Fatal("a tree address that is no tree was taken")
	}
	goleak.VerifyNone(t, append(devchaintest.IgnoreChain(), ignore)...)
}

// A relayer closed while a reveal's transaction is still in flight (sealing paused: it answered
// 504 TX_PENDING) leaves nothing behind either: the goroutine following the reveal stops with
// the relayer (its record stays pending, for the next start), instead of waiting for a receipt
// no one will read. Alone, as the test above.
func TestARevealInFlightDoesNotOutliveTheRelayer(t *testing.T) {
	c := devchaintest.Start(t)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 18)
	ignore := goleak.IgnoreCurrent()
	s := relayertest.Start(t, c, map[string]string{"RECEIPT_TIMEOUT": "300ms", "REPLACE_AFTER": "250ms"})
	c.PauseSealing()
	defer c.ResumeSealing()
	relayertest.WantCode(t, "not mined in time", relayertest.Reveal(t, s, req), 504, "TX_PENDING")
	s.Stop()
	goleak.VerifyNone(t, append(devchaintest.IgnoreChain(), ignore)...)
}
