package indexer_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/devchain"
	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
)

// Two indexers on one Postgres: one writes, the other reads what it stores and answers the same
// events. The writer's database session is killed by the server (pg_terminate_backend, as when
// the server drops it): its writes stop, and one of the two (whichever polls first) takes the
// lock again; there is one writer, and both answer what comes next. Then the writer stops for
// good (its session ends, as when its process dies): the other takes over at its next poll and
// indexes what comes next. Every answer holds every event the chain has, once, in order.
func TestOneWriterAndItsFailover(t *testing.T) {
	backend = "postgres"
	defer func() { backend = "sqlite" }()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	commit(t, c, 0, 2)
	a := startIndexer(t, c, dir, nil)
	waitFor(t, "the first indexer to be the writer", func() bool { return isWriter(t, a) })
	b := startIndexer(t, c, dir, nil)
	caughtUp(t, a, c)
	caughtUp(t, b, c)
	if isWriter(t, b) {
		t.Fatal("two writers")
	}
	sameAsChain(t, c, 2, a, b)

	admin, err := sql.Open("pgx", databaseURL(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var killed bool
	if err := admin.QueryRowContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted`).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the writer's session: %v %v", killed, err)
	}
	commit(t, c, 1, 3)
	caughtUp(t, a, c)
	caughtUp(t, b, c)
	if isWriter(t, a) == isWriter(t, b) {
		t.Fatalf("after the writer's session was killed: writer a %v, b %v; want exactly one", isWriter(t, a), isWriter(t, b))
	}
	sameAsChain(t, c, 5, a, b)

	writer, reader := a, b
	if isWriter(t, b) {
		writer, reader = b, a
	}
	writer.stop()
	commit(t, c, 2, 2)
	waitFor(t, "the reader to take over as the writer", func() bool { return isWriter(t, reader) })
	caughtUp(t, reader, c)
	sameAsChain(t, c, 7, reader)
}

func isWriter(t testing.TB, s *server) bool {
	return strings.Contains(scrape(t, s), "vaultd_indexer_writer 1\n")
}

// sameAsChain checks that each indexer answers the chain's n CommitmentInserted logs, in order.
func sameAsChain(t testing.TB, c *devchain.Chain, n int, servers ...*server) {
	t.Helper()
	logs := chainLogs(t, c, c.Contracts.CommitmentTree, insertedTopic)
	for _, s := range servers {
		got := list(t, s, "CommitmentInserted", 2)
		if len(got) != len(logs) || len(logs) != n {
			t.Fatalf("%d CommitmentInserted answered, the chain has %d, want %d", len(got), len(logs), n)
		}
		for i, e := range got {
			if e.TransactionHash != logs[i].TxHash.Hex() || e.LogIndex != int(logs[i].Index) || e.BlockHash != logs[i].BlockHash.Hex() {
				t.Fatalf("event %d: %s/%d, the chain's %s/%d", i, e.TransactionHash, e.LogIndex, logs[i].TxHash.Hex(), logs[i].Index)
			}
		}
	}
}
