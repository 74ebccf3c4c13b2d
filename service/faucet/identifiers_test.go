package faucet_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/faucet"
)

// A refused claim's reason names no address: the spans of a second claim (ALREADY_CLAIMED) and
// of a claim to a contract that refuses native tokens (CLAIM_REJECTED), and every log line at
// debug level, carry neither address.
func TestRefusedClaimsNameNoAddress(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "faucet", nil)
	logs := &edgetest.Logs{}
	s := startFaucetWith(t, c, t.TempDir(), nil, faucet.Options{Traces: tp, Logger: edge.NewLogger(logs, slog.LevelDebug, "faucet")})
	addr := freshAddress(t)
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	contract := c.Contracts.Vault.Hex() // no receive function: a transfer to it reverts
	ids := []string{strings.ToLower(addr.Hex()[2:]), strings.ToLower(contract[2:])}
	shows := func(s string) bool {
		s = strings.ToLower(s)
		return strings.Contains(s, ids[0]) || strings.Contains(s, ids[1])
	}
	for _, want := range []struct{ addr, code string }{{addr.Hex(), "ALREADY_CLAIMED"}, {contract, "CLAIM_REJECTED"}} {
		r := claim(t, s, want.addr)
		if !strings.Contains(string(r.Body), want.code) {
			t.Fatalf("a claim for %s: %d %s, want %s", want.addr, r.StatusCode(), r.Body, want.code)
		}
		tr := otlptest.TraceOf(rx.Spans(t, tp), strings.Split(r.HTTPResponse.Header.Get("traceresponse"), "-")[1])
		refused := 0
		for _, sp := range tr {
			for _, ev := range sp.Events {
				refused += len(ev.Attrs["vaultd.reason"])
				for k, v := range ev.Attrs {
					if shows(v) {
						t.Errorf("%s: span %s, event %s: %s=%q names the address", want.code, sp.Name, ev.Name, k, v)
					}
				}
			}
			for k, v := range sp.Attrs {
				if shows(v) {
					t.Errorf("%s: span %s: %s=%q names the address", want.code, sp.Name, k, v)
				}
			}
		}
		if refused == 0 {
			t.Errorf("%s: no refusal's reason in its trace:\n%s", want.code, tr)
		}
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if shows(line) {
			t.Errorf("a log line names an address: %s", line)
		}
	}
}
