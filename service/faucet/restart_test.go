package faucet_test

import (
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// A claim whose transaction waits in the pool when the faucet stops is followed by the next
// start (the same transaction, not a second one) and confirmed.
func TestPendingClaimSurvivesARestart(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	c.PauseSealing()
	s := startFaucet(t, c, dir, nil)
	addr := freshAddress(t)
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	s.stop()
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "faucet", nil)
	s = startFaucetWith(t, c, dir, nil, faucet.Options{Traces: tp})
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusPending || *st.JSON200.TxHash != *r.JSON202.TxHash {
		t.Fatalf("after the restart: %s", st.Body)
	}
	c.ResumeSealing()
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	// The restart's work is traced: the reconciliation of the pending claim, and the settlement
	// linked to the span the transaction was taken up again in (its adoption or reconciliation).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		spans := rx.Spans(t, tp)
		byID := map[string]otlptest.Span{}
		for _, sp := range spans {
			byID[sp.SpanID] = sp
		}
		var reconciled, settled bool
		for _, sp := range spans {
			reconciled = reconciled || (sp.Name == "faucet.reconcile" && sp.ParentID == "" && sp.Attrs["vaultd.claims"] == "1")
			if sp.Name == "faucet.settle" && len(sp.Links) == 1 {
				origin := byID[sp.Links[0].SpanID].Name
				settled = origin == "txmgr.adopt" || origin == "faucet.reconcile"
			}
		}
		if reconciled && settled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reconciled %v, settled with a link to the restart's work %v:\n%s", reconciled, settled, otlptest.Trace(spans))
		}
	}
	if *got.TxHash != *r.JSON202.TxHash {
		t.Fatalf("confirmed by %s, not the claim's transaction %s", *got.TxHash, *r.JSON202.TxHash)
	}
	if n := nonce(t, c, wallet); n != before+1 {
		t.Fatalf("%d transactions for one claim", n-before)
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s, want %s", b, amount)
	}
}

// A claim whose transaction was displaced while the faucet was down (another transaction from
// the faucet key took its nonce) is never mined; the next start finds the other transaction at
// its nonce and, once it is DISPLACED_AFTER_BLOCKS deep, sends the claim afresh, so the address
// is paid exactly once.
func TestDisplacedClaimIsSentAfresh(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	c.PauseSealing()
	s := startFaucet(t, c, dir, nil)
	addr := freshAddress(t)
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	s.stop()
	first, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(*r.JSON202.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	self := c.Accounts.Faucet.Address
	outside, err := types.SignNewTx(c.Accounts.Faucet.Key, types.LatestSignerForChainID(first.ChainId()), &types.DynamicFeeTx{
		ChainID: first.ChainId(), Nonce: first.Nonce(), GasTipCap: new(big.Int).Mul(first.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(first.GasFeeCap(), big.NewInt(3)), Gas: 21_000, To: &self, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Client().SendTransaction(ctx, outside); err != nil {
		t.Fatalf("the outside transaction: %v", err)
	}
	c.ResumeSealing()
	waitFor(t, "the outside transaction mined", func() bool { return nonce(t, c, self) == first.Nonce()+1 })

	logs := captureLogs(t)
	s = startFaucetWith(t, c, dir, map[string]string{"DISPLACED_AFTER_BLOCKS": "3"}, logs.options())
	// One block deep, the displacement is not proven: the claim waits.
	time.Sleep(2500 * time.Millisecond)
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusPending || nonce(t, c, self) != first.Nonce()+1 {
		t.Fatalf("paid again before the displacing transaction was 3 blocks deep: %s", st.Body)
	}
	for range 2 { // two more blocks
		fund(t, c, c.Accounts.Deployer.Key, freshAddress(t), big.NewInt(1))
	}
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if *got.TxHash == first.Hash().Hex() {
		t.Fatal("confirmed by the displaced transaction")
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s, want %s", b, amount)
	}
	if !strings.Contains(logs.String(), "displaced") {
		t.Fatalf("the displacement is not logged:\n%s", logs.String())
	}
}

// A claim whose transaction was displaced while the faucet was down, and whose address has since
// become a contract that refuses native tokens, is not sent afresh: the next start's
// reconciliation fails it with its reason, once, and frees the address (a new claim for it is
// refused as CLAIM_REJECTED, not kept busy); the passes after it leave it alone.
func TestDisplacedClaimToAnAddressThatNowRefusesFails(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	factory := c.Contracts.TokenFactory
	addr := crypto.CreateAddress(factory, nonce(t, c, factory)) // the factory's next token: an account with no code yet
	c.PauseSealing()
	s := startFaucet(t, c, dir, nil)
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	s.stop()
	first, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(*r.JSON202.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	self := c.Accounts.Faucet.Address
	outside, err := types.SignNewTx(c.Accounts.Faucet.Key, types.LatestSignerForChainID(first.ChainId()), &types.DynamicFeeTx{
		ChainID: first.ChainId(), Nonce: first.Nonce(), GasTipCap: new(big.Int).Mul(first.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(first.GasFeeCap(), big.NewInt(3)), Gas: 21_000, To: &self, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Client().SendTransaction(ctx, outside); err != nil {
		t.Fatalf("the outside transaction: %v", err)
	}
	c.ResumeSealing()
	waitFor(t, "the outside transaction mined", func() bool { return nonce(t, c, self) == first.Nonce()+1 })
	token, err := c.CreateToken(ctx, "Refuses", "NOPE", 18) // a WrappedToken: no receive, a plain transfer reverts
	if err != nil {
		t.Fatal(err)
	}
	if token.Address != addr {
		t.Fatalf("the token is at %s, not at the claimed address %s", token.Address.Hex(), addr.Hex())
	}

	logs := captureLogs(t)
	s = startFaucetWith(t, c, dir, map[string]string{"DISPLACED_AFTER_BLOCKS": "1"}, logs.options())
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusFailed)
	if got.Reason == nil || *got.Reason != "a transfer to this address would revert" {
		t.Fatalf("failed with reason %v, want the refusal's", got.Reason)
	}
	if n := nonce(t, c, self); n != first.Nonce()+1 {
		t.Fatalf("the rejected claim sent %d transactions", n-first.Nonce()-1)
	}
	if pending, err := c.Client().PendingNonceAt(ctx, self); err != nil || pending != first.Nonce()+1 {
		t.Fatalf("the rejected claim left a transaction in the pool (pending nonce %d, %v)", pending, err)
	}
	if b := balance(t, c, addr); b.Sign() != 0 {
		t.Fatalf("the refusing contract holds %s", b)
	}
	const settledFailed = `vaultd_faucet_claims_settled_total{status="failed"} 1`
	if m := scrape(t, s); !strings.Contains(m, settledFailed) {
		t.Fatalf("metrics lack %s:\n%s", settledFailed, m)
	}

	// The next pass finds nothing to do: the failed claim is not looked at again.
	if left := faucet.Reconcile(s.svc); left != 0 {
		t.Fatalf("a pass after the claim failed: %d undecided", left)
	}
	if n := strings.Count(logs.String(), "reconciled unfinished claims"); n != 1 || !strings.Contains(logs.String(), `"rejected":1`) {
		t.Fatalf("%d reconciliations logged, want the one that rejected the claim:\n%s", n, logs.String())
	}
	if m := scrape(t, s); !strings.Contains(m, settledFailed) {
		t.Fatalf("the failed claim was settled again:\n%s", m)
	}

	// The address is free: a new claim is looked at (and refused, the contract still refusing).
	r = claim(t, s, addr.Hex())
	wantError(t, "a new claim for the address", r.StatusCode(), r.Body, 422, "CLAIM_REJECTED")
	if st := status(t, s, addr.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusFailed {
		t.Fatalf("after the refused new claim: %s", st.Body)
	}
}

// Configuration problems are all listed at once; a key is never echoed.
func TestConfigProblemsAreListed(t *testing.T) {
	t.Parallel()
	secret := "0x" + strings.Repeat("zz", 32)
	_, err := faucet.LoadConfig(func(k string) string {
		return map[string]string{"FAUCET_PRIVATE_KEY": secret, "FAUCET_AMOUNT": "0", "MIN_FAUCET_BALANCE": "lots",
			"DATABASE_URL": "mysql://db/faucet", "RATE_LIMIT_PER_IP": "5 per hour", "PORT": "http"}[k]
	})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"RPC_URL", "FAUCET_PRIVATE_KEY is not a valid private key", "FAUCET_AMOUNT", "MIN_FAUCET_BALANCE",
		"DATABASE_URL", "RATE_LIMIT_PER_IP", "PORT"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "zzzz") {
		t.Fatalf("the key is echoed: %v", err)
	}
	_, err = faucet.LoadConfig(func(k string) string {
		return map[string]string{"FAUCET_AMOUNT": "10", "FAUCET_MIN_AMOUNT": "20"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "FAUCET_MIN_AMOUNT must be more than 0 and at most FAUCET_AMOUNT") {
		t.Errorf("a floor above the amount: %v", err)
	}
}

// A CHAIN_ID that is not the chain's stops the start.
func TestWrongChainIDRefusesToStart(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	cfg, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"CHAIN_ID": "5446"}))
	if err != nil {
		t.Fatal(err)
	}
	if svc, err := faucet.New(ctx, cfg, faucet.Options{}); err == nil || !strings.Contains(err.Error(), "CHAIN_ID") {
		if svc != nil {
			svc.Close()
		}
		t.Fatalf("started on the wrong chain: %v", err)
	}
}

// An idle faucet makes at most one chain call per balance poll.
func TestIdleFaucetBarelyCallsTheChain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	counter := devchaintest.CountCalls(t, c.RPCURL)
	// A spend limit far above the claim, for its window's gauge alone (below).
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RPC_URL": counter.URL, "BALANCE_POLL_INTERVAL": "1s", "FAUCET_SPEND_LIMIT": "1000000/1h"})
	addr := freshAddress(t)
	claim(t, s, addr.Hex())
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	// The round that settled the claim still reads the pending nonce and the balance after the
	// flight left the in-flight set; its last step gives the gate back the claim's reservation,
	// leaving the spend window at what the claim paid.
	hash := common.HexToHash(*got.TxHash)
	tx, _, err := c.Client().TransactionByHash(ctx, hash)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := c.Client().TransactionReceipt(ctx, hash)
	if err != nil {
		t.Fatal(err)
	}
	wei := new(big.Int).Add(tx.Value(), new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice))
	paid, _ := new(big.Float).Quo(new(big.Float).SetInt(wei), big.NewFloat(1e18)).Float64()
	waitFor(t, "the round that settled the claim to end", func() bool {
		f, ok := edgetest.SeriesValue(scrape(t, s), "vaultd_faucet_spend_window_ether")
		return ok && f > paid*(1-1e-12) && f < paid*(1+1e-12)
	})
	counter.Take()
	time.Sleep(3 * time.Second)
	byMethod, total := counter.Take()
	if total > 4 || byMethod["eth_blockNumber"] > 0 {
		t.Fatalf("an idle faucet made %d chain calls in 3s with BALANCE_POLL_INTERVAL=1s (want ≤ 4): %v", total, byMethod)
	}
}

// The shared edge: the key from FAUCET_PRIVATE_KEY_FILE, the served spec, CORS for an allowed
// origin, the client IP from TRUSTED_PROXIES' X-Forwarded-For (and only from them).
func TestPlatform(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(keyHex(c.Accounts.Faucet.Key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startFaucet(t, c, t.TempDir(), map[string]string{"FAUCET_PRIVATE_KEY": "", "FAUCET_PRIVATE_KEY_FILE": keyFile,
		"CORS_ALLOWED_ORIGINS": "https://app.example.com", "TRUSTED_PROXIES": "127.0.0.1", "RATE_LIMIT_PER_IP": "1/1h"})
	if h, _ := s.client.GetHealthWithResponse(ctx); h.JSON200.Faucet != c.Accounts.Faucet.Address.Hex() {
		t.Fatalf("health with the key from a file: %s", h.Body)
	}
	for _, path := range []string{"/openapi.yaml", "/openapi.json"} {
		resp, err := http.Get(s.url + path)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v %v", path, resp, err)
		}
		resp.Body.Close()
	}
	post := func(forwardedFor string) *http.Response {
		req, _ := http.NewRequest("POST", s.url+"/api/faucet/claim", strings.NewReader(`{"address":"`+freshAddress(t).Hex()+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("X-Forwarded-For", forwardedFor)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	first := post("203.0.113.7")
	if first.StatusCode != 202 || first.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
		t.Fatalf("claim from an allowed origin: %d %v", first.StatusCode, first.Header)
	}
	if r := post("203.0.113.8"); r.StatusCode != 202 {
		t.Fatalf("another client behind the trusted proxy was limited: %d", r.StatusCode)
	}
	if r := post("203.0.113.7"); r.StatusCode != 429 || r.Header.Get("Access-Control-Allow-Origin") == "" {
		t.Fatalf("the same client again: %d %v, want a readable 429", r.StatusCode, r.Header)
	}
}

// A failed claim (its transfer reverted or could not be sent: nothing moved) is reopened by the
// next claim for the address, which is then paid once; the status shows the new claim.
func TestFailedClaimCanBeClaimedAgain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	s := startFaucet(t, c, dir, nil) // creates the store
	s.stop()
	addr := freshAddress(t)
	db, err := sqldb.Open("sqlite:" + filepath.Join(dir, "faucet.db"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO claims (chain_id, address, amount, status, reason, created_at, updated_at) VALUES ($1, $2, $3, 'failed', $4, 1, 1)`,
		c.ChainID, strings.ToLower(addr.Hex()), amount.String(), "the transfer reverted on chain")
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s = startFaucet(t, c, dir, nil)
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusFailed || st.JSON200.Reason == nil {
		t.Fatalf("the seeded claim: %s", st.Body)
	}
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim after a failed one: %d %s", r.StatusCode(), r.Body)
	}
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if got.Reason != nil {
		t.Fatalf("the reopened claim kept the old reason: %q", *got.Reason)
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s, want %s", b, amount)
	}
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 409 {
		t.Fatalf("a third claim: %d, want 409", r.StatusCode())
	}
}

// A paused faucet signs nothing new, its reconciliation included: a claim whose transfer was
// displaced while the faucet was down is found displaced by the reconciliation at the next
// start, which is paused (the pause outlives the restart), and is left pending, nothing signed;
// once resumed, the claim is sent afresh and paid once.
func TestAPausedFaucetsReconciliationSignsNothing(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	over := map[string]string{"ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-a", "DISPLACED_AFTER_BLOCKS": "1"}
	c.PauseSealing()
	s := startFaucet(t, c, dir, over)
	addr := freshAddress(t)
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	if p, err := s.client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || !p.JSON200.Paused {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	s.stop()
	first, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(*r.JSON202.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	self := c.Accounts.Faucet.Address
	outside, err := types.SignNewTx(c.Accounts.Faucet.Key, types.LatestSignerForChainID(first.ChainId()), &types.DynamicFeeTx{
		ChainID: first.ChainId(), Nonce: first.Nonce(), GasTipCap: new(big.Int).Mul(first.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(first.GasFeeCap(), big.NewInt(3)), Gas: 21_000, To: &self, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Client().SendTransaction(ctx, outside); err != nil {
		t.Fatalf("the outside transaction: %v", err)
	}
	c.ResumeSealing()
	waitFor(t, "the outside transaction mined", func() bool { return nonce(t, c, self) == first.Nonce()+1 })

	logs := captureLogs(t)
	s = startFaucetWith(t, c, dir, over, logs.options())
	waitFor(t, "the start's reconciliation", func() bool { return strings.Contains(logs.String(), "reconciled unfinished claims") })
	if n := nonce(t, c, self); n != first.Nonce()+1 {
		t.Fatalf("a paused faucet's reconciliation signed %d transactions", n-first.Nonce()-1)
	}
	if pending, err := c.Client().PendingNonceAt(ctx, self); err != nil || pending != first.Nonce()+1 {
		t.Fatalf("a paused faucet's reconciliation sent a transaction (pending nonce %d, %v)", pending, err)
	}
	if st := status(t, s, addr.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusPending {
		t.Fatalf("the held claim: %s", st.Body)
	}
	if p, err := s.client.ResumeWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || p.JSON200.Paused {
		t.Fatalf("resume: %v %s", err, p.Body)
	}
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if *got.TxHash == first.Hash().Hex() {
		t.Fatal("confirmed by the displaced transaction")
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s, want %s", b, amount)
	}
}
