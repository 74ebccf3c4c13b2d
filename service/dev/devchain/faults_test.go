package devchain_test

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
)

// A held call waits until Release and is then answered; a hung one is never answered, and ends
// at Release; Heal ends both faults and the proxy's own replies.
func TestHeldAndHungCalls(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	p := devchaintest.Faults(t, c.RPCURL)
	client, err := ethclient.Dial(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ctx := context.Background()
	blockNumber := func(ctx context.Context) <-chan error {
		done := make(chan error, 1)
		go func() { _, err := client.BlockNumber(ctx); done <- err }()
		return done
	}
	stillWaiting := func(what string, done <-chan error) {
		t.Helper()
		select {
		case err := <-done:
			t.Fatalf("%s answered (%v) before Release", what, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
	waitHeld := func(fault devchain.Fault, n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); p.Counts()[fault] < n; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d calls %s, want %d", p.Counts()[fault], fault, n)
			}
		}
	}

	p.SetRule(devchain.OnMethod("eth_blockNumber", devchain.Hold))
	if _, err := client.ChainID(ctx); err != nil {
		t.Fatalf("another method is held: %v", err)
	}
	held := blockNumber(ctx)
	waitHeld(devchain.Hold, 1)
	stillWaiting("a held call", held)
	p.Release()
	if err := <-held; err != nil {
		t.Fatalf("a held call, released: %v", err)
	}

	p.SetRule(devchain.OnMethod("*", devchain.Hang))
	hung := blockNumber(ctx)
	waitHeld(devchain.Hang, 1)
	stillWaiting("a hung call", hung)
	p.Release()
	if err := <-hung; err == nil {
		t.Fatal("a hung call answered at Release")
	}

	p.SetReply("eth_chainId", `"error":{"code":-32000,"message":"down for maintenance"}`, 0)
	p.Heal()
	if _, err := client.BlockNumber(ctx); err != nil {
		t.Fatalf("after Heal: %v", err)
	}
	if _, err := client.ChainID(ctx); err != nil {
		t.Fatalf("the proxy's reply after Heal: %v", err)
	}
}
