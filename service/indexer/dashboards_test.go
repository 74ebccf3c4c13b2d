package indexer_test

import (
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

// Every vaultd_indexer_* metric a dashboard or alert rule names is exported by the indexer.
func TestDashboardsUseRealMetrics(t *testing.T) { eachStore(t, testDashboardsUseRealMetrics) }

func testDashboardsUseRealMetrics(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	list(t, s, "CommitmentInserted", 10)
	exported := scrape(t, s)
	found := edgetest.CheckDashboards(t, "../../dashboards", "vaultd_indexer_", exported)
	if found < 8 {
		t.Fatalf("only %d indexer metric references found in dashboards/", found)
	}
	for _, want := range []string{"vaultd_indexer_lag_blocks 0", "vaultd_indexer_query_duration_seconds_count 1"} {
		if !strings.Contains(exported, want+"\n") {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// With CONFIRMATIONS=3 the indexer stays three blocks behind the head.
func TestConfirmations(t *testing.T) { eachStore(t, testConfirmations) }

func testConfirmations(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), map[string]string{"CONFIRMATIONS": "3"})
	commit(t, c, 0, 3) // approve, commit, three times: commits at head − 4, head − 2 and head
	head, _ := c.Client().BlockNumber(ctx)
	waitFor(t, "indexed to head − 3", func() bool {
		h, _ := s.client.GetHealthWithResponse(ctx)
		return h.JSON200.IndexedTo.BlockNumber == int64(head-3)
	})
	h, _ := s.client.GetHealthWithResponse(ctx)
	if h.JSON200.Lag != 3 || h.JSON200.Confirmations != 3 || h.JSON200.Status != "healthy" || h.JSON200.Version != buildversion.String() ||
		h.JSON200.Schema == nil || (*h.JSON200.Schema)["indexer"] < 1 {
		t.Fatalf("health %s", h.Body)
	}
	if r, _ := s.client.GetReadyWithResponse(ctx); r.StatusCode() != 200 {
		t.Fatalf("ready three blocks behind with CONFIRMATIONS=3: %d %s", r.StatusCode(), r.Body)
	}
	if got := list(t, s, "CommitmentInserted", 10); len(got) != 1 {
		t.Fatalf("%d CommitmentInserted up to head − 3, want the first one", len(got))
	}
}
