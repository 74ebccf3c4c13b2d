package faucet_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/redistest"
	"github.com/seed018cc74c/vaultd/service/sqldb/sqldbtest"
)

// Two replicas on one Postgres and one Redis, each with its own wallet: the total limit holds
// across them (one claim, then 429 at the other), and a claim made at one is 409 at the other.
func TestReplicasShareLimitsAndClaims(t *testing.T) {
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	url, _ := redistest.Server(t)
	second := freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(second), new(big.Int).Mul(big.NewInt(10_000), big.NewInt(params.Ether)))
	over := map[string]string{"DATABASE_URL": db, "REDIS_URL": url, "RATE_LIMIT_TOTAL": "1/1h"}
	a := startFaucet(t, c, t.TempDir(), over)
	over["FAUCET_PRIVATE_KEY"] = keyHex(second)
	b := startFaucet(t, c, t.TempDir(), over)

	first := freshAddress(t)
	if r := claim(t, a, first.Hex()); r.StatusCode() != 202 {
		t.Fatalf("the first claim: %d %s", r.StatusCode(), r.Body)
	}
	r := claim(t, b, first.Hex())
	wantError(t, "the same address at the other replica", r.StatusCode(), r.Body, 409, "ALREADY_CLAIMED")
	r = claim(t, b, freshAddress(t).Hex())
	wantError(t, "a second claim at the other replica, over the total limit", r.StatusCode(), r.Body, 429, "RATE_LIMITED")
	if n := nonce(t, c, keyAddress(second)); n != 0 {
		t.Fatalf("the second replica's wallet sent %d transactions", n)
	}
}
