package indexer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// BenchmarkQueryPage times GET /api/indexer for a page of 1,000 CommitmentInserted by block
// range, through the real handler (validation, store, JSON), on a store holding benchEvents
// events, SQLite and Postgres, and reports p50 and p99:
//
//	go test ./service/indexer -run '^$' -bench QueryPage -benchtime 2000x
func BenchmarkQueryPage(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchQueryPage(b, "sqlite:"+filepath.Join(b.TempDir(), "indexer.db")) })
	b.Run("postgres", func(b *testing.B) { benchQueryPage(b, sqldbtest.Postgres(b)) })
}

func benchQueryPage(b *testing.B, databaseURL string) {
	const benchEvents, perBlock = 1_000_000, 10
	c := devchaintest.Start(b)
	env := map[string]string{
		"RPC_URL": c.RPCURL, "COMMIT_REVEAL_VAULT_ADDRESS": c.Contracts.Vault.Hex(), "NULLIFIER_REGISTRY_ADDRESS": c.Contracts.NullifierRegistry.Hex(),
		"COMMITMENT_TREE_ADDRESS": c.Contracts.CommitmentTree.Hex(), "DATABASE_URL": databaseURL,
	}
	cfg, err := LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		b.Fatal(err)
	}
	svc, err := New(context.Background(), cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	start := time.Now()
	blocks := fill(b, svc.Indexer.store, benchEvents/perBlock, perBlock, c.Contracts.CommitmentTree)
	svc.Indexer.setIndexed(Block{Number: blocks, Hash: common.BigToHash(common.Big1)})
	b.Logf("filled the store with %d events in %d blocks in %s", benchEvents, blocks, time.Since(start).Round(time.Second))
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	client := srv.Client()
	rng := rand.New(rand.NewPCG(1, 2))
	latencies := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		from := 1 + rng.Uint64N(blocks-200)
		url := fmt.Sprintf("%s/api/indexer?event=CommitmentInserted&fromBlock=%d&toBlock=%d&limit=1000", srv.URL, from, from+199)
		t0 := time.Now()
		resp, err := client.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		var page struct{ Events []json.RawMessage }
		if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || len(page.Events) != 1000 {
			b.Fatalf("page of %d events: %v", len(page.Events), err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		latencies = append(latencies, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
}

// fill stores n blocks of perBlock CommitmentInserted each, as the indexer stores them, and
// returns the last block's number.
func fill(b *testing.B, s *store, n, perBlock int, tree common.Address) uint64 {
	ctx := context.Background()
	batch := make([]indexedBlock, 0, 1000)
	var parent common.Hash
	leaf := 0
	for i := 1; i <= n; i++ {
		h := common.BigToHash(common.Big1)
		h[0], h[1], h[2], h[3] = byte(i>>24), byte(i>>16), byte(i>>8), byte(i)
		blk := indexedBlock{Block: Block{Number: uint64(i), Hash: h}, Parent: parent}
		for k := range perBlock {
			args := fmt.Sprintf(`{"commitment":"%s","leafIndex":"%d","root":"%s"}`, common.BigToHash(common.Big2).Hex(), leaf, h.Hex())
			blk.Events = append(blk.Events, Event{Name: "CommitmentInserted", Block: blk.Block, LogIndex: uint(k), TxHash: h, Address: tree, Args: json.RawMessage(args)})
			leaf++
		}
		batch = append(batch, blk)
		parent = h
		if len(batch) == cap(batch) || i == n {
			if err := s.apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return uint64(n)
}
