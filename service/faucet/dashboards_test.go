package faucet_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// Every vaultd_faucet_* metric a dashboard or alert rule names is exported by the faucet, and a
// confirmed claim moves the ones that describe it.
func TestDashboardsUseRealMetrics(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer hooks.Close()
	// A webhook endpoint: the webhook metrics have a series per endpoint.
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "2/1h", "WEBHOOK_URLS": hooks.URL, "WEBHOOK_SECRET": "a webhook secret for the tests"})
	addr := freshAddress(t)
	claim(t, s, addr.Hex())
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	claim(t, s, addr.Hex()) // 409
	claim(t, s, addr.Hex()) // over the per-IP limit
	exported := scrape(t, s)
	for _, want := range []string{
		`vaultd_faucet_claims_total{outcome="ACCEPTED"} 1`, `vaultd_faucet_claims_total{outcome="ALREADY_CLAIMED"} 1`,
		`vaultd_faucet_claims_total{outcome="RATE_LIMITED"} 1`, `vaultd_faucet_claims_settled_total{status="confirmed"} 1`,
		`vaultd_faucet_rate_limited_total{limit="ip"} 1`, "vaultd_faucet_claim_duration_seconds_count 1", "vaultd_faucet_claims_pending 0",
		"vaultd_faucet_transactions_in_flight 0", "vaultd_faucet_balance_gate_open 1", `vaultd_chain_call_duration_seconds_count{call="send_transaction"} 1`,
	} {
		if !strings.Contains(exported, want+"\n") {
			t.Errorf("metrics lack %q", want)
		}
	}
	found := edgetest.CheckDashboards(t, "../../dashboards", "vaultd_faucet_", exported)
	if found < 10 {
		t.Fatalf("only %d faucet metric references found in dashboards/", found)
	}
}
