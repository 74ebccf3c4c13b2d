package registry_test

import (
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// Every vaultd_registry_*, vaultd_http_* and vaultd_chain_* metric that a dashboard or an alert
// rule names is one the registry exports, so a renamed metric cannot silently blank a panel or
// an alert.
func TestDashboardsUseRealMetrics(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	upsert(t, s, registryapi.TokenInput{Address: testChain.Contracts.TokenFactory.Hex()}) // reverts: chain call errors
	exported := edgetest.Scrape(t, s.url)
	if found := edgetest.CheckDashboards(t, "../../dashboards", `vaultd_(registry|http|chain)_`, exported); found < 5 {
		t.Fatalf("found only %d registry, HTTP and chain metric references in dashboards/", found)
	}
}
