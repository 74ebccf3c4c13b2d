package relayer_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A refusal's reason names no one: the spans of refused reveals (a spent nullifier, a recipient
// that is not the proof's, a recipient with a bad checksum) and every log line, at debug level,
// carry neither the nullifier nor the recipient; an error line names the route's pattern, not
// the path (GET /reveal/{nullifier}, whose path is a nullifier).
func TestRefusalsNameNoIdentifiers(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "relayer", nil)
	logs := &edgetest.Logs{}
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, nil))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{Traces: tp, Logger: edge.NewLogger(logs, slog.LevelDebug, "relayer")})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
	client, _ := relayerapi.NewClientWithResponses(url)

	_, spent := relayertest.Request(t, c, relayertest.User(c, 0), 8)
	if resp, err := client.RevealWithResponse(ctx, spent); err != nil || resp.StatusCode() != 200 {
		t.Fatalf("reveal: %v %s", err, resp.Body)
	}
	_, fresh := relayertest.Request(t, c, relayertest.User(c, 1), 8)
	other := fresh
	other.Recipient = spent.Recipient // a valid address, not the proof's
	badSum := fresh
	badSum.Recipient = mixCase(fresh.Recipient)
	// What must not show: the nullifiers (hex and the decimal signal) and the recipients.
	var secrets []string
	for _, req := range []relayerapi.RevealRequest{spent, fresh} {
		secrets = append(secrets, strings.ToLower(relayertest.NullifierHex(t, req)[2:]), req.PublicSignals[zk.SignalNullifier], strings.ToLower(req.Recipient[2:]))
	}
	shows := func(s string) string {
		s = strings.ToLower(s)
		for _, id := range secrets {
			if strings.Contains(s, id) {
				return id
			}
		}
		return ""
	}
	for _, want := range []struct {
		name string
		req  relayerapi.RevealRequest
		code string
	}{
		{"a spent nullifier", spent, "NULLIFIER_USED"},
		{"another recipient than the proof's", other, "SIGNAL_MISMATCH"},
		{"a recipient with a bad checksum", badSum, "INVALID_RECIPIENT"},
	} {
		resp, err := client.RevealWithResponse(ctx, want.req)
		if err != nil || !strings.Contains(string(resp.Body), want.code) {
			t.Fatalf("%s: %v %d %s", want.name, err, resp.StatusCode(), resp.Body)
		}
		tr, _ := traceOf(t, rx, tp, resp.HTTPResponse)
		refused := 0
		for _, s := range tr {
			for _, ev := range s.Events {
				if ev.Name == "refused" {
					refused++
				}
				for k, v := range ev.Attrs {
					if id := shows(v); id != "" {
						t.Errorf("%s: span %s, event %s: %s=%q shows %s", want.name, s.Name, ev.Name, k, v, id)
					}
				}
			}
			for k, v := range s.Attrs {
				if id := shows(v); id != "" {
					t.Errorf("%s: span %s: %s=%q shows %s", want.name, s.Name, k, v, id)
				}
			}
		}
		if refused == 0 {
			t.Errorf("%s: no refused event in its trace:\n%s", want.name, tr)
		}
	}

	// A path the document refuses (a nullifier one digit short): its error line names the route.
	short := relayertest.NullifierHex(t, fresh)[:65]
	resp, err := http.Get(url + "/reveal/" + short)
	if err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("GET /reveal/<63 digits>: %v %v", err, resp)
	}
	resp.Body.Close()
	errorLines := 0
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if id := shows(line); id != "" || strings.Contains(strings.ToLower(line), strings.ToLower(short[2:])) {
			t.Errorf("a log line shows an identifier (%s): %s", id, line)
		}
		var l map[string]any
		if json.Unmarshal([]byte(line), &l) != nil {
			t.Errorf("a log line that is not JSON: %s", line)
			continue
		}
		if l["code"] != nil && l["msg"] != "request" { // an error line (WriteError's)
			errorLines++
			if l["route"] != "/reveal" && l["route"] != "/reveal/{nullifier}" {
				t.Errorf("an error line without the route's pattern: %s", line)
			}
		}
	}
	if errorLines < 4 {
		t.Errorf("%d error lines, want one per refusal (4):\n%s", errorLines, logs)
	}
}
