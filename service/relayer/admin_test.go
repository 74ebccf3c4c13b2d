package relayer_test

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"math/big"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/redis/go-redis/v9"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook/webhooktest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

const adminKey = "an admin key for the tests"

// bearer sends key as the admin key.
func bearer(key string) func(context.Context, *http.Request) error {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
}

// An operator pauses a replica: its reveals are refused 503 PAUSED with Retry-After and nothing
// is sent, /ready answers 503 PAUSED, the gauge is 1; the pause outlives a restart on the same
// database; resumed, the replica reveals again. Without the key the routes answer 401, and a
// relayer with no ADMIN_API_KEY has none (404).
func TestAnOperatorPausesAndResumesAReplica(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	over := map[string]string{"ADMIN_API_KEY": adminKey, "REPLICA_NAME": "relayer-a", "DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "relayer.db")}
	s := relayertest.Start(t, c, over)
	for _, key := range []string{"", "not the admin key at all"} {
		r, err := s.Client.PauseWithResponse(ctx, bearer(key))
		if err != nil || r.StatusCode() != 401 || !strings.Contains(string(r.Body), "UNAUTHORIZED") {
			t.Fatalf("pause with key %q: %v %d %s", key, err, r.StatusCode(), r.Body)
		}
	}
	p, err := s.Client.PauseWithResponse(ctx, bearer(adminKey))
	if err != nil || p.JSON200 == nil || !p.JSON200.Paused || p.JSON200.Replica != "relayer-a" || p.JSON200.Since == nil {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 31)
	before := relayertest.PendingOperatorNonce(t, c)
	r := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "a reveal at a paused replica", r, 503, "PAUSED")
	if r.HTTPResponse.Header.Get("Retry-After") != "30" {
		t.Fatalf("Retry-After %q, want 30", r.HTTPResponse.Header.Get("Retry-After"))
	}
	if n := relayertest.PendingOperatorNonce(t, c); n != before {
		t.Fatalf("a paused replica sent %d transactions", n-before)
	}
	if ready, err := s.Client.GetReadyWithResponse(ctx); err != nil || ready.JSON503 == nil || ready.JSON503.Code != "PAUSED" {
		t.Fatalf("/ready while paused: %v %s", err, ready.Body)
	}
	if !strings.Contains(scrape(t, s), "vaultd_relayer_paused 1") {
		t.Fatal("the gauge does not show the pause")
	}

	s.Stop()
	s = relayertest.Start(t, c, over)
	if ready, err := s.Client.GetReadyWithResponse(ctx); err != nil || ready.JSON503 == nil || ready.JSON503.Code != "PAUSED" {
		t.Fatalf("/ready after a restart: %v %s (the pause is lost)", err, ready.Body)
	}
	resumed, err := s.Client.ResumeWithResponse(ctx, bearer(adminKey))
	if err != nil || resumed.JSON200 == nil || resumed.JSON200.Paused || resumed.JSON200.Since != nil {
		t.Fatalf("resume: %v %s", err, resumed.Body)
	}
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("a reveal once resumed: %d %s", r.StatusCode(), r.Body)
	}
	if ready, err := s.Client.GetReadyWithResponse(ctx); err != nil || ready.StatusCode() != 200 {
		t.Fatalf("/ready once resumed: %v %s", err, ready.Body)
	}

	none := relayertest.Start(t, c, nil)
	if r, err := none.Client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("pause at a relayer with no ADMIN_API_KEY: %v %d %s", err, r.StatusCode(), r.Body)
	}
}

// GET /admin/wallet: the operator wallet, its balance, the cost reserved, the gate, the spend
// limit and what was spent, and its nonces as the node and the relayer see them.
func TestTheOperatorWalletForItsOperator(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"ADMIN_API_KEY": adminKey, "OPERATOR_SPEND_LIMIT": "5/1h"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 32)
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("reveal: %d %s", r.StatusCode(), r.Body)
	}
	w, err := s.Client.GetWalletWithResponse(ctx, bearer(adminKey))
	if err != nil || w.JSON200 == nil {
		t.Fatalf("wallet: %v %s", err, w.Body)
	}
	got := w.JSON200
	mined := relayertest.OperatorNonce(t, c)
	if got.Address != c.Accounts.Operator.Address.Hex() || got.Balance == nil || *got.Balance == "0" || !got.GateOpen ||
		got.SpendLimit == nil || *got.SpendLimit != "5000000000000000000" || got.SpendWindowSeconds == nil || *got.SpendWindowSeconds != 3600 ||
		got.Spent == nil || *got.Spent == "0" || got.Nonce.Mined == nil || uint64(*got.Nonce.Mined) != mined || uint64(got.Nonce.Next) != mined {
		t.Fatalf("wallet: %s", w.Body)
	}
	if strings.Contains(strings.ToLower(string(w.Body)), "key") {
		t.Fatalf("the wallet report mentions a key: %s", w.Body)
	}
}

// The operator's "speed up": a reveal's transaction stuck in the pool is replaced at once (not
// after REPLACE_AFTER, 50 s here), and the reveal gets the replacement's outcome; a nonce
// with nothing in flight is 404.
func TestAnOperatorReplacesAStuckTransaction(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 33)
	nonce := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	answer := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == nonce+1 })
	if r, err := s.Client.ReplaceTransactionWithResponse(ctx, int64(nonce+1), &walletapi.ReplaceTransactionParams{Wallet: c.Accounts.Operator.Address.Hex()}, bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("replace at a nonce with nothing in flight: %v %d %s", err, r.StatusCode(), r.Body)
	}
	r, err := s.Client.ReplaceTransactionWithResponse(ctx, int64(nonce), &walletapi.ReplaceTransactionParams{Wallet: c.Accounts.Operator.Address.Hex()}, bearer(adminKey))
	if err != nil || r.JSON202 == nil || r.JSON202.Nonce != int64(nonce) {
		t.Fatalf("replace: %v %s", err, r.Body)
	}
	first := r.JSON202.Replacing
	edgetest.WaitFor(t, "the replacement", func() bool { return strings.Contains(scrape(t, s), "vaultd_relayer_transaction_replacements_total 1") })
	c.ResumeSealing()
	mined := <-answer
	if mined.JSON200 == nil || mined.JSON200.TxHash == first {
		t.Fatalf("the reveal's answer %s; want the replacement mined, not %s", mined.Body, first)
	}
	if n := relayertest.OperatorNonce(t, c); n != nonce+1 {
		t.Fatalf("%d transactions mined for one reveal", n-nonce)
	}
}

// A replacement the node refuses does not stand: the reveal's status names the version that
// was sent, and it is the one mined.
func TestARefusedReplacementDoesNotStand(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 34)
	nonce := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	answer := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == nonce+1 })
	sends := proxy.Calls("eth_sendRawTransaction")
	proxy.SetReply("eth_sendRawTransaction", `"error":{"code":-32000,"message":"replacement transaction underpriced"}`, 1)
	r, err := s.Client.ReplaceTransactionWithResponse(ctx, int64(nonce), &walletapi.ReplaceTransactionParams{Wallet: c.Accounts.Operator.Address.Hex()}, bearer(adminKey))
	if err != nil || r.JSON202 == nil {
		t.Fatalf("replace: %v %s", err, r.Body)
	}
	first := r.JSON202.Replacing
	edgetest.WaitFor(t, "the replacement refused", func() bool { return proxy.Calls("eth_sendRawTransaction") > sends })
	edgetest.WaitFor(t, "the status naming the version sent", func() bool {
		st := relayertest.Status(t, s, req)
		return st.State == "pending" && st.TxHash != nil && *st.TxHash == first
	})
	c.ResumeSealing()
	if mined := <-answer; mined.JSON200 == nil || mined.JSON200.TxHash != first {
		t.Fatalf("the reveal's answer %s; want the version sent, %s", mined.Body, first)
	}
}

// GET /admin/transactions: what the operator wallet signed, newest nonce first, from the
// relayer's record: mined reveals with the version mined and its block, a stuck one pending with
// its fees; filtered by state and paged by cursor.
func TestAnOperatorListsTheWalletsTransactions(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"ADMIN_API_KEY": adminKey, "RECEIPT_TIMEOUT": "300ms", "REPLACE_AFTER": "250ms"})
	var mined []string
	for i := range 3 {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(40+i))
		mined = append(mined, revealMined(t, s, req))
	}
	_, stuck := relayertest.Request(t, c, relayertest.User(c, 3), 43)
	c.PauseSealing()
	relayertest.WantCode(t, "a reveal not mined in time", relayertest.Reveal(t, s, stuck), 504, "TX_PENDING")
	defer c.ResumeSealing()

	all, err := s.Client.GetTransactionsWithResponse(ctx, &walletapi.GetTransactionsParams{}, bearer(adminKey))
	if err != nil || all.JSON200 == nil || len(all.JSON200.Transactions) != 4 || all.JSON200.NextCursor != nil {
		t.Fatalf("all: %v %s", err, all.Body)
	}
	txs := all.JSON200.Transactions
	first := txs[0]
	if first.State != "pending" || first.Versions[len(first.Versions)-1].MaxFeePerGas == nil || first.MinedHash != nil ||
		first.Purpose != "reveal "+relayertest.NullifierHex(t, stuck) {
		t.Fatalf("the stuck reveal's entry: %+v", first)
	}
	for i, l := range txs[1:] {
		if l.State != "mined" || l.MinedHash == nil || *l.MinedHash != mined[2-i] || l.BlockNumber == nil || l.Nonce != first.Nonce-int64(i)-1 {
			t.Fatalf("entry %d: %+v, want mined %s", i+1, l, mined[2-i])
		}
	}
	state, two := walletapi.GetTransactionsParamsStateMined, 2
	page, err := s.Client.GetTransactionsWithResponse(ctx, &walletapi.GetTransactionsParams{State: &state, Limit: &two}, bearer(adminKey))
	if err != nil || page.JSON200 == nil || len(page.JSON200.Transactions) != 2 || page.JSON200.NextCursor == nil {
		t.Fatalf("mined, 2 a page: %v %s", err, page.Body)
	}
	rest, err := s.Client.GetTransactionsWithResponse(ctx, &walletapi.GetTransactionsParams{State: &state, Limit: &two, Cursor: page.JSON200.NextCursor}, bearer(adminKey))
	if err != nil || rest.JSON200 == nil || len(rest.JSON200.Transactions) != 1 || rest.JSON200.Transactions[0].MinedHash == nil || *rest.JSON200.Transactions[0].MinedHash != mined[0] || rest.JSON200.NextCursor != nil {
		t.Fatalf("the next page: %v %s", err, rest.Body)
	}
	// A cursor no listing gave (digits, as the document's pattern wants, but past any nonce) is a 400.
	bad := "99999999999999999999"
	refused, err := s.Client.GetTransactionsWithResponse(ctx, &walletapi.GetTransactionsParams{Cursor: &bad}, bearer(adminKey))
	if err != nil || refused.StatusCode() != http.StatusBadRequest || !strings.Contains(string(refused.Body), "INVALID_REQUEST") {
		t.Fatalf("a cursor no listing gave: %v %d %s", err, refused.StatusCode(), refused.Body)
	}
}

// revealMined sends req and returns the hash of its transaction once mined: a reveal answered
// 504 TX_PENDING (a RECEIPT_TIMEOUT short enough for a test's stuck reveal, missed on a loaded
// machine) is followed by its status until mined.
func revealMined(t *testing.T, s *relayertest.Server, req relayerapi.RevealRequest) string {
	t.Helper()
	r := relayertest.Reveal(t, s, req)
	if r.JSON200 != nil {
		return r.JSON200.TxHash
	}
	relayertest.WantCode(t, "a reveal", r, 504, "TX_PENDING")
	var st relayerapi.RevealStatus
	edgetest.WaitFor(t, "the reveal to be mined", func() bool {
		st = relayertest.Status(t, s, req)
		return st.State == "mined"
	})
	return *st.TxHash
}

// The operator's cancel: a reveal's transaction stuck in the pool is replaced by a transfer of
// nothing to the operator itself; once that is mined, three blocks deep, the reveal answers 503 TX_CANCELLED,
// nothing is revealed (its status unknown), the nonce after it is not stuck, and the same reveal
// sent again is paid: by the same relayer, and, with REDIS_URL and the record on Postgres, by
// another replica at once (the cancelled reveal's nullifier hold is given back: it used to hold
// the cancelled version's hash for an hour, and the copy waited for it, 504 TX_PENDING).
func TestAnOperatorCancelsAStuckReveal(t *testing.T) {
	t.Parallel()
	over := map[string]string{"ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m", "REPLICA_NAME": "relayer-a"}
	t.Run("in process", func(t *testing.T) {
		c := devchaintest.Start(t)
		s := relayertest.Start(t, c, over)
		cancelAStuckReveal(t, c, s, s)
	})
	t.Run("redis and postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		url, _ := redistest.Server(t)
		shared := maps.Clone(over)
		shared["REDIS_URL"], shared["DATABASE_URL"] = url, sqldbtest.Postgres(t)
		other := maps.Clone(shared)
		// Its own wallet, and a short wait: a copy held behind a stale hold fails fast.
		other["OPERATOR_PRIVATE_KEY"], other["RECEIPT_TIMEOUT"], other["REPLACE_AFTER"] = hexutil.Encode(crypto.FromECDSA(relayertest.FundedKey(t, c))), "10s", "5s"
		other["REPLICA_NAME"] = "relayer-b"
		cancelAStuckReveal(t, c, relayertest.Start(t, c, shared), relayertest.Start(t, c, other))
	})
}

// cancelAStuckReveal has a's operator (the dev operator) cancel a reveal stuck in the pool, then
// sends the reveal again to b (a itself, or another replica with a wallet of its own). First, the
// fleet view at b lists a, its wallet and the stuck transaction (and b, its own wallet, nothing in
// flight), and a replace or cancel naming another wallet than the replica's is refused 409
// WALLET_MISMATCH, at a and at b: nonce N of another wallet is another transaction.
func cancelAStuckReveal(t *testing.T, c *devchain.Chain, a, b *relayertest.Server) {
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 34)
	nonce := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	answer := revealAsync(t, a, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == nonce+1 })
	ours := c.Accounts.Operator.Address.Hex()
	fleet, err := b.Client.GetFleetWithResponse(ctx, bearer(adminKey))
	if err != nil || fleet.JSON200 == nil {
		t.Fatalf("the fleet: %v %s", err, fleet.Body)
	}
	replicas := map[string]walletapi.FleetReplica{}
	for _, f := range fleet.JSON200.Replicas {
		replicas[f.Replica] = f
	}
	if f := replicas["relayer-a"]; f.Wallet != ours || f.Paused || len(f.Transactions) != 1 || uint64(f.Transactions[0].Nonce) != nonce || f.Transactions[0].State != "pending" {
		t.Fatalf("the fleet's relayer-a: %+v", fleet.JSON200.Replicas)
	}
	other := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey).Hex()
	if a != b {
		f := replicas["relayer-b"]
		if len(replicas) != 2 || f.Wallet == ours || !common.IsHexAddress(f.Wallet) || len(f.Transactions) != 0 {
			t.Fatalf("the fleet's relayer-b: %+v", fleet.JSON200.Replicas)
		}
		other = f.Wallet
		if r, err := b.Client.CancelTransactionWithResponse(ctx, int64(nonce), &walletapi.CancelTransactionParams{Wallet: ours}, bearer(adminKey)); err != nil || r.StatusCode() != 409 || !strings.Contains(string(r.Body), `"WALLET_MISMATCH"`) {
			t.Fatalf("a cancel at relayer-b naming relayer-a's wallet: %v %d %s", err, r.StatusCode(), r.Body)
		}
	} else if len(replicas) != 1 {
		t.Fatalf("the fleet of one relayer: %+v", fleet.JSON200.Replicas)
	}
	if r, err := a.Client.CancelTransactionWithResponse(ctx, int64(nonce), &walletapi.CancelTransactionParams{Wallet: other}, bearer(adminKey)); err != nil || r.StatusCode() != 409 || !strings.Contains(string(r.Body), `"WALLET_MISMATCH"`) {
		t.Fatalf("a cancel naming another wallet: %v %d %s", err, r.StatusCode(), r.Body)
	}
	if r, err := a.Client.ReplaceTransactionWithResponse(ctx, int64(nonce), &walletapi.ReplaceTransactionParams{Wallet: other}, bearer(adminKey)); err != nil || r.StatusCode() != 409 || !strings.Contains(string(r.Body), `"WALLET_MISMATCH"`) {
		t.Fatalf("a replace naming another wallet: %v %d %s", err, r.StatusCode(), r.Body)
	}
	if r, err := a.Client.CancelTransactionWithResponse(ctx, int64(nonce+1), &walletapi.CancelTransactionParams{Wallet: ours}, bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("cancel at a nonce with nothing in flight: %v %d %s", err, r.StatusCode(), r.Body)
	}
	r, err := a.Client.CancelTransactionWithResponse(ctx, int64(nonce), &walletapi.CancelTransactionParams{Wallet: ours}, bearer(adminKey))
	if err != nil || r.JSON202 == nil || r.JSON202.Nonce != int64(nonce) {
		t.Fatalf("cancel: %v %s", err, r.Body)
	}
	edgetest.WaitFor(t, "the cancel sent", func() bool { return strings.Contains(scrape(t, a), "vaultd_relayer_transaction_replacements_total 1") })
	c.ResumeSealing()
	edgetest.WaitFor(t, "the cancel mined", func() bool { return relayertest.OperatorNonce(t, c) == nonce+1 })
	head, err := c.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // two more blocks: the cancel settles the reveal DISPLACED_AFTER_BLOCKS (3) deep
		oneBlock(t, c)
	}
	cancelled := <-answer
	relayertest.WantCode(t, "the cancelled reveal", cancelled, 503, "TX_CANCELLED")
	// What was mined at the nonce is the cancel: nothing, from the operator to itself.
	block, err := c.Client().BlockByNumber(ctx, new(big.Int).SetUint64(head))
	if err != nil || len(block.Transactions()) != 1 {
		t.Fatalf("the block after the cancel: %v", err)
	}
	tx := block.Transactions()[0]
	if tx.Hash() == common.HexToHash(r.JSON202.Replacing) || *tx.To() != c.Accounts.Operator.Address || tx.Value().Sign() != 0 || len(tx.Data()) != 0 || tx.Nonce() != nonce {
		t.Fatalf("the transaction mined at the nonce: %+v", tx)
	}
	edgetest.WaitFor(t, "the cancelled reveal's status", func() bool { return relayertest.Status(t, a, req).State == "unknown" })
	if st := relayertest.Status(t, b, req); st.State != "unknown" {
		t.Fatalf("the cancelled reveal's status at the other replica: %+v", st)
	}
	again := relayertest.Reveal(t, b, req)
	if again.JSON200 == nil || !again.JSON200.Success {
		t.Fatalf("the reveal sent again: %d %s", again.StatusCode(), again.Body)
	}
	want := nonce + 2 // the cancel and the reveal
	if a != b {
		want = nonce + 1 // the cancel; the reveal from b's wallet
		sentBy, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(again.JSON200.TxHash))
		if err != nil {
			t.Fatal(err)
		}
		if from, err := types.Sender(types.LatestSignerForChainID(sentBy.ChainId()), sentBy); err != nil || from == c.Accounts.Operator.Address {
			t.Fatalf("the reveal sent again came from %s (%v), want the other replica's wallet", from, err)
		}
	}
	if n := relayertest.OperatorNonce(t, c); n != want {
		t.Fatalf("%d transactions mined from a's wallet, want %d", n-nonce, want-nonce)
	}
}

// oneBlock seals a block: a transfer between dev accounts, waited for.
func oneBlock(t *testing.T, c *devchain.Chain) {
	t.Helper()
	to := c.Accounts.Users[4].Address
	tx, err := devchain.SendTx(ctx, c, c.Accounts.Deployer.Key, &to, big.NewInt(1), nil)
	if err == nil {
		_, err = devchain.WaitReceipt(ctx, c.Client(), tx.Hash())
	}
	if err != nil {
		t.Fatal(err)
	}
}

// A replace or a cancel of a reveal's transaction whose newest version is at MAX_FEE_PER_GAS
// (1 wei here) is refused 409 NOT_REPLACEABLE, nothing sent: a node takes a replacement only
// with higher fees.
func TestAReplacementAtTheFeeCapIsRefused(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"ADMIN_API_KEY": adminKey, "MAX_FEE_PER_GAS": "0.000000001", "REPLACE_AFTER": "1s", "RECEIPT_TIMEOUT": "2s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 35)
	nonce := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	answer := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == nonce+1 })
	cancel, err := s.Client.CancelTransactionWithResponse(ctx, int64(nonce), &walletapi.CancelTransactionParams{Wallet: c.Accounts.Operator.Address.Hex()}, bearer(adminKey))
	if err != nil || cancel.JSON409 == nil || cancel.JSON409.Code != "NOT_REPLACEABLE" {
		t.Fatalf("cancel at the fee cap: %v %d %s", err, cancel.StatusCode(), cancel.Body)
	}
	replace, err := s.Client.ReplaceTransactionWithResponse(ctx, int64(nonce), &walletapi.ReplaceTransactionParams{Wallet: c.Accounts.Operator.Address.Hex()}, bearer(adminKey))
	if err != nil || replace.JSON409 == nil || replace.JSON409.Code != "NOT_REPLACEABLE" {
		t.Fatalf("replace at the fee cap: %v %d %s", err, replace.StatusCode(), replace.Body)
	}
	relayertest.WantCode(t, "the reveal, not mined at 1 wei", <-answer, 504, "TX_PENDING")
	if m := scrape(t, s); !strings.Contains(m, "vaultd_relayer_transaction_replacements_total 0") {
		t.Fatal("a replacement was sent")
	}
}

// A pause stops new signing everywhere, not only at the door: a reveal admitted before its
// replica was paused, waiting on the nullifier's hold by another replica, is not sent when that
// hold is released (503 PAUSED, nothing signed); resumed, the reveal is paid. The other
// replica's hold is the test's own write to the shared Redis (a replica that held the
// nullifier and gave it back unsent, the value it writes).
func TestAPausedReplicaSignsNoRevealItWaitedFor(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	spans := tracetest.NewSpanRecorder()
	key := relayertest.FundedKey(t, c)
	s := relayertest.StartWith(t, c, map[string]string{"ADMIN_API_KEY": adminKey, "REDIS_URL": url, "OPERATOR_PRIVATE_KEY": "",
		"OPERATOR_PRIVATE_KEYS": hexutil.Encode(crypto.FromECDSA(key)), "OPERATOR_LEASE_TTL": "5s"},
		relayer.Options{Traces: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))})
	operator := crypto.PubkeyToAddress(key.PublicKey)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 36)
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	holdKey := "vaultd:relayer:nullifier:" + common.HexToHash(req.PublicSignals[1]).Hex()
	if err := rdb.Set(ctx, holdKey, "another-replica/0123456789ab", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	before, err := c.Client().PendingNonceAt(ctx, operator)
	if err != nil {
		t.Fatal(err)
	}
	answer := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the reveal waiting on the other replica's hold", func() bool {
		for _, sp := range spans.Ended() {
			for _, a := range sp.Attributes() {
				if sp.Name() == "hold" && a.Key == "vaultd.held" && !a.Value.AsBool() {
					return true
				}
			}
		}
		return false
	})
	if p, err := s.Client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || !p.JSON200.Paused {
		t.Fatalf("pause: %v %s", err, p.Body)
	}
	if err := rdb.Del(ctx, holdKey).Err(); err != nil { // the other replica gives the nullifier back
		t.Fatal(err)
	}
	relayertest.WantCode(t, "the reveal once the hold is released", <-answer, 503, "PAUSED")
	if n, err := c.Client().PendingNonceAt(ctx, operator); err != nil || n != before {
		t.Fatalf("a paused replica signed %d transactions (%v)", n-before, err)
	}
	if p, err := s.Client.ResumeWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil || p.JSON200.Paused {
		t.Fatalf("resume: %v %s", err, p.Body)
	}
	if again := relayertest.Reveal(t, s, req); again.JSON200 == nil || !again.JSON200.Success {
		t.Fatalf("the reveal once resumed: %d %s", again.StatusCode(), again.Body)
	}
}

// The relayer's webhooks: a reveal sent and mined, the balance gate closing (the minimum 1,000
// wei under the balance: the reveal's cost crosses it), and a pause and a resume, each delivered
// once, signed, with the reveal's nullifier and transaction.
func TestTheRelayerTellsItsWebhooks(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	const secret = "a webhook secret for the tests"
	h := webhooktest.Start(t, secret)
	s := relayertest.Start(t, c, map[string]string{"ADMIN_API_KEY": adminKey, "WEBHOOK_URLS": h.URL, "WEBHOOK_SECRET": secret, "REPLICA_NAME": "relayer-w",
		"MIN_OPERATOR_BALANCE": thresholdJustUnderBalance(t, c)})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 35)
	r := relayertest.Reveal(t, s, req)
	if r.JSON200 == nil {
		t.Fatalf("reveal: %d %s", r.StatusCode(), r.Body)
	}
	s.Client.PauseWithResponse(ctx, bearer(adminKey))
	s.Client.ResumeWithResponse(ctx, bearer(adminKey))
	want := map[string]bool{"reveal.sent": true, "reveal.mined": true, "wallet.balance_low": true, "replica.paused": true, "replica.resumed": true}
	edgetest.WaitFor(t, "the webhooks", func() bool { return len(h.Types()) >= len(want) })
	time.Sleep(webhooktest.Quiet) // nothing more arrives
	got := h.Types()
	if len(got) != len(want) {
		t.Fatalf("webhook events %v, want each of %v once", got, want)
	}
	for _, e := range h.Events() {
		if !want[e.Type] || e.Service != "relayer" || e.Replica != "relayer-w" {
			t.Errorf("event %+v", e)
		}
		if e.Type == "reveal.mined" && (!strings.Contains(string(e.Data), relayertest.NullifierHex(t, req)) || !strings.Contains(string(e.Data), r.JSON200.TxHash)) {
			t.Errorf("reveal.mined without the reveal's nullifier and transaction: %s", e.Data)
		}
	}
}

// A relayer starting behind a provider that refuses its first calls (the read of the tree's
// root history among them: 502, as a gateway whose node is down for a moment) starts all the
// same: the start-up read is asked again. Without that, one passing fault stopped the start.
func TestARelayerStartsThroughPassingFaults(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	gateway := devchaintest.Faults(t, c.RPCURL)
	var mu sync.Mutex
	refused := 0
	gateway.SetRule(func(method string) devchain.Fault {
		mu.Lock()
		defer mu.Unlock()
		if method == "eth_call" && refused < 2 {
			refused++
			return devchain.Refuse
		}
		return devchain.Pass
	})
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": gateway.URL})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 36)
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("a reveal: %d %s", r.StatusCode(), r.Body)
	}
	mu.Lock()
	defer mu.Unlock()
	if refused != 2 {
		t.Fatalf("%d calls refused, want 2", refused)
	}
}

// With ADMIN_ADDR, no spelling of an operator's route reaches it through the public listener:
// a credit whose sponsor id hides ../ behind encoded slashes or dots (which a cleaned, decoded
// path would call /x/credit, while the router takes it to the credit route) answers 404
// NOT_FOUND there, as a doubled slash or an encoded one does, and credits nothing; the
// operator's listener creates and credits the sponsor; the public one serves the rest.
func TestTheOperatorsRoutesHaveNoPublicSpelling(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"ADMIN_API_KEY": adminKey}))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, adminURL, _ := edgetest.ServeSplit(t, svc.Handler(), svc.Start, svc.Close)
	do := func(base, method, path, body string) (int, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+adminKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	status, body := do(adminURL, "POST", "/admin/sponsors", `{"name":"Card Issuer Ltd"}`)
	var created relayerapi.SponsorCreated
	if status != 201 || json.Unmarshal(body, &created) != nil {
		t.Fatalf("create on the operator's listener: %d %s", status, body)
	}
	id := created.Sponsor.Id
	for _, path := range []string{
		"/admin/sponsors/..%2F..%2Fx/credit", "/admin/sponsors/..%2f..%2fx/credit", "/admin/sponsors/%2e%2e%2F%2e%2e%2Fx/credit",
		"/admin/sponsors/" + id + "%2F..%2F..%2F..%2Fx/credit", "//admin/sponsors/" + id + "/credit", "/admin//sponsors/" + id + "/credit",
		"/admin/sponsors/" + id + "/credit", "/admin%2Fsponsors%2F" + id + "%2Fcredit", "/%61dmin/sponsors/" + id + "/credit", "/admin/pause",
	} {
		if status, body := do(url, "POST", path, `{"amount":"1000"}`); status != 404 || !codeIs(body, "NOT_FOUND") {
			t.Errorf("public POST %s: %d %s, want 404 NOT_FOUND", path, status, body)
		}
	}
	if status, body := do(adminURL, "POST", "/admin/sponsors/"+id+"/credit", `{"amount":"1000"}`); status != 200 || !strings.Contains(string(body), `"credited":"1000"`) {
		t.Fatalf("the credit on the operator's listener: %d %s, want 1000 credited once", status, body)
	}
	if status, body := do(url, "GET", "/health", ""); status != 200 {
		t.Errorf("public GET /health: %d %s", status, body)
	}
	if status, body := do(adminURL, "GET", "/health", ""); status != 404 {
		t.Errorf("the operator's listener: GET /health %d %s, want 404", status, body)
	}
}

// Partners and operators read different documents. With ADMIN_ADDR, the public listener's
// /openapi.yaml and /openapi.json are the relayer's document without the operator's routes (no
// /admin path, no component only they use), valid; the operator's listener serves the whole
// document at /admin/openapi.yaml and /admin/openapi.json to the admin key alone (401 with the
// service's error body without it), and the operations the generated clients call there are in
// it and in no public one.
func TestPartnersAndOperatorsReadDifferentDocuments(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"ADMIN_API_KEY": adminKey}))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, adminURL, _ := edgetest.ServeSplit(t, svc.Handler(), svc.Start, svc.Close)
	get := func(u, key string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", u, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	load := func(what string, data []byte) *openapi3.T {
		t.Helper()
		doc, err := openapi3.NewLoader().LoadFromData(data)
		if err == nil {
			err = doc.Validate(ctx)
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return doc
	}
	operation := func(doc *openapi3.T, id string) bool {
		for _, item := range doc.Paths.Map() {
			for _, op := range item.Operations() {
				if op.OperationID == id {
					return true
				}
			}
		}
		return false
	}

	public, err := relayertest.NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := relayertest.NewClient(adminURL)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := public.GetHealthWithResponse(ctx); err != nil || h.StatusCode() != 200 {
		t.Fatalf("public GET /health: %v %v", err, h)
	}
	if r, err := admin.ListSponsorsWithResponse(ctx, bearer(adminKey)); err != nil || r.StatusCode() != 200 {
		t.Fatalf("the operator's GET /admin/sponsors: %v %v", err, r)
	}
	if r, err := admin.GetFleetWithResponse(ctx, bearer(adminKey)); err != nil || r.StatusCode() != 200 {
		t.Fatalf("the operator's GET /admin/fleet: %v %v", err, r)
	}
	for _, path := range []string{"/openapi.yaml", "/openapi.json"} {
		status, body := get(url+path, "")
		if status != 200 {
			t.Fatalf("public GET %s: %d %s", path, status, body)
		}
		doc := load(path, body)
		for p := range doc.Paths.Map() {
			if strings.HasPrefix(p, "/admin") {
				t.Errorf("public %s lists %s", path, p)
			}
		}
		if !operation(doc, "getHealth") || !operation(doc, "reveal") || operation(doc, "listSponsors") || operation(doc, "getFleet") {
			t.Errorf("public %s: the public operations are not all in it, or an operator's is", path)
		}
	}
	for _, path := range []string{"/admin/openapi.yaml", "/admin/openapi.json"} {
		for _, key := range []string{"", "not the admin key at all"} {
			status, body := get(adminURL+path, key)
			var e relayerapi.Error
			if status != 401 || json.Unmarshal(body, &e) != nil || e.Code != "UNAUTHORIZED" || e.Error == "" {
				t.Errorf("the operator's GET %s with key %q: %d %s, want 401 UNAUTHORIZED", path, key, status, body)
			}
		}
		status, body := get(adminURL+path, adminKey)
		if status != 200 {
			t.Fatalf("the operator's GET %s: %d %s", path, status, body)
		}
		if doc := load(path, body); !operation(doc, "listSponsors") || !operation(doc, "getFleet") || !operation(doc, "reveal") {
			t.Errorf("the operator's %s is not the whole document", path)
		}
		if status, body := get(url+path, adminKey); status != 404 {
			t.Errorf("public GET %s: %d %s, want 404", path, status, body)
		}
	}
	if _, body := get(adminURL+"/admin/openapi.yaml", adminKey); string(body) != string(openapi.RelayerYAML) {
		t.Error("the operator's /admin/openapi.yaml is not openapi.RelayerYAML")
	}
	// The public document is the one the openapi package checks for components nothing refers to.
	if _, body := get(url+"/openapi.yaml", ""); string(body) != string(openapi.RelayerPublicYAML) {
		t.Error("the public /openapi.yaml is not openapi.RelayerPublicYAML")
	}
}
