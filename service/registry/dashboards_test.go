package registry_test

import (
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// Every vaultd_registry_*, vaultd_http_* and vaultd_chain_* metric that a dashboard or an alert
// rule names is one the registry exports, so a renamed metric cannot silently blank a panel or
// an alert.
func TestDashboardsUseRealMetrics(t *testing.T) {
	t.Parallel()
	node := devchaintest.Faults(t, testChain.RPCURL)
	s := startServer(t, "", map[string]string{"RPC_URL": node.URL})
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	node.SetReply("eth_call", `"error":{"code":-32005,"message":"request limit exceeded"}`, 1) // a chain call error
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[1].Address.Hex()})
	exported := edgetest.Scrape(t, s.url)
	if found := edgetest.CheckDashboards(t, "../../dashboards", `vaultd_(registry|http|chain)_`, exported); found < 5 {
		t.Fatalf("found only %d registry, HTTP and chain metric references in dashboards/", found)
	}
}
