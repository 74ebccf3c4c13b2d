package relayer_test

import (
	"encoding/json"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/kit/webhook/webhooktest"
	"github.com/seed018cc74c/vaultd/service/relayer"
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

// A relayer's database from before numbered migrations (testdata/upgrade, written by
// TestWriteUpgradeFixtures at 6520340), on SQLite and on Postgres, is migrated by this code's
// start and goes on: the sponsor reads back with its key as it was stored (credited, debited,
// reserved, one reveal paid) and in the operator's list, the settled reveal answers mined, the
// pause holds; the reveal sent and reserved then is broadcast again (its bytes of then: on this
// chain its proof's root is unknown, so it reverts, its gas paid) and settled once, the sponsor
// debited its cost once and nothing left reserved, no second transaction sent; each queued
// webhook event is delivered once.
func TestAnUpgradedDatabaseGoesOn(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "relayer.db")
		writeFile(t, path, readFile(t, "testdata/upgrade/relayer.db"))
		upgradedDatabaseGoesOn(t, "sqlite:"+path, readFixture(t, "testdata/upgrade/relayer.json"))
	})
	t.Run("postgres", func(t *testing.T) {
		url := sqldbtest.Postgres(t)
		sqldbtest.Restore(t, url, readFile(t, "testdata/upgrade/relayer.pg.sql"))
		upgradedDatabaseGoesOn(t, url, readFixture(t, "testdata/upgrade/relayer.pg.json"))
	})
}

func readFile(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readFixture(t *testing.T, path string) upgradeFixture {
	var f upgradeFixture
	if err := json.Unmarshal(readFile(t, path), &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// storedSponsor is the sponsor's row in the fixture, as written then.
type storedSponsor struct {
	credited, debited, reserved string
	revealsPaid                 int64
}

func upgradedDatabaseGoesOn(t *testing.T, databaseURL string, f upgradeFixture) {
	c := devchaintest.Start(t)
	for relayertest.PendingOperatorNonce(t, c) < 1 { // the operator's transaction before the pending reveal's
		to := common.Address{1}
		tx, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &to, big.NewInt(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
			t.Fatal(err)
		}
	}
	hooks := webhooktest.Start(t, fixtureHookSecret)

	// The queued events' endpoint has moved to this test's receiver, and the rows are recorded
	// now: an event older than WEBHOOK_EXPIRE_AFTER is dead-lettered, not sent, and a settled
	// reveal older than a week is forgotten at start.
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UnixMilli()
	if _, err := db.Exec(`UPDATE webhook_outbox SET url = $1, created_at = $2`, hooks.URL, now); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"reveal_transactions", "reveal_outcomes"} {
		if _, err := db.Exec(`UPDATE `+table+` SET updated_at = $1`, now); err != nil {
			t.Fatal(err)
		}
	}
	queued := queuedEvents(t, db)
	var stored storedSponsor
	if err := db.QueryRow(`SELECT credited, debited, reserved, reveals_paid FROM sponsors WHERE id = $1`, f.Sponsor).
		Scan(&stored.credited, &stored.debited, &stored.reserved, &stored.revealsPaid); err != nil {
		t.Fatalf("the fixture's sponsor: %v", err)
	}
	db.Close()
	if len(queued) == 0 || stored.reserved == "0" {
		t.Fatalf("the fixture has %d queued webhook events and the sponsor %+v: want some queued, and a reveal reserved", len(queued), stored)
	}

	// Sealing paused: the reveal in flight is broadcast again at start and waits to be mined,
	// while the sponsor reads back as it was stored.
	c.PauseSealing()
	s := relayertest.Start(t, c, sponsorEnv(databaseURL, map[string]string{"RELAYER_FUNDING": "sponsor", "REPLICA_NAME": "relayer-a",
		"RATE_LIMIT_PER_SPONSOR": "100000/1m", "WEBHOOK_URLS": hooks.URL, "WEBHOOK_SECRET": fixtureHookSecret}))
	sp := sponsorOf(t, s, f.SponsorKey)
	if sp.Id != f.Sponsor || sp.Name != "Card Issuer Ltd" || sp.Credited != stored.credited || sp.Debited != stored.debited ||
		sp.Reserved != stored.reserved || sp.RevealsPaid != stored.revealsPaid || sp.Revoked {
		t.Fatalf("the sponsor read back as %+v, stored as %+v", sp, stored)
	}
	list, err := s.Client.ListSponsorsWithResponse(ctx, bearer(adminKey))
	if err != nil || list.JSON200 == nil || len(list.JSON200.Sponsors) != 1 || list.JSON200.Sponsors[0].Id != sp.Id ||
		list.JSON200.Sponsors[0].Debited != sp.Debited {
		t.Fatalf("the operator's list: %v %s", err, list.Body)
	}
	settled := revealStatus(t, s, f.Settled)
	if settled.State != relayerapi.RevealStatusStateMined || settled.TxHash == nil || settled.BlockNumber == nil {
		t.Fatalf("the settled reveal: %+v", settled)
	}
	if ready, err := s.Client.GetReadyWithResponse(ctx); err != nil || ready.JSON503 == nil || ready.JSON503.Code != "PAUSED" {
		t.Fatalf("/ready at the relayer paused before the upgrade: %v %s", err, ready.Body)
	}
	pending := revealStatus(t, s, f.Pending)
	if pending.State != relayerapi.RevealStatusStatePending || pending.TxHash == nil {
		t.Fatalf("the reveal in flight: %+v", pending)
	}

	c.ResumeSealing()
	edgetest.WaitFor(t, "the reveal in flight settled", func() bool { return sponsorOf(t, s, f.SponsorKey).RevealsPaid == stored.revealsPaid+1 })
	done := revealStatus(t, s, f.Pending)
	if done.State == relayerapi.RevealStatusStatePending || done.State == relayerapi.RevealStatusStateUnknown || done.TxHash == nil || *done.TxHash != *pending.TxHash {
		t.Fatalf("the reveal in flight ended %+v, want the transaction sent before the upgrade %s mined", done, *pending.TxHash)
	}
	debited, _ := new(big.Int).SetString(stored.debited, 10)
	debited.Add(debited, costOf(t, c, *done.TxHash))
	if got := sponsorOf(t, s, f.SponsorKey); got.Debited != debited.String() || got.Reserved != "0" || got.Credited != stored.credited {
		t.Fatalf("settled after the upgrade, the sponsor is %+v: want debited %s (its cost once), nothing reserved", got, debited)
	}
	if n := relayertest.PendingOperatorNonce(t, c); n != 2 {
		t.Fatalf("the operator's nonce is %d, want 2: the reveal in flight sent once", n)
	}

	hooks.WantEachOnce(t, queued, func(events []webhook.Event) bool {
		return slices.ContainsFunc(events, func(ev webhook.Event) bool { return ev.Type == "reveal."+string(done.State) })
	})

	db, err = sqldb.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := db.Versions(ctx, relayer.Schemas...)
	if err != nil || len(v) != len(relayer.Schemas) {
		t.Fatalf("the schema's versions: %v %v", v, err)
	}
	for owner, n := range v {
		if n != 1 {
			t.Errorf("the %s schema is at version %d, want 1", owner, n)
		}
	}
}

// queuedEvents are the ids of the webhook events not delivered yet.
func queuedEvents(t *testing.T, db *sqldb.DB) []string {
	rows, err := db.Query(`SELECT id FROM webhook_outbox WHERE delivered_at IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// revealStatus is GET /reveal/{nullifier}.
func revealStatus(t *testing.T, s *relayertest.Server, nullifier string) relayerapi.RevealStatus {
	resp, err := s.Client.GetRevealWithResponse(ctx, nullifier)
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("GET /reveal/%s: %v %s", nullifier, err, resp.Body)
	}
	return *resp.JSON200
}
