package faucet_test

import (
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/kit/webhook/webhooktest"
)

// writeFixtures makes TestWriteUpgradeFixtures write testdata/upgrade anew: run it with the
// code whose databases the upgrade tests must open, never after a schema change.
var writeFixtures = flag.Bool("write-fixtures", false, "write testdata/upgrade with this code")

// The claims in the upgrade fixtures, one in each state: addresses of their own, so that the
// upgrade tests know them.
var (
	fixtureConfirmed = common.HexToAddress("0x00000000000000000000000000000000000c0f1d")
	fixtureFailed    = common.HexToAddress("0x00000000000000000000000000000000000fa11d")
	fixturePending   = common.HexToAddress("0x00000000000000000000000000000000000be9d1")
)

// fixtureHook is where the fixtures' webhooks were to go: nothing listens there, so that they
// stay queued.
const (
	fixtureHook       = "http://127.0.0.1:9/hook"
	fixtureHookSecret = "a webhook secret for the upgrade fixtures"
)

// TestWriteUpgradeFixtures writes what a faucet leaves in its database, on SQLite (a file) and on
// Postgres (a dump): a claim confirmed, one failed (its transfer cancelled by the operator), one
// pending (its transfer signed and sent, not mined), their webhook events queued for an endpoint
// that never answered, the replica paused by the operator. On the dev chain the faucet's wallet
// has sent two transactions before the pending claim's (nonce 2).
func TestWriteUpgradeFixtures(t *testing.T) {
	if !*writeFixtures {
		t.Skip("run with -write-fixtures to write testdata/upgrade")
	}
	dir := t.TempDir()
	writeFixture(t, "sqlite:"+filepath.Join(dir, "faucet.db"))
	data, err := os.ReadFile(filepath.Join(dir, "faucet.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/upgrade/faucet.db", data, 0o644); err != nil {
		t.Fatal(err)
	}
	pg := sqldbtest.Postgres(t)
	writeFixture(t, pg)
	if err := os.WriteFile("testdata/upgrade/faucet.pg.sql", sqldbtest.Dump(t, pg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFixture(t *testing.T, databaseURL string) {
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": databaseURL, "ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-a",
		"REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m", "WEBHOOK_URLS": fixtureHook, "WEBHOOK_SECRET": fixtureHookSecret})
	wallet := c.Accounts.Faucet.Address
	if r := claim(t, s, fixtureConfirmed.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, fixtureConfirmed, faucetapi.ClaimStatusConfirmed)

	n := nonce(t, c, wallet)
	c.PauseSealing()
	if r := claim(t, s, fixtureFailed.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	waitFor(t, "the claim's transfer cancelled", func() bool {
		r, err := s.client.CancelTransactionWithResponse(ctx, int64(n), &walletapi.CancelTransactionParams{Wallet: wallet.Hex()}, bearer(adminKey))
		return err == nil && r.JSON202 != nil
	})
	waitFor(t, "the cancel sent", func() bool { return strings.Contains(scrape(t, s), "vaultd_faucet_transaction_replacements_total 1") })
	c.ResumeSealing()
	waitFor(t, "the cancel mined", func() bool { return nonce(t, c, wallet) == n+1 })
	for range 2 {
		fund(t, c, c.Accounts.Deployer.Key, freshAddress(t), big.NewInt(1))
	}
	waitStatus(t, s, fixtureFailed, faucetapi.ClaimStatusFailed)

	c.PauseSealing()
	if r := claim(t, s, fixturePending.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	if p, err := s.client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	s.stop()
}

// A faucet's database from before numbered migrations (testdata/upgrade, written by
// TestWriteUpgradeFixtures at 6520340), on SQLite and on Postgres, is migrated by this code's
// start and goes on: every claim reads back in its state, the pause holds, the pending claim's
// transfer (the one signed then) is mined and the claim confirmed, paid once, and each queued
// webhook event is delivered once.
func TestAnUpgradedDatabaseGoesOn(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "faucet.db")
		data, err := os.ReadFile("testdata/upgrade/faucet.db")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		upgradedDatabaseGoesOn(t, "sqlite:"+path)
	})
	t.Run("postgres", func(t *testing.T) {
		url := sqldbtest.Postgres(t)
		data, err := os.ReadFile("testdata/upgrade/faucet.pg.sql")
		if err != nil {
			t.Fatal(err)
		}
		sqldbtest.Restore(t, url, data)
		upgradedDatabaseGoesOn(t, url)
	})
}

func upgradedDatabaseGoesOn(t *testing.T, databaseURL string) {
	c := devchaintest.Start(t)
	wallet := c.Accounts.Faucet.Address
	for nonce(t, c, wallet) < 2 { // the wallet's transactions before the pending claim's
		fund(t, c, c.Accounts.Faucet.Key, freshAddress(t), big.NewInt(1))
	}
	hooks := webhooktest.Start(t, fixtureHookSecret)

	// The queued events: their endpoint has moved to this test's receiver, and they are recorded
	// now (an event older than WEBHOOK_EXPIRE_AFTER is dead-lettered, not sent).
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE webhook_outbox SET url = $1, created_at = $2`, hooks.URL, time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	var queued []string
	rows, err := db.Query(`SELECT id FROM webhook_outbox WHERE delivered_at IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		queued = append(queued, id)
	}
	rows.Close()
	db.Close()
	if len(queued) == 0 {
		t.Fatal("the fixture has no queued webhook events")
	}

	s := startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": databaseURL, "ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-a",
		"WEBHOOK_URLS": hooks.URL, "WEBHOOK_SECRET": fixtureHookSecret})
	if st := status(t, s, fixtureConfirmed.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusConfirmed || st.JSON200.TxHash == nil {
		t.Fatalf("the confirmed claim: %s", st.Body)
	}
	if st := status(t, s, fixtureFailed.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusFailed || st.JSON200.Reason == nil || !strings.Contains(*st.JSON200.Reason, "cancelled") {
		t.Fatalf("the failed claim: %s", st.Body)
	}
	pending := status(t, s, fixturePending.Hex())
	if pending.JSON200 == nil || pending.JSON200.TxHash == nil {
		t.Fatalf("the pending claim: %s", pending.Body)
	}
	r := claim(t, s, freshAddress(t).Hex())
	wantError(t, "a claim at the faucet paused before the upgrade", r.StatusCode(), r.Body, 503, "PAUSED")

	got := waitStatus(t, s, fixturePending, faucetapi.ClaimStatusConfirmed)
	if *got.TxHash != *pending.JSON200.TxHash {
		t.Fatalf("confirmed by %s, not the transfer signed before the upgrade %s", *got.TxHash, *pending.JSON200.TxHash)
	}
	if n := nonce(t, c, wallet); n != 3 {
		t.Fatalf("the wallet's nonce is %d, want 3: the pending claim's transfer once", n)
	}
	if b := balance(t, c, fixturePending); b.Cmp(amount) != 0 {
		t.Fatalf("the pending claim paid %s, want %s", b, amount)
	}
	hooks.WantEachOnce(t, queued, func(events []webhook.Event) bool {
		return slices.ContainsFunc(events, func(e webhook.Event) bool { return e.Type == "claim.confirmed" })
	})

	db, err = sqldb.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := db.Versions(ctx, faucet.Schemas...); err != nil || v["faucet"] != 1 || v["webhook"] != 1 || v["pause"] != 1 {
		t.Fatalf("the schema's versions: %v %v", v, err)
	}
}
