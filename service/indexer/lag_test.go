package indexer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/indexer"
)

// laggingNode forwards JSON-RPC to the dev chain, but while lag is set it answers "latest" with
// the block lag blocks below the head: a fake, standing in for a node behind the one that served
// the indexed blocks (a load balancer's, or a fallback endpoint of RPC_URL), which the dev chain
// cannot be made to be.
type laggingNode struct {
	url string
	lag atomic.Uint64
}

func newLaggingNode(t *testing.T, c *devchain.Chain) *laggingNode {
	t.Helper()
	n := &laggingNode{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if lag := n.lag.Load(); lag > 0 && bytes.Contains(body, []byte(`"eth_getBlockByNumber"`)) {
			head, err := c.Client().BlockNumber(ctx)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			body = bytes.Replace(body, []byte(`"latest"`), fmt.Appendf(nil, `"0x%x"`, head-lag), 1)
		}
		resp, err := http.Post(c.RPCURL, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(s.Close)
	n.url = s.URL
	return n
}

// A node whose head falls below what is indexed, with the same blocks, is behind, not on
// another branch: nothing is rolled back, no reorg is counted, and the indexer goes on once the
// node catches up.
func TestANodeBehindIsNotAReorg(t *testing.T) { eachStore(t, testANodeBehindIsNotAReorg) }

func testANodeBehindIsNotAReorg(t *testing.T) {
	c := devchaintest.Start(t)
	node := newLaggingNode(t, c)
	s := startIndexer(t, c, t.TempDir(), map[string]string{"RPC_URL": node.url})
	commit(t, c, 0, 3)
	caughtUp(t, s, c)
	before := list(t, s, "CommitmentInserted", 1000)

	node.lag.Store(3)
	waitFor(t, "the indexer to read the lagging head", func() bool {
		h, err := s.client.GetHealthWithResponse(ctx)
		return err == nil && h.JSON200 != nil && h.JSON200.Head < h.JSON200.IndexedTo.BlockNumber
	})
	time.Sleep(300 * time.Millisecond) // many polls (POLL_INTERVAL 20ms) on the lagging node
	if got := list(t, s, "CommitmentInserted", 1000); len(got) != len(before) {
		t.Fatalf("while the node lagged: %d events, had %d", len(got), len(before))
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_indexer_reorgs_total 0\n") {
		t.Fatalf("a lagging node was taken for a reorg:\n%s", edgetest.Grep(m, "vaultd_indexer_r"))
	}

	node.lag.Store(0)
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	if got := list(t, s, "CommitmentInserted", 1000); len(got) != len(before)+1 {
		t.Fatalf("after the node caught up: %d events, want %d", len(got), len(before)+1)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_indexer_reorgs_total 0\n") {
		t.Fatalf("reorgs after the node caught up:\n%s", edgetest.Grep(m, "vaultd_indexer_r"))
	}
}

// A node that serves a block's header but answers null for its receipts (a provider whose
// receipt index lags its headers) is waited for: no reorg is counted, nothing indexed is rolled
// back, and once the receipts come every event is indexed, equal to the chain's logs.
func TestLaggingReceiptsAreNotAReorg(t *testing.T) { eachStore(t, testLaggingReceiptsAreNotAReorg) }

func testLaggingReceiptsAreNotAReorg(t *testing.T) {
	c := devchaintest.Start(t)
	node := devchaintest.Faults(t, c.RPCURL)
	s := startIndexer(t, c, t.TempDir(), map[string]string{"RPC_URL": node.URL})
	commit(t, c, 0, 2)
	caughtUp(t, s, c)
	before := list(t, s, "CommitmentInserted", 1000)

	node.SetRule(func(string) devchain.Fault { return devchain.NullReceipt })
	commit(t, c, 0, 2)
	waitFor(t, "the lagging receipts counted", func() bool {
		m := scrape(t, s)
		return strings.Contains(m, "vaultd_indexer_receipts_lag_total ") && !strings.Contains(m, "vaultd_indexer_receipts_lag_total 0\n")
	})
	time.Sleep(500 * time.Millisecond) // many polls (POLL_INTERVAL 20ms) on blocks without receipts
	if got := list(t, s, "CommitmentInserted", 1000); len(got) != len(before) {
		t.Fatalf("while the receipts lagged: %d events, had %d", len(got), len(before))
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_indexer_reorgs_total 0\n") {
		t.Fatalf("lagging receipts were taken for a reorg:\n%s", edgetest.Grep(m, "vaultd_indexer_re"))
	}

	node.SetRule(nil)
	caughtUp(t, s, c)
	got := list(t, s, "CommitmentInserted", 1000)
	if len(got) != len(before)+2 {
		t.Fatalf("after the receipts came: %d events, want %d", len(got), len(before)+2)
	}
	want := chainLogs(t, c, c.Contracts.CommitmentTree, insertedTopic)
	if len(want) != len(got) {
		t.Fatalf("%d events indexed, the node has %d logs", len(got), len(want))
	}
	for i, e := range got {
		if uint64(e.BlockNumber) != want[i].BlockNumber || e.BlockHash != want[i].BlockHash.Hex() || e.LogIndex != int(want[i].Index) {
			t.Fatalf("event %d: %+v, the node's log: %+v", i, e, want[i])
		}
	}
}

// An indexer pointed at a deployment by DEPLOYMENT_FILE alone (its chain id, contracts and first
// block; the manifest's format, here written without its keys) follows it: no address variable
// set.
func TestStartedFromADeploymentFile(t *testing.T) {
	t.Parallel()
	c := devchaintest.StartConfig(t, devchain.Config{OnChainDeployment: true}) // its logs are indexed too
	m := c.Manifest()
	file := filepath.Join(t.TempDir(), "deployment.json")
	data, _ := json.Marshal(map[string]any{"chainId": m.ChainID, "startBlock": m.StartBlock, "contracts": m.Contracts, "tokens": m.Tokens})
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	only := map[string]string{"RPC_URL": c.RPCURL, "DEPLOYMENT_FILE": file, "DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "indexer.db"),
		"POLL_INTERVAL": "20ms", "RATE_LIMIT_PER_IP": "1000000/1m"}
	cfg, err := indexer.LoadConfig(func(k string) string { return only[k] })
	if err != nil {
		t.Fatalf("config from DEPLOYMENT_FILE: %v", err)
	}
	if cfg.StartBlock != m.StartBlock || cfg.Contracts["COMMIT_REVEAL_VAULT_ADDRESS"] != c.Contracts.Vault || cfg.Chain.ChainID != c.ChainID {
		t.Fatalf("config %+v from %s", cfg, data)
	}
	svc, err := indexer.New(ctx, cfg, indexer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
	client, _ := indexerapi.NewClientWithResponses(u)
	s := &server{svc: svc, url: u, client: client}
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	if got := list(t, s, "TokenCreated", 100); len(got) != len(c.Tokens)-1 { // the legacy token is not the factory's
		t.Fatalf("%d TokenCreated from the deployment file's factory, want %d", len(got), len(c.Tokens)-1)
	}
	if got := list(t, s, "CommitmentInserted", 100); len(got) != 1 {
		t.Fatalf("%d CommitmentInserted, want 1", len(got))
	}
	only["CHAIN_ID"] = "999" // an explicit variable overrides the file
	if _, err := indexer.LoadConfig(func(k string) string { return only[k] }); err != nil {
		t.Fatal(err)
	}
	if cfg, _ := indexer.LoadConfig(func(k string) string { return only[k] }); cfg.Chain.ChainID != 999 {
		t.Fatalf("CHAIN_ID set explicitly: %d, want 999", cfg.Chain.ChainID)
	}
}
