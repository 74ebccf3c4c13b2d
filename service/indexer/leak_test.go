package indexer_test

import (
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
)

// Everything an indexer starts, it stops: built, following the chain, serving a request and
// closed, on SQLite and on Postgres, it leaves no goroutine behind (the dev chain's, running
// before, are not counted). It runs alone: the package's parallel tests wait until it is done.
func TestNoGoroutineOutlivesTheIndexer(t *testing.T) {
	c := devchaintest.Start(t)
	// Not eachStore, whose tests run in parallel: another test's goroutines would be counted.
	check := func(t *testing.T) {
		dir := t.TempDir()
		databaseURL(t, dir) // the test's Postgres cluster (started once, for every test) is not the indexer's
		ignore := goleak.IgnoreCurrent()
		s := startIndexer(t, c, dir, nil)
		caughtUp(t, s, c)
		if r, err := s.client.GetReadyWithResponse(ctx); err != nil || r.StatusCode() != http.StatusOK {
			t.Fatalf("GET /ready: %v", err)
		}
		s.stop()
		http.DefaultClient.CloseIdleConnections()
		goleak.VerifyNone(t, append(devchaintest.IgnoreChain(), ignore)...)
	}
	t.Run("sqlite", check)
	t.Run("postgres", check)
}
