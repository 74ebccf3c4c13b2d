package devchaintest

import (
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
)

// CountCalls starts a devchain.CallCounter in front of the JSON-RPC endpoint target, closed
// when t ends.
func CountCalls(t testing.TB, target string) *devchain.CallCounter {
	c, err := devchain.CountCalls(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Faults starts a devchain.FaultProxy in front of the JSON-RPC endpoint target, closed when t
// ends.
func Faults(t testing.TB, target string) *devchain.FaultProxy {
	p, err := devchain.NewFaultProxy(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
