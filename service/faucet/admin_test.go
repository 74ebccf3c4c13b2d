package faucet_test

import (
	"context"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/webhook/webhooktest"
)

const adminKey = "an admin key for the tests"

func bearer(key string) func(context.Context, *http.Request) error {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
}

// replaceOnceInFlight asks for a replacement of the faucet's transaction at nonce n as soon as
// it is in flight, and returns the version being replaced.
func replaceOnceInFlight(t *testing.T, s *server, c *devchain.Chain, n uint64) string {
	t.Helper()
	var replacing string
	waitFor(t, "the claim's transfer in flight", func() bool {
		r, err := s.client.ReplaceTransactionWithResponse(ctx, int64(n), ours(c), bearer(adminKey))
		if err == nil && r.JSON202 != nil {
			replacing = r.JSON202.Replacing
			return true
		}
		return false
	})
	return replacing
}

// ours names the dev faucet wallet in a replace.
func ours(c *devchain.Chain) *walletapi.ReplaceTransactionParams {
	return &walletapi.ReplaceTransactionParams{Wallet: c.Accounts.Faucet.Address.Hex()}
}

// The faucet's operator pauses a replica: claims are refused 503 PAUSED, nothing recorded or
// sent, /ready 503; the pause outlives a restart on the same database; resumed, claims are paid.
// The wallet report shows the faucet wallet and its nonces. Without the key: 401.
func TestAnOperatorPausesTheFaucet(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	over := map[string]string{"ADMIN_API_KEY": adminKey, "REPLICA_NAME": "faucet-a"}
	s := startFaucet(t, c, dir, over)
	if r, err := s.client.PauseWithResponse(ctx); err != nil || r.StatusCode() != 401 {
		t.Fatalf("pause without the key: %v %d %s", err, r.StatusCode(), r.Body)
	}
	if p, err := s.client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || !p.JSON200.Paused || p.JSON200.Replica != "faucet-a" {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	addr := freshAddress(t)
	before := nonce(t, c, c.Accounts.Faucet.Address)
	r := claim(t, s, addr.Hex())
	wantError(t, "a claim at a paused faucet", r.StatusCode(), r.Body, 503, "PAUSED")
	if st := status(t, s, addr.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("a refused claim was recorded: %s", st.Body)
	}
	if ready, err := s.client.GetReadyWithResponse(ctx); err != nil || ready.JSON503 == nil || ready.JSON503.Code != "PAUSED" {
		t.Fatalf("/ready while paused: %v %s", err, ready.Body)
	}
	s.stop()
	s = startFaucet(t, c, dir, over)
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 503 {
		t.Fatalf("a claim after a restart: %d %s (the pause is lost)", r.StatusCode(), r.Body)
	}
	if n := nonce(t, c, c.Accounts.Faucet.Address); n != before {
		t.Fatalf("a paused faucet sent %d transactions", n-before)
	}
	if p, err := s.client.ResumeWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || p.JSON200.Paused {
		t.Fatalf("resume: %v %s", err, p.Body)
	}
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("a claim once resumed: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	w, err := s.client.GetWalletWithResponse(ctx, bearer(adminKey))
	if err != nil || w.JSON200 == nil || w.JSON200.Address != c.Accounts.Faucet.Address.Hex() || w.JSON200.Balance == nil ||
		w.JSON200.Nonce.Pending == nil || uint64(*w.JSON200.Nonce.Pending) != before+1 || strings.Contains(string(w.Body), "rivate") {
		t.Fatalf("wallet: %v %s", err, w.Body)
	}
}

// The faucet's operator replaces a claim's stuck transfer at once; the claim is confirmed with
// the replacement. A nonce with nothing in flight is 404.
func TestAnOperatorReplacesAStuckClaim(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"})
	addr := freshAddress(t)
	n := nonce(t, c, c.Accounts.Faucet.Address)
	c.PauseSealing()
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	first := replaceOnceInFlight(t, s, c, n)
	if r, err := s.client.ReplaceTransactionWithResponse(ctx, int64(n+1), ours(c), bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("replace at a nonce with nothing in flight: %v %d %s", err, r.StatusCode(), r.Body)
	}
	waitFor(t, "the replacement", func() bool { return strings.Contains(scrape(t, s), "vaultd_faucet_transaction_replacements_total 1") })
	c.ResumeSealing()
	confirmed := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if confirmed.TxHash == nil || *confirmed.TxHash == first {
		t.Fatalf("the claim confirmed with %v; want the replacement, not %s", confirmed.TxHash, first)
	}
	// The listing shows it: mined, both versions, what it paid for.
	list, err := s.client.GetTransactionsWithResponse(ctx, &walletapi.GetTransactionsParams{}, bearer(adminKey))
	if err != nil || list.JSON200 == nil || len(list.JSON200.Transactions) != 1 {
		t.Fatalf("transactions: %v %s", err, list.Body)
	}
	l := list.JSON200.Transactions[0]
	if uint64(l.Nonce) != n || l.State != "mined" || len(l.Versions) != 2 || l.Versions[0].Hash != first || l.Purpose != "claim "+strings.ToLower(addr.Hex()) || l.BlockNumber == nil {
		t.Fatalf("the claim's transaction: %+v", l)
	}
}

// A replacement the node refuses does not stand: the claim's transaction is the version that
// was sent, listed as the newest (the refused one kept before it: a receipt of any version
// ever signed is the claim's payment), and it is the one confirmed.
func TestARefusedReplacementDoesNotStand(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	node := devchaintest.Faults(t, c.RPCURL)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RPC_URL": node.URL, "ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"})
	addr := freshAddress(t)
	n := nonce(t, c, c.Accounts.Faucet.Address)
	c.PauseSealing()
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	sends := node.Calls("eth_sendRawTransaction")
	node.SetReply("eth_sendRawTransaction", `"error":{"code":-32000,"message":"replacement transaction underpriced"}`, 1)
	first := replaceOnceInFlight(t, s, c, n)
	waitFor(t, "the replacement refused", func() bool { return node.Calls("eth_sendRawTransaction") > sends })
	c.ResumeSealing()
	confirmed := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if confirmed.TxHash == nil || *confirmed.TxHash != first {
		t.Fatalf("the claim confirmed with %v; want the version sent, %s", confirmed.TxHash, first)
	}
	list, err := s.client.GetTransactionsWithResponse(ctx, &walletapi.GetTransactionsParams{}, bearer(adminKey))
	if err != nil || list.JSON200 == nil || len(list.JSON200.Transactions) != 1 {
		t.Fatalf("transactions: %v %s", err, list.Body)
	}
	if l := list.JSON200.Transactions[0]; len(l.Versions) != 2 || l.Versions[1].Hash != first || l.Versions[0].Hash == first {
		t.Fatalf("the claim's transaction lists versions %+v, want the refused one, then the one sent (%s)", l.Versions, first)
	}
}

// The faucet's operator cancels a claim's stuck transfer: once the cancel is mined and
// DISPLACED_AFTER_BLOCKS (3) deep the claim is failed ("cancelled"), nothing paid, and the
// address may claim again, which is paid.
func TestAnOperatorCancelsAStuckClaim(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"})
	addr := freshAddress(t)
	n := nonce(t, c, c.Accounts.Faucet.Address)
	c.PauseSealing()
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	waitFor(t, "the claim's transfer cancelled", func() bool {
		r, err := s.client.CancelTransactionWithResponse(ctx, int64(n), &walletapi.CancelTransactionParams{Wallet: c.Accounts.Faucet.Address.Hex()}, bearer(adminKey))
		return err == nil && r.JSON202 != nil
	})
	waitFor(t, "the cancel sent", func() bool { return strings.Contains(scrape(t, s), "vaultd_faucet_transaction_replacements_total 1") })
	c.ResumeSealing()
	waitFor(t, "the cancel mined", func() bool { return nonce(t, c, c.Accounts.Faucet.Address) == n+1 })
	for range 2 { // two more blocks
		fund(t, c, c.Accounts.Deployer.Key, freshAddress(t), big.NewInt(1))
	}
	failed := waitStatus(t, s, addr, faucetapi.ClaimStatusFailed)
	if failed.Reason == nil || !strings.Contains(*failed.Reason, "cancelled") {
		t.Fatalf("the cancelled claim: %+v", failed)
	}
	if b := balance(t, c, addr); b.Sign() != 0 {
		t.Fatalf("a cancelled claim paid %s", b)
	}
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("the claim made again: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("the claim made again paid %s, want %s", b, amount)
	}
}

// A cancel mined one block deep is not the claim's end: a real reorg of the dev chain drops it
// for a branch whose proposer still held the claim's transfer, which is mined there. The claim
// is confirmed with that transfer, and a second claim for the address is refused: the address
// is paid once (taking the first cancel for final failed the claim, the address claimed again
// and was paid twice).
func TestACancelUndoneByAReorgPaysOnce(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	s := startFaucetWith(t, c, t.TempDir(), map[string]string{"ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"},
		faucet.Options{Traces: tp})
	addr := freshAddress(t)
	n := nonce(t, c, c.Accounts.Faucet.Address)
	c.PauseSealing()
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	transfer, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(*r.JSON202.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	if cr, err := s.client.CancelTransactionWithResponse(ctx, int64(n), &walletapi.CancelTransactionParams{Wallet: c.Accounts.Faucet.Address.Hex()}, bearer(adminKey)); err != nil || cr.JSON202 == nil {
		t.Fatalf("cancel: %v %s", err, cr.Body)
	}
	waitFor(t, "the cancel sent", func() bool { return strings.Contains(scrape(t, s), "vaultd_faucet_transaction_replacements_total 1") })
	parent, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.ResumeSealing()
	// The faucet's watch loop read the block holding the cancel (its txmgr.receipts span ends
	// after what it settles is settled).
	waitFor(t, "the cancel's receipt read", func() bool {
		for _, sp := range spans.Ended() {
			for _, e := range sp.Events() {
				for _, a := range e.Attributes {
					if sp.Name() == "txmgr.receipts" && e.Name == "mined" && a.Key == "vaultd.tx_hash" && a.Value.AsString() != transfer.Hash().Hex() {
						return true
					}
				}
			}
		}
		return false
	})
	if err := c.Reorg(parent.Hash(), transfer); err != nil {
		t.Fatal(err)
	}
	confirmed := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if *confirmed.TxHash != transfer.Hash().Hex() {
		t.Fatalf("the claim confirmed with %s, want its transfer %s", *confirmed.TxHash, transfer.Hash().Hex())
	}
	again := claim(t, s, addr.Hex())
	wantError(t, "the address claiming again", again.StatusCode(), again.Body, 409, "ALREADY_CLAIMED")
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("the address holds %s, want %s", b, amount)
	}
}

// A replace or a cancel of a transfer whose newest version is at MAX_FEE_PER_GAS (1 wei here)
// is refused 409 NOT_REPLACEABLE, nothing sent: a node takes a replacement only with higher fees.
func TestAReplacementAtTheFeeCapIsRefused(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"ADMIN_API_KEY": adminKey, "MAX_FEE_PER_GAS": "0.000000001", "REPLACE_AFTER": "50s"})
	n := nonce(t, c, c.Accounts.Faucet.Address)
	c.PauseSealing()
	if r := claim(t, s, freshAddress(t).Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	cancel, err := s.client.CancelTransactionWithResponse(ctx, int64(n), &walletapi.CancelTransactionParams{Wallet: c.Accounts.Faucet.Address.Hex()}, bearer(adminKey))
	if err != nil || cancel.JSON409 == nil || cancel.JSON409.Code != "NOT_REPLACEABLE" {
		t.Fatalf("cancel at the fee cap: %v %d %s", err, cancel.StatusCode(), cancel.Body)
	}
	replace, err := s.client.ReplaceTransactionWithResponse(ctx, int64(n), ours(c), bearer(adminKey))
	if err != nil || replace.JSON409 == nil || replace.JSON409.Code != "NOT_REPLACEABLE" {
		t.Fatalf("replace at the fee cap: %v %d %s", err, replace.StatusCode(), replace.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_faucet_transaction_replacements_total 0") {
		t.Fatal("a replacement was sent")
	}
}

// A claim whose transfer the node refused is withdrawn unsent: the webhooks hear nothing of it
// (a claim.pending no later event would end), and of the address's next claim, paid, both
// events.
func TestAWithdrawnClaimTellsNoWebhook(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	const secret = "a webhook secret for the tests"
	hooks := webhooktest.Start(t, secret)
	node := devchaintest.Faults(t, c.RPCURL)
	node.SetReply("eth_sendRawTransaction", `"error":{"code":-32000,"message":"invalid sender"}`, 1)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RPC_URL": node.URL, "WEBHOOK_URLS": hooks.URL, "WEBHOOK_SECRET": secret})
	addr := freshAddress(t)
	if r := claim(t, s, addr.Hex()); r.StatusCode() != http.StatusBadGateway {
		t.Fatalf("a claim whose send the node refuses: %d %s", r.StatusCode(), r.Body)
	}
	time.Sleep(webhooktest.Quiet)
	if events := hooks.Events(); len(events) != 0 {
		t.Fatalf("webhook events of a withdrawn claim: %+v", events)
	}
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("the claim again: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	waitFor(t, "the webhooks", func() bool { return len(hooks.Events()) >= 2 })
	if events := hooks.Events(); len(events) != 2 || events[0].Type != "claim.pending" || events[1].Type != "claim.confirmed" {
		t.Fatalf("webhook events: %+v", events)
	}
}

// The faucet's webhooks: a claim accepted and confirmed, each delivered once, signed.
func TestTheFaucetTellsItsWebhooks(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	const secret = "a webhook secret for the tests"
	hooks := webhooktest.Start(t, secret)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"WEBHOOK_URLS": hooks.URL, "WEBHOOK_SECRET": secret})
	addr := freshAddress(t)
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	waitFor(t, "the webhooks", func() bool { return len(hooks.Events()) >= 2 })
	time.Sleep(webhooktest.Quiet) // nothing more arrives
	events := hooks.Events()
	if len(events) != 2 || events[0].Type != "claim.pending" || events[1].Type != "claim.confirmed" ||
		!strings.Contains(string(events[1].Data), addr.Hex()) || events[1].Service != "faucet" {
		t.Fatalf("webhook events: %+v", events)
	}
}
