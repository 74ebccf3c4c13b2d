package faucet_test

import (
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
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
