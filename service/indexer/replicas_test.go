package indexer_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// Two indexers on one Postgres: one writes, the other reads what it stores and answers the same
// events, and streams them as they are stored. The writer's database session is killed by the server (pg_terminate_backend, as when
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
	// A reader's stream: what is stored, then each event as the writer stores it.
	stream := subscribe(t, b.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	if first, second := next(t, stream), next(t, stream); leafOf(t, first) != "0" || leafOf(t, second) != "1" {
		t.Fatalf("the reader's stream: %+v %+v", first, second)
	}
	commit(t, c, 0, 1)
	if live := next(t, stream); leafOf(t, live) != "2" {
		t.Fatalf("the reader's stream, live: %+v", live)
	}

	admin, err := sql.Open("pgx", databaseURL(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var killed bool
	if err := admin.QueryRowContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted`).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the writer's session: %v %v", killed, err)
	}
	commit(t, c, 1, 2)
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

// childEnv makes this test binary an indexer process (TestMain), configured by its environment.
const childEnv = "VAULTD_INDEXER_CHILD"

// The writer is a separate process, killed with SIGKILL while the chain goes on: its session
// ends with it, and the reader in this process takes over at its next poll and indexes what
// came after, once each.
func TestAKilledWritersReaderTakesOver(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an indexer process")
	}
	backend = "postgres"
	defer func() { backend = "sqlite" }()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	commit(t, c, 0, 2)
	port := edgetest.FreePort(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", fmt.Sprintf("PORT=%d", port))
	get := env(t, c, dir, nil)
	for _, k := range []string{"RPC_URL", "DATABASE_URL", "POLL_INTERVAL", "START_BLOCK", "COMMIT_REVEAL_VAULT_ADDRESS",
		"NULLIFIER_REGISTRY_ADDRESS", "COMMITMENT_TREE_ADDRESS", "TOKEN_FACTORY_ADDRESS"} {
		if v := get(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	child := &server{url: fmt.Sprintf("http://127.0.0.1:%d", port)}
	edgetest.WaitWithin(t, "the indexer process to be the writer", edgetest.ProcessStart, func() bool {
		select {
		case <-exited:
			t.Fatalf("the indexer process exited:\n%s", logs.String())
		default:
		}
		resp, err := http.Get(child.url + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(body), "vaultd_indexer_writer 1\n")
	})
	reader := startIndexer(t, c, dir, nil)
	caughtUp(t, reader, c)
	if isWriter(t, reader) {
		t.Fatal("two writers")
	}

	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	commit(t, c, 1, 3)
	waitFor(t, "the reader to take over as the writer", func() bool { return isWriter(t, reader) })
	caughtUp(t, reader, c)
	sameAsChain(t, c, 5, reader)
}
