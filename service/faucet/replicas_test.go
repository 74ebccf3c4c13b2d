package faucet_test

import (
	"crypto/ecdsa"
	"database/sql"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// twoReplicas starts two faucets on c configured by over, sharing a new Postgres and a new Redis:
// a pays from the dev faucet account, b from second, funded.
func twoReplicas(t *testing.T, c *devchain.Chain, over map[string]string) (a, b *server, second *ecdsa.PrivateKey) {
	url, _ := redistest.Server(t)
	over["DATABASE_URL"], over["REDIS_URL"] = sqldbtest.Postgres(t), url
	second = freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(second), new(big.Int).Mul(big.NewInt(10_000), big.NewInt(params.Ether)))
	a = startFaucet(t, c, t.TempDir(), over)
	over["FAUCET_PRIVATE_KEY"] = keyHex(second)
	return a, startFaucet(t, c, t.TempDir(), over), second
}

// Two replicas on one Postgres and one Redis, each with its own wallet: the total limit holds
// across them (one claim, then 429 at the other), and a claim made at one is 409 at the other.
func TestReplicasShareLimitsAndClaims(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	a, b, second := twoReplicas(t, c, map[string]string{"RATE_LIMIT_TOTAL": "1/1h"})

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

// Two replicas on one Postgres and one Redis share what bounds the proof of work's checks: the
// challenges' per-IP limit (one at each replica, the third 429), and a challenge's tries (two
// wrong nonces at one, one at the other: the right nonce is then refused at either).
func TestReplicasShareTheProofOfWorksBounds(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	a, b, _ := twoReplicas(t, c, cheapPow(map[string]string{"RATE_LIMIT_CHALLENGE_PER_IP": "2/1h", "RATE_LIMIT_PER_IP": "100/1h"}))

	addr := freshAddress(t)
	ch := challenge(t, a, addr)
	challenge(t, b, freshAddress(t))
	r, err := b.client.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: freshAddress(t).Hex()})
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, "a third challenge, at either replica", r.StatusCode(), r.Body, 429, "RATE_LIMITED")
	sol, miss := solve(t, ch), missingNonce(t, ch.Challenge)
	for _, s := range []*server{a, a, b} {
		r := claimWith(t, s, addr, &faucetapi.PowSolution{Challenge: ch.Challenge, Nonce: miss})
		wantError(t, "a wrong nonce", r.StatusCode(), r.Body, 403, faucet.CodePowInvalid)
	}
	for _, s := range []*server{a, b} {
		r := claimWith(t, s, addr, sol)
		wantError(t, "the right nonce after three wrong ones at two replicas", r.StatusCode(), r.Body, 403, faucet.CodePowInvalid)
	}
}

// A replica that stops and does not come back leaves pending claims: one whose transaction was
// in the pool (mined after it stopped), one recorded but never signed (a crash between the two),
// and one signed that the node dropped. While it runs, another replica leaves them alone; once
// it is gone, the other replica settles the first from its receipt (no second transfer), pays
// the second from its own wallet, and broadcasts the third's recorded transaction again (no key
// needed) and settles it once mined: each address paid exactly once.
func TestClaimsOfAStoppedReplicaAreFinished(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	gone := freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(gone), new(big.Int).Mul(big.NewInt(10_000), big.NewInt(params.Ether)))
	inPool, unsigned := freshAddress(t), freshAddress(t)

	c.PauseSealing()
	d := startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": db, "FAUCET_PRIVATE_KEY": keyHex(gone)})
	if r := claim(t, d, inPool.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim at the replica that will stop: %d %s", r.StatusCode(), r.Body)
	}
	store, err := sqldb.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.Exec(`INSERT INTO claims (chain_id, address, amount, status, created_at, updated_at, wallet) VALUES ($1, $2, $3, 'pending', 1, 1, $4)`,
		int64(c.ChainID), strings.ToLower(unsigned.Hex()), amount.String(), strings.ToLower(keyAddress(gone).Hex())); err != nil {
		t.Fatal(err)
	}
	// A third claim signed by the stopped replica but dropped by the node (never in the pool).
	dropped := freshAddress(t)
	pendingNonce, err := c.Client().PendingNonceAt(ctx, keyAddress(gone))
	if err != nil {
		t.Fatal(err)
	}
	tip, feeCap, err := chain.WalletFees(ctx, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	signed, err := types.SignNewTx(gone, types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID)), &types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(c.ChainID), Nonce: pendingNonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: 21_000, To: &dropped, Value: amount})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := signed.MarshalBinary()
	if _, err := store.Exec(`INSERT INTO claims (chain_id, address, amount, status, nonce, hashes, raw, created_at, updated_at, wallet) VALUES ($1, $2, $3, 'pending', $4, $5, $6, 1, 1, $7)`,
		int64(c.ChainID), strings.ToLower(dropped.Hex()), amount.String(), int64(pendingNonce), signed.Hash().Hex(), hexutil.Encode(raw), strings.ToLower(keyAddress(gone).Hex())); err != nil {
		t.Fatal(err)
	}
	walletOf := func(a common.Address) string {
		var w string
		if err := store.QueryRow(`SELECT wallet FROM claims WHERE address = $1`, strings.ToLower(a.Hex())).Scan(&w); err != nil {
			t.Fatal(err)
		}
		return w
	}

	early := startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": db}) // the dev faucet wallet
	if w := walletOf(unsigned); w != strings.ToLower(keyAddress(gone).Hex()) {
		t.Fatalf("a replica took the claim of a running replica (now %s)", w)
	}
	early.stop()
	d.stop()
	c.ResumeSealing()

	s := startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": db})
	waitStatus(t, s, inPool, faucetapi.ClaimStatusConfirmed)
	waitStatus(t, s, unsigned, faucetapi.ClaimStatusConfirmed)
	if got := waitStatus(t, s, dropped, faucetapi.ClaimStatusConfirmed); *got.TxHash != signed.Hash().Hex() {
		t.Fatalf("the dropped claim confirmed by %s, not its recorded transaction %s", *got.TxHash, signed.Hash().Hex())
	}
	fromGone, fromLive := transfersFrom(t, c, keyAddress(gone)), transfersFrom(t, c, c.Accounts.Faucet.Address)
	if fromGone[inPool] != 1 || fromLive[inPool] != 0 || fromLive[unsigned] != 1 || fromGone[unsigned] != 0 || fromGone[dropped] != 1 || fromLive[dropped] != 0 {
		t.Fatalf("transfers: the stopped replica's claim %d+%d, the unsigned one %d+%d, the dropped one %d+%d; want 1+0, 0+1, 1+0",
			fromGone[inPool], fromLive[inPool], fromGone[unsigned], fromLive[unsigned], fromGone[dropped], fromLive[dropped])
	}
}

// The faucet's wallet lock is asked before every send, not only at start. When its database
// session ends (a Postgres restart frees the lock) and another process with the same key takes
// the lock, this faucet signs nothing (503 UNAVAILABLE, no transaction); once the lock is free
// again it takes it back, reads the nonce afresh, and pays claims again.
func TestALostWalletLockStopsSigning(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": db})
	wallet := c.Accounts.Faucet.Address
	first := freshAddress(t)
	if r := claim(t, s, first.Hex()); r.StatusCode() != 202 {
		t.Fatalf("the first claim: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, first, faucetapi.ClaimStatusConfirmed)

	other, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// This test's database only: the other tests' faucets, running meanwhile on the same cluster,
	// keep their sessions.
	if _, err := conn.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`); err != nil {
		t.Fatal(err)
	}
	lockKey := "vaultd:faucet:" + strings.ToLower(wallet.Hex())
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, lockKey); err != nil {
		t.Fatal(err) // a second process with the same key, started meanwhile
	}
	before := nonce(t, c, wallet)
	r := claim(t, s, freshAddress(t).Hex())
	wantError(t, "a claim while another process holds the wallet's lock", r.StatusCode(), r.Body, 503, "UNAVAILABLE")
	if n := nonce(t, c, wallet); n != before {
		t.Fatalf("sent %d transactions without the wallet's lock", n-before)
	}

	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock_all()`); err != nil { // the other process stops
		t.Fatal(err)
	}
	third := freshAddress(t)
	waitFor(t, "a claim accepted once the lock is free", func() bool { return claim(t, s, third.Hex()).StatusCode() == 202 })
	waitStatus(t, s, third, faucetapi.ClaimStatusConfirmed)
}

// A faucet whose Redis restarts empty (its windows and spend budget gone) pays nothing for
// REDIS_WIPE_QUIET (503 UNAVAILABLE, nothing recorded or sent), then claims again. Before, the
// limits simply started again from nothing and claims went on.
func TestARedisRestartedEmptyQuietsTheFaucet(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, restart := redistest.Restartable(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"REDIS_URL": url, "REDIS_WIPE_QUIET": "2s"})
	wallet := c.Accounts.Faucet.Address
	if r := claim(t, s, freshAddress(t).Hex()); r.StatusCode() != 202 {
		t.Fatalf("before the restart: %d %s", r.StatusCode(), r.Body)
	}
	restart()
	before := nonce(t, c, wallet)
	var r *faucetapi.ClaimResponse
	waitFor(t, "Redis back", func() bool {
		r = claim(t, s, freshAddress(t).Hex())
		return !(r.StatusCode() == 503 && strings.Contains(string(r.Body), "cannot be checked"))
	})
	wantError(t, "a claim right after Redis restarted empty", r.StatusCode(), r.Body, 503, "UNAVAILABLE")
	if !strings.Contains(string(r.Body), "restarted empty") {
		t.Fatalf("the 503 does not say why: %s", r.Body)
	}
	if n := nonce(t, c, wallet); n != before {
		t.Fatalf("sent %d transactions during the quiet spell", n-before)
	}
	addr := freshAddress(t)
	waitFor(t, "claims again after the spell", func() bool { return claim(t, s, addr.Hex()).StatusCode() == 202 })
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
}

// A paused replica adopts nothing it would have to sign: in its pass over the claims of a
// replica that is not running, a claim whose transfer was mined is settled (finishing what is
// in flight), while a claim recorded but never signed stays that replica's, for one that is not
// paused, and nothing is signed; once resumed, it adopts the claim and pays it.
func TestAPausedReplicaAdoptsNoUnsignedClaim(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	gone := freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(gone), new(big.Int).Mul(big.NewInt(1_000), big.NewInt(params.Ether)))
	mined, unsigned := freshAddress(t), freshAddress(t)
	tip, feeCap, err := chain.WalletFees(ctx, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	paid, err := types.SignNewTx(gone, types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID)), &types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(c.ChainID), Nonce: 0, GasTipCap: tip, GasFeeCap: feeCap, Gas: 21_000, To: &mined, Value: amount})
	if err != nil {
		t.Fatal(err)
	}
	// The node's pool catches up with a new block on its own time: right after the funding is
	// mined it may still see the old balance, and refuse the transfer as unfunded once or twice.
	waitFor(t, "the pool to take the stopped replica's transfer", func() bool {
		err := c.Client().SendTransaction(ctx, paid)
		if err != nil && !strings.Contains(err.Error(), "insufficient funds") {
			t.Fatal(err)
		}
		return err == nil
	})
	waitFor(t, "the stopped replica's transfer mined", func() bool { return nonce(t, c, keyAddress(gone)) == 1 })

	over := map[string]string{"DATABASE_URL": db, "ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-a"}
	s := startFaucet(t, c, t.TempDir(), over) // the dev faucet wallet
	if p, err := s.client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || !p.JSON200.Paused {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	s.stop()
	store, err := sqldb.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	raw, _ := paid.MarshalBinary()
	wallet := strings.ToLower(keyAddress(gone).Hex())
	if _, err := store.Exec(`INSERT INTO claims (chain_id, address, amount, status, nonce, hashes, raw, created_at, updated_at, wallet) VALUES ($1, $2, $3, 'pending', 0, $4, $5, 1, 1, $6)`,
		int64(c.ChainID), strings.ToLower(mined.Hex()), amount.String(), paid.Hash().Hex(), hexutil.Encode(raw), wallet); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Exec(`INSERT INTO claims (chain_id, address, amount, status, created_at, updated_at, wallet) VALUES ($1, $2, $3, 'pending', 1, 1, $4)`,
		int64(c.ChainID), strings.ToLower(unsigned.Hex()), amount.String(), wallet); err != nil {
		t.Fatal(err)
	}
	before := nonce(t, c, c.Accounts.Faucet.Address)

	logs := captureLogs(t)
	s = startFaucetWith(t, c, t.TempDir(), over, logs.options()) // paused: the pause is kept in the database
	waitFor(t, "the pass over the stopped replica's claims", func() bool {
		return strings.Contains(logs.String(), "finished claims of replicas that are not running")
	})
	if got := status(t, s, mined.Hex()); got.JSON200 == nil || got.JSON200.Status != faucetapi.ClaimStatusConfirmed {
		t.Fatalf("the mined claim: %s", got.Body)
	}
	var owner string
	if err := store.QueryRow(`SELECT wallet FROM claims WHERE address = $1`, strings.ToLower(unsigned.Hex())).Scan(&owner); err != nil || owner != wallet {
		t.Fatalf("the unsigned claim is now %s's (%v), want the stopped replica's still", owner, err)
	}
	if pending, err := c.Client().PendingNonceAt(ctx, c.Accounts.Faucet.Address); err != nil || pending != before {
		t.Fatalf("a paused replica signed %d transactions (%v)", pending-before, err)
	}
	if p, err := s.client.ResumeWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || p.JSON200.Paused {
		t.Fatalf("resume: %v %s", err, p.Body)
	}
	waitStatus(t, s, unsigned, faucetapi.ClaimStatusConfirmed)
	if fromLive := transfersFrom(t, c, c.Accounts.Faucet.Address); fromLive[unsigned] != 1 || fromLive[mined] != 0 {
		t.Fatalf("transfers from the running replica: %d to the unsigned claim, %d to the mined one; want 1, 0", fromLive[unsigned], fromLive[mined])
	}
}

// The fleet's operator, with ADMIN_ADDR: two replicas on one Postgres, each with its own wallet,
// each serving /admin/* on a listener of its own. Through the public listeners the operator's
// routes do not exist (404); at either replica's own, GET /admin/fleet lists both replicas,
// their wallets and the transaction in flight of the one that has one; a cancel naming the
// other replica's wallet is refused 409 WALLET_MISMATCH, nothing done; a paused replica is
// resumed at its own address, and the fleet shows both; the cancel at the right replica goes.
func TestTheFleetsOperatorReachesEachReplicaApart(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	second := freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(second), new(big.Int).Mul(big.NewInt(10_000), big.NewInt(params.Ether)))
	type replica struct {
		public, admin *client
	}
	start := func(over map[string]string) replica {
		cfg, err := faucet.LoadConfig(env(c, t.TempDir(), over))
		if err != nil {
			t.Fatalf("config: %v", err)
		}
		svc, err := faucet.New(ctx, cfg, faucet.Options{})
		if err != nil {
			t.Fatalf("faucet.New: %v", err)
		}
		url, adminURL, _ := edgetest.ServeSplit(t, svc.Handler(), svc.Start, svc.Close)
		public, err := newClient(url)
		if err != nil {
			t.Fatal(err)
		}
		admin, err := newClient(adminURL)
		if err != nil {
			t.Fatal(err)
		}
		return replica{public, admin}
	}
	a := start(map[string]string{"DATABASE_URL": db, "ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-a", "REPLACE_AFTER": "50s"})
	b := start(map[string]string{"DATABASE_URL": db, "ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-b", "FAUCET_PRIVATE_KEY": keyHex(second)})
	walletA, walletB := c.Accounts.Faucet.Address.Hex(), keyAddress(second).Hex()

	if r, err := a.public.PauseWithResponse(ctx, bearer(adminKey)); err != nil || r.StatusCode() != 404 || !strings.Contains(string(r.Body), `"NOT_FOUND"`) {
		t.Fatalf("POST /admin/pause on the public listener: %v %d %s", err, r.StatusCode(), r.Body)
	}
	if r, err := a.public.GetFleetWithResponse(ctx, bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("GET /admin/fleet on the public listener: %v %d %s", err, r.StatusCode(), r.Body)
	}
	if r, err := a.admin.GetHealthWithResponse(ctx); err != nil || r.StatusCode() != 404 {
		t.Fatalf("GET /health on the operator's listener: %v %d %s", err, r.StatusCode(), r.Body)
	}

	n := nonce(t, c, c.Accounts.Faucet.Address)
	c.PauseSealing()
	addr := freshAddress(t)
	if r, err := a.public.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: addr.Hex()}); err != nil || r.StatusCode() != 202 {
		t.Fatalf("claim at faucet-a: %v %s", err, r.Body)
	}
	fleet := func() map[string]walletapi.FleetReplica {
		t.Helper()
		r, err := b.admin.GetFleetWithResponse(ctx, bearer(adminKey))
		if err != nil || r.JSON200 == nil {
			t.Fatalf("the fleet at faucet-b: %v %s", err, r.Body)
		}
		out := map[string]walletapi.FleetReplica{}
		for _, f := range r.JSON200.Replicas {
			out[f.Replica] = f
		}
		return out
	}
	f := fleet()
	if len(f) != 2 || f["faucet-a"].Wallet != walletA || f["faucet-b"].Wallet != walletB || len(f["faucet-b"].Transactions) != 0 ||
		len(f["faucet-a"].Transactions) != 1 || uint64(f["faucet-a"].Transactions[0].Nonce) != n || f["faucet-a"].Transactions[0].Purpose != "claim "+strings.ToLower(addr.Hex()) {
		t.Fatalf("the fleet: %+v", f)
	}

	r, err := b.admin.CancelTransactionWithResponse(ctx, int64(n), &walletapi.CancelTransactionParams{Wallet: walletA}, bearer(adminKey))
	if err != nil || r.StatusCode() != 409 || !strings.Contains(string(r.Body), `"WALLET_MISMATCH"`) || !strings.Contains(string(r.Body), walletB) {
		t.Fatalf("a cancel at faucet-b naming faucet-a's wallet: %v %d %s", err, r.StatusCode(), r.Body)
	}

	if p, err := b.admin.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || !p.JSON200.Paused {
		t.Fatalf("pause faucet-b at its own address: %v %s", err, p.Body)
	}
	if f := fleet(); !f["faucet-b"].Paused || f["faucet-b"].PausedSince == nil || f["faucet-a"].Paused {
		t.Fatalf("the fleet with faucet-b paused: %+v", f)
	}
	if ready, err := b.public.GetReadyWithResponse(ctx); err != nil || ready.JSON503 == nil || ready.JSON503.Code != "PAUSED" {
		t.Fatalf("faucet-b's /ready while paused: %v %s", err, ready.Body)
	}
	if p, err := b.admin.ResumeWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || p.JSON200.Paused {
		t.Fatalf("resume faucet-b at its own address: %v %s", err, p.Body)
	}
	if ready, err := b.public.GetReadyWithResponse(ctx); err != nil || ready.StatusCode() != 200 {
		t.Fatalf("faucet-b's /ready once resumed: %v %s", err, ready.Body)
	}

	if r, err := a.admin.CancelTransactionWithResponse(ctx, int64(n), &walletapi.CancelTransactionParams{Wallet: strings.ToLower(walletA)}, bearer(adminKey)); err != nil || r.JSON202 == nil {
		t.Fatalf("the cancel at faucet-a: %v %d %s", err, r.StatusCode(), r.Body)
	}
	c.ResumeSealing()
	if b := nonce(t, c, keyAddress(second)); b != 0 {
		t.Fatalf("faucet-b's wallet sent %d transactions", b)
	}
}
