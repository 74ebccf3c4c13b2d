// Package devchaintest starts the dev chain for a test: in process, on a free loopback port,
// closed when the test ends.
package devchaintest

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
)

// Start runs a fresh dev chain for t and stops it in t.Cleanup.
func Start(t testing.TB) *devchain.Chain {
	t.Helper()
	return StartConfig(t, devchain.Config{})
}

// StartConfig runs a fresh dev chain configured by cfg for t and stops it in t.Cleanup.
func StartConfig(t testing.TB, cfg devchain.Config) *devchain.Chain {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := devchain.Start(ctx, cfg)
	if err != nil {
		t.Fatalf("start dev chain: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// StartWith runs a fresh dev chain with the given chain id.
func StartWith(t testing.TB, chainID uint64) (*devchain.Chain, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := devchain.Start(ctx, devchain.Config{ChainID: chainID})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Close() })
	return c, nil
}

// IgnoreChain is the goleak options for the goroutines a running chain starts on its own after
// Start returned, which goleak.IgnoreCurrent, taken right after Start, may miss; they end when
// the chain closes:
//   - its sealer's subscription to the transaction pool, which forwards each sub-pool's errors
//     from a goroutine that go-ethereum's event.JoinSubscriptions starts asynchronously;
//   - its in-process RPC clients (go-ethereum's DialInProc: a dispatch goroutine, and a reader
//     blocked on the in-memory pipe), seen started after the snapshot once, on a loaded machine.
//     A service under test reaches the chain over HTTP or WebSocket, never in-process, so a
//     client it leaks still shows (its reader waits on a socket, not a pipe).
func IgnoreChain() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreTopFunction("github.com/ethereum/go-ethereum/core/txpool.(*TxPool).SubscribeTransactions.JoinSubscriptions.func1.2"),
		goleak.IgnoreTopFunction("github.com/ethereum/go-ethereum/rpc.(*Client).dispatch"),
		goleak.IgnoreTopFunction("net.(*pipe).read"),
	}
}
