package relayer_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// writeFixtures makes TestWriteUpgradeFixtures write testdata/upgrade anew: run it with the
// code whose databases the upgrade tests must open, never after a schema change.
var writeFixtures = flag.Bool("write-fixtures", false, "write testdata/upgrade with this code")

// fixtureHook is where the fixtures' webhooks were to go: nothing listens there, so that they
// stay queued.
const (
	fixtureHook       = "http://127.0.0.1:9/hook"
	fixtureHookSecret = "a webhook secret for the upgrade fixtures"
)

// upgradeFixture is what a fixture holds that its rows do not tell (the sponsor's key is stored
// hashed), written beside it.
type upgradeFixture struct {
	Sponsor, SponsorKey string
	Settled, Pending    string // the reveals' nullifiers
}

// TestWriteUpgradeFixtures writes what a relayer leaves in its database, on SQLite (a file) and
// on Postgres (a dump): a sponsor credited (with an Idempotency-Key), a reveal it paid mined and
// settled (debited), another sent and not mined (reserved), their webhook events queued for an
// endpoint that never answered, the replica paused by the operator.
func TestWriteUpgradeFixtures(t *testing.T) {
	if !*writeFixtures {
		t.Skip("run with -write-fixtures to write testdata/upgrade")
	}
	dir := t.TempDir()
	f := writeFixture(t, "sqlite:"+filepath.Join(dir, "relayer.db"))
	data, err := os.ReadFile(filepath.Join(dir, "relayer.db"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, "testdata/upgrade/relayer.db", data)
	fixture, _ := json.MarshalIndent(f, "", "  ")
	writeFile(t, "testdata/upgrade/relayer.json", fixture)
	pg := sqldbtest.Postgres(t)
	f = writeFixture(t, pg)
	writeFile(t, "testdata/upgrade/relayer.pg.sql", sqldbtest.Dump(t, pg))
	fixture, _ = json.MarshalIndent(f, "", "  ")
	writeFile(t, "testdata/upgrade/relayer.pg.json", fixture)
}

func writeFile(t *testing.T, path string, data []byte) {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFixture(t *testing.T, databaseURL string) upgradeFixture {
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, sponsorEnv(databaseURL, map[string]string{"RELAYER_FUNDING": "sponsor", "RECEIPT_TIMEOUT": "1s", "REPLACE_AFTER": "500ms",
		"RATE_LIMIT_PER_SPONSOR": "1000/1m", "REPLICA_NAME": "relayer-a", "WEBHOOK_URLS": fixtureHook, "WEBHOOK_SECRET": fixtureHookSecret}))
	sp, key := createSponsor(t, s, "Card Issuer Ltd", nil)
	creditSponsor(t, s, sp.Id, oneEther)
	_, settled := relayertest.Request(t, c, relayertest.User(c, 0), 41)
	if resp := revealAs(t, s, settled, key); resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("the sponsored reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	_, pending := relayertest.Request(t, c, relayertest.User(c, 1), 42)
	c.PauseSealing()
	relayertest.WantCode(t, "the sponsored reveal, not mined in time", revealAs(t, s, pending, key), 504, "TX_PENDING")
	if p, err := s.Client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	s.Stop()
	return upgradeFixture{Sponsor: sp.Id, SponsorKey: key, Settled: relayertest.NullifierHex(t, settled), Pending: relayertest.NullifierHex(t, pending)}
}
