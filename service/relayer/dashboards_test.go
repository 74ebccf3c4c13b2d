package relayer_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// Every vaultd_relayer_* metric a dashboard or alert rule names is exported by the relayer.
func TestDashboardsUseRealMetrics(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer hooks.Close()
	// A webhook endpoint: the webhook metrics have a series per endpoint.
	s := relayertest.Start(t, c, map[string]string{"RATE_LIMIT_PER_IP": "1/1m", "WEBHOOK_URLS": hooks.URL, "WEBHOOK_SECRET": "a webhook secret for the tests",
		"RELAYER_FUNDING": "treasury,fee,sponsor", "RELAYER_TOKEN_PRICES": c.Tokens[0].Address.Hex() + "=1", // fees' series too
		"ADMIN_API_KEY": adminKey}) // and a sponsor's
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 3)
	relayertest.Reveal(t, s, req) // mined: gas, stages, outcome
	relayertest.Reveal(t, s, req) // over the per-IP limit: rate_limited_total
	sp, key := createSponsor(t, s, "Card Issuer Ltd", nil)
	creditSponsor(t, s, sp.Id, oneEther)
	_, paid := relayertest.Request(t, c, relayertest.User(c, 1), 5)
	revealAs(t, s, paid, key) // the sponsor's balance and debits
	exported := scrape(t, s)
	found := edgetest.CheckDashboards(t, "../../dashboards", "vaultd_relayer_", exported)
	if found < 10 {
		t.Fatalf("only %d relayer metric references found in dashboards/", found)
	}
}

// One mined reveal moves the metrics the issue names: outcome, stages, gas, nonce, in flight,
// balance, chain calls.
func TestMetricsOfAReveal(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 4)
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	edgetest.WaitFor(t, "the balance refreshed after the reveal", func() bool {
		return !strings.Contains(scrape(t, s), "vaultd_relayer_operator_balance_ether 1000\n")
	})
	m := scrape(t, s)
	for _, want := range []string{
		`vaultd_relayer_reveals_total{outcome="SUCCESS"} 1`,
		`vaultd_relayer_reveal_gas_used_count 1`,
		`vaultd_relayer_next_nonce 1`,
		`vaultd_relayer_transactions_in_flight 0`,
		`vaultd_relayer_reveal_stage_duration_seconds_count{stage="check.chain"} 1`,
		`vaultd_relayer_reveal_stage_duration_seconds_count{stage="check.verify"} 1`,
		`vaultd_relayer_reveal_stage_duration_seconds_count{stage="simulate"} 1`,
		`vaultd_relayer_reveal_stage_duration_seconds_count{stage="send"} 1`,
		`vaultd_relayer_reveal_stage_duration_seconds_count{stage="receipt"} 1`,
		`vaultd_relayer_reveal_stage_duration_seconds_count{stage="total"} 1`,
		`vaultd_relayer_balance_gate_open 1`,
		`vaultd_chain_call_duration_seconds_count{call="send_transaction"} 1`,
	} {
		if !strings.Contains(m, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
	if !regexp.MustCompile(`vaultd_relayer_operator_balance_ether 999\.\d+`).MatchString(m) {
		t.Errorf("operator balance after paying one reveal's gas:\n%s", edgetest.Grep(m, "operator_balance"))
	}
}
