package indexer_test

import (
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// A real reorg on the dev chain: the blocks holding two commits are replaced by another branch
// (the node puts their transactions back in its pool, so they are mined again, in blocks with
// other hashes). The indexer rolls back to the common ancestor, removes
// the orphaned events and indexes the new branch: what it lists is what the chain now says,
// every block hash canonical; a cursor into the orphaned branch answers 409 CURSOR_REORGED.
func TestReorg(t *testing.T) { eachStore(t, testReorg) }

func testReorg(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	ancestor, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, c, 0, 2)
	caughtUp(t, s, c)
	before := list(t, s, "CommitmentInserted", 1000)
	one := 1
	first, _ := s.client.ListEventsWithResponse(ctx, &indexerapi.ListEventsParams{Event: "CommitmentInserted", Limit: &one,
		FromBlock: ptr(int64(ancestor.Number.Uint64() + 1))})
	if len(before) != 3 || first.JSON200.NextCursor == nil {
		t.Fatalf("before the reorg: %d events, cursor %v", len(before), first.JSON200.NextCursor)
	}

	reorg(t, c, ancestor.Hash())
	waitFor(t, "the orphaned commits mined again", func() bool {
		logs, err := nodeLogs(c, c.Contracts.CommitmentTree, insertedTopic) // an error: the node still re-indexing; asked again
		return err == nil && len(logs) == 3
	})
	caughtUp(t, s, c)

	after := list(t, s, "CommitmentInserted", 1000)
	if len(after) != 3 {
		t.Fatalf("%d events after the reorg, want 3", len(after))
	}
	for _, e := range after {
		h, err := c.Client().HeaderByNumber(ctx, big.NewInt(e.BlockNumber))
		if err != nil || h.Hash().Hex() != e.BlockHash {
			t.Fatalf("event in block %d %s, which is not canonical (%v)", e.BlockNumber, e.BlockHash, err)
		}
	}
	if after[1].BlockHash == before[1].BlockHash {
		t.Fatal("the re-mined events kept their orphaned block hash")
	}
	m := scrape(t, s)
	if !strings.Contains(m, "vaultd_indexer_reorgs_total 1") || strings.Contains(m, "vaultd_indexer_rolled_back_events_total 0") {
		t.Fatalf("reorg metrics:\n%s", edgetest.Grep(m, "vaultd_indexer_r"))
	}
	r, _ := http.Get(s.url + "/api/indexer?event=CommitmentInserted&cursor=" + *first.JSON200.NextCursor)
	r.Body.Close()
	if r.StatusCode != 409 {
		t.Fatalf("a cursor into the orphaned branch: %d, want 409", r.StatusCode)
	}
}

// A restarted indexer resumes where it stopped: no event twice, none missed.
func TestRestartResumes(t *testing.T) { eachStore(t, testRestartResumes) }

func testRestartResumes(t *testing.T) {
	c := devchaintest.Start(t)
	dir := t.TempDir()
	s := startIndexer(t, c, dir, nil)
	commit(t, c, 0, 2)
	caughtUp(t, s, c)
	s.stop()
	commit(t, c, 1, 3)
	s = startIndexer(t, c, dir, nil)
	caughtUp(t, s, c)
	got := list(t, s, "CommitmentInserted", 1000)
	if len(got) != 5 {
		t.Fatalf("%d events after a restart, want 5", len(got))
	}
	for i, leaf := range hexesOf(got, "leafIndex") {
		if leaf != []string{"0", "1", "2", "3", "4"}[i] {
			t.Fatalf("leaf indexes %v", hexesOf(got, "leafIndex"))
		}
	}
	// A store made for another start block is refused, not mixed.
	if _, err := newIndexer(t, c, dir, map[string]string{"START_BLOCK": "2"}); err == nil || !strings.Contains(err.Error(), "startBlock") {
		t.Fatalf("a store of another start block: %v", err)
	}
	// So is one made without a contract now set, or with one now unset: the blocks indexed so
	// far lack its events, or hold them.
	without := t.TempDir()
	s = startIndexer(t, c, without, map[string]string{"TOKEN_FACTORY_ADDRESS": ""})
	caughtUp(t, s, c)
	s.stop()
	if _, err := newIndexer(t, c, without, nil); err == nil || !strings.Contains(err.Error(), "TOKEN_FACTORY_ADDRESS (none)") {
		t.Fatalf("a store made without the token factory, the factory set: %v", err)
	}
	if _, err := newIndexer(t, c, dir, map[string]string{"TOKEN_FACTORY_ADDRESS": ""}); err == nil || !strings.Contains(err.Error(), "TOKEN_FACTORY_ADDRESS") {
		t.Fatalf("a store made with the token factory, the factory unset: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// An indexer whose START_BLOCK is ahead of the chain (started before the deployment) waits for
// it: no rollback, no reorg counted; then it indexes from there.
func TestStartBlockAheadOfTheChain(t *testing.T) { eachStore(t, testStartBlockAheadOfTheChain) }

func testStartBlockAheadOfTheChain(t *testing.T) {
	c := devchaintest.Start(t)
	head, _ := c.Client().BlockNumber(ctx)
	s := startIndexer(t, c, t.TempDir(), map[string]string{"START_BLOCK": strconv.FormatUint(head+3, 10)})
	time.Sleep(200 * time.Millisecond) // ten polls
	commit(t, c, 0, 2)                 // blocks head+1 … head+4: the second commit is in head+4
	caughtUp(t, s, c)
	if got := list(t, s, "CommitmentInserted", 10); len(got) != 1 {
		t.Fatalf("%d CommitmentInserted from block %d, want the one in block %d", len(got), head+3, head+4)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_indexer_reorgs_total 0") {
		t.Fatalf("reorgs counted while waiting for the start block:\n%s", edgetest.Grep(m, "reorgs"))
	}
}
