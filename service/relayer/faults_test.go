package relayer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func revealAsync(t testing.TB, s *relayertest.Server, req relayerapi.RevealRequest) <-chan *relayerapi.RevealResponse {
	ch := make(chan *relayerapi.RevealResponse, 1)
	go func() {
		resp, err := s.Client.RevealWithResponse(ctx, req)
		if err != nil {
			t.Error(err)
		}
		ch <- resp
	}()
	return ch
}

// A reveal that passes the checks but reverts on chain — the same card was revealed directly
// just before the relayer's transaction — reaches the client as TX_REVERTED with the hash, and
// is not retried.
func TestRevertOnChainIsNotRetried(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 12)
	start := relayertest.OperatorNonce(t, c)

	c.PauseSealing()
	data, err := card.RevealCalldata(cardRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	vault := c.Contracts.Vault
	if _, err := devchain.SendTx(ctx, c, c.Accounts.Users[1].Key, &vault, nil, data); err != nil {
		t.Fatal(err)
	}
	resp := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the relayer's transaction in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == start+1 })
	c.ResumeSealing()
	r := <-resp
	relayertest.WantCode(t, "revealed meanwhile", r, 422, "TX_REVERTED")
	if !strings.Contains(string(r.Body), `"txHash":"0x`) {
		t.Fatalf("no txHash: %s", r.Body)
	}
	// Its status says so, with the vault's reason and the transaction that was mined.
	var answer struct{ TxHash string }
	json.Unmarshal(r.Body, &answer)
	if st := relayertest.Status(t, s, req); st.State != "reverted" || st.TxHash == nil || *st.TxHash != answer.TxHash || st.BlockNumber == nil ||
		st.Reason == nil || !strings.HasPrefix(*st.Reason, "NullifierAlreadySpent(") {
		t.Fatalf("the reverted reveal's status: %+v", st)
	}
	time.Sleep(200 * time.Millisecond)
	if n := relayertest.OperatorNonce(t, c); n != start+1 {
		t.Fatalf("operator sent %d transactions, want exactly 1 (no retry)", n-start)
	}
}

// A transaction that is not mined in time is replaced (same nonce, higher fees) and the
// replacement's outcome is reported.
func TestLingeringTransactionIsReplaced(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"REPLACE_AFTER": "200ms", "RECEIPT_TIMEOUT": "20s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 13)
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	resp := revealAsync(t, s, req)
	edgetest.WaitFor(t, "a replacement", func() bool { return strings.Contains(scrape(t, s), "vaultd_relayer_transaction_replacements_total 1") })
	c.ResumeSealing()
	r := <-resp
	if r.StatusCode() != 200 {
		t.Fatalf("after replacement: %d %s", r.StatusCode(), r.Body)
	}
	mined, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(r.JSON200.TxHash))
	if err != nil || mined.Nonce() != start {
		t.Fatalf("the mined transaction %v has nonce %d, want %d", err, mined.Nonce(), start)
	}
	if relayertest.OperatorNonce(t, c) != start+1 {
		t.Fatal("a nonce gap or an extra transaction")
	}
	next, _ := s.Client.GetHealthWithResponse(ctx)
	if next.JSON200.NextNonce != int64(start+1) || next.JSON200.InFlight != 0 {
		t.Fatalf("health after the replacement: %s", next.Body)
	}
}

// A transaction not mined within RECEIPT_TIMEOUT is TX_PENDING with its hash; it stays in flight
// and is settled when it is mined later.
func TestReceiptTimeoutIsTxPending(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"RECEIPT_TIMEOUT": "300ms", "REPLACE_AFTER": "250ms"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 17)
	c.PauseSealing()
	r := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "not mined in time", r, 504, "TX_PENDING")
	if !strings.Contains(string(r.Body), `"txHash":"0x`) {
		t.Fatalf("no txHash: %s", r.Body)
	}
	if h, _ := s.Client.GetHealthWithResponse(ctx); h.JSON200.InFlight != 1 {
		t.Fatalf("in flight: %s", h.Body)
	}
	// The web app follows it by its nullifier instead of sending it again: pending, with the
	// newest version sent, then mined.
	if st := relayertest.Status(t, s, req); st.State != "pending" || st.TxHash == nil || st.BlockNumber != nil {
		t.Fatalf("the pending reveal's status: %+v", st)
	}
	c.ResumeSealing()
	edgetest.WaitFor(t, "the late transaction to settle", func() bool {
		h, _ := s.Client.GetHealthWithResponse(ctx)
		return h.JSON200.InFlight == 0 && relayertest.Status(t, s, req).State != "pending"
	})
	st := relayertest.Status(t, s, req)
	if st.State != "mined" || st.TxHash == nil || st.BlockNumber == nil || st.GasUsed == nil || st.Reason != nil {
		t.Fatalf("the mined reveal's status: %+v", st)
	}
	rc, err := c.Client().TransactionReceipt(ctx, common.HexToHash(*st.TxHash))
	if err != nil || rc.Status != 1 || rc.BlockNumber.Int64() != *st.BlockNumber || fmt.Sprint(rc.GasUsed) != *st.GasUsed {
		t.Fatalf("the status %+v is not the chain's receipt (%v)", st, err)
	}
	// A nullifier this relayer never sent is unknown; one that is not 0x and 64 hex digits, 400.
	unknown, err := s.Client.GetRevealWithResponse(ctx, common.Hash{1}.Hex())
	if err != nil || unknown.JSON200 == nil || unknown.JSON200.State != "unknown" || unknown.JSON200.TxHash != nil {
		t.Fatalf("an unknown nullifier: %v %s", err, unknown.Body)
	}
	bad, err := s.Client.GetRevealWithResponse(ctx, "0x12")
	if err != nil || bad.StatusCode() != 400 || !strings.Contains(string(bad.Body), "INVALID_REQUEST") {
		t.Fatalf("a malformed nullifier: %v %d %s", err, bad.StatusCode(), bad.Body)
	}
}

// A transaction sent from the operator key by someone else is absorbed: the relayer's next send
// meets "nonce too low", resyncs and succeeds, with no gap.
func TestOutsideTransactionIsAbsorbed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 14)
	if r := relayertest.Reveal(t, s, first); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	self := c.Accounts.Operator.Address
	tx, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &self, big.NewInt(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	devchain.WaitReceipt(ctx, c.Client(), tx.Hash())
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 15)
	if r := relayertest.Reveal(t, s, second); r.StatusCode() != 200 {
		t.Fatalf("after an outside transaction: %d %s", r.StatusCode(), r.Body)
	}
	_, third := relayertest.Request(t, c, relayertest.User(c, 2), 16)
	if r := relayertest.Reveal(t, s, third); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	if n := relayertest.OperatorNonce(t, c); n != 4 {
		t.Fatalf("operator nonce %d, want 4 (3 reveals + 1 outside)", n)
	}
}

// A transaction from the operator key waiting in the pool at the relayer's next nonce (the node
// answers "replacement transaction underpriced") is absorbed the same way: resync, next nonce.
func TestPendingOutsideTransactionIsAbsorbed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 17)
	if r := relayertest.Reveal(t, s, first); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 18)
	c.PauseSealing()
	self := c.Accounts.Operator.Address
	if _, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &self, big.NewInt(1), nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan *relayerapi.RevealResponse, 1)
	go func() { done <- relayertest.Reveal(t, s, second) }()
	for {
		h, err := s.Client.GetHealthWithResponse(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if h.JSON200.InFlight == 1 {
			break // sent, behind the outside transaction
		}
		select {
		case r := <-done:
			t.Fatalf("before anything was mined: %d %s", r.StatusCode(), r.Body)
		case <-time.After(10 * time.Millisecond):
		}
	}
	c.ResumeSealing()
	if r := <-done; r.StatusCode() != 200 {
		t.Fatalf("behind a pending outside transaction: %d %s", r.StatusCode(), r.Body)
	}
	if n := relayertest.OperatorNonce(t, c); n != 3 {
		t.Fatalf("operator nonce %d, want 3 (2 reveals + 1 outside)", n)
	}
}

func cardRequest(r relayerapi.RevealRequest) card.Request {
	pb := make([][]string, len(r.Proof.PiB))
	for i, p := range r.Proof.PiB {
		pb[i] = p
	}
	return card.Request{Proof: zk.ProofJSON{PiA: r.Proof.PiA, PiB: pb, PiC: r.Proof.PiC}, PublicSignals: r.PublicSignals,
		Recipient: r.Recipient, TokenAddress: r.TokenAddress, Amount: r.Amount}
}

// A client that goes away mid-reveal does not abort the reveal: an identical request waiting on
// it gets the real outcome, not the first client's cancellation.
func TestClientGoneMidReveal(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "RPC_TIMEOUT": "10s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 41)

	proxy.SetRule(devchain.OnMethod("eth_call", devchain.Hold)) // the chain checks wait
	firstCtx, leave := context.WithCancel(ctx)
	first := make(chan error, 1)
	go func() { _, err := s.Client.RevealWithResponse(firstCtx, req); first <- err }()
	for proxy.Counts()[devchain.Hold] == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	second := make(chan *relayerapi.RevealResponse, 1)
	go func() { second <- relayertest.Reveal(t, s, req) }()
	time.Sleep(200 * time.Millisecond) // the second request joins the first's outcome
	leave()
	if err := <-first; err == nil {
		t.Fatal("the first client's request finished although it left")
	}
	time.Sleep(100 * time.Millisecond) // let a cancellation, if any, reach the checks
	proxy.Heal()
	if r := <-second; r.StatusCode() != 200 {
		t.Fatalf("the identical request: %d %s", r.StatusCode(), r.Body)
	}
}

// A nullifier spent between the relayer's read of it (check 1) and its simulation is answered
// as check 1 answers a spent one, 409 NULLIFIER_USED, not as a reveal the vault refuses.
func TestANullifierSpentDuringTheChecksIsUsed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "RPC_TIMEOUT": "30s"})
	other := relayertest.Start(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(relayertest.FundedKey(t, c)))})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 43)
	proxy.SetRule(devchain.OnMethod("eth_estimateGas", devchain.Hold)) // the simulation, after check 1
	first := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the simulation to wait", func() bool { return proxy.Counts()[devchain.Hold] > 0 })
	if r := relayertest.Reveal(t, other, req); r.StatusCode() != 200 {
		t.Fatalf("the reveal at the other relayer: %d %s", r.StatusCode(), r.Body)
	}
	proxy.Heal()
	relayertest.WantCode(t, "the reveal whose nullifier was spent during its checks", <-first, 409, "NULLIFIER_USED")
}

// A reveal the node refused to take is not counted against its recipient's limit: retried once
// the node takes transactions again, it goes through.
func TestRefusedSendIsNotCounted(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "RATE_LIMIT_PER_RECIPIENT": "1/1h", "RATE_LIMIT_TOTAL": "1/1h"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 51)
	proxy.SetReply("eth_sendRawTransaction", relayertest.InsufficientFunds, 0)
	relayertest.WantCode(t, "send refused", relayertest.Reveal(t, s, req), 502, "CHAIN_UNAVAILABLE")
	proxy.Heal()
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("the same reveal once the node takes it: %d %s", r.StatusCode(), r.Body)
	}
}

// A reveal whose send the node refused (502: nothing sent) leaves nothing of it recorded as
// sent: its status is unknown, and a restart of the relayer on the same record broadcasts
// nothing of it (the client was told nothing was sent, and its funding given back).
func TestRefusedSendIsNotRecorded(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	over := map[string]string{"RPC_URL": proxy.URL, "DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "relayer.db")}
	s := relayertest.Start(t, c, over)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 52)
	before := relayertest.PendingOperatorNonce(t, c)
	proxy.SetReply("eth_sendRawTransaction", relayertest.InsufficientFunds, 0)
	refused := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "send refused", refused, 502, "CHAIN_UNAVAILABLE")
	if !strings.Contains(string(refused.Body), "refused the reveal's transaction; nothing was sent") {
		t.Fatalf("a refused send's answer does not say so: %s", refused.Body)
	}
	if st := relayertest.Status(t, s, req); st.State != "unknown" {
		t.Fatalf("a reveal the node refused: status %+v, want unknown", st)
	}
	s.Stop()
	proxy.Heal()
	s = relayertest.Start(t, c, over)
	// Another reveal, sent after the restart's recovery, takes the next nonce: the refused one
	// was not broadcast before it.
	_, other := relayertest.Request(t, c, relayertest.User(c, 1), 53)
	edgetest.WaitFor(t, "the restarted relayer to answer a reveal", func() bool {
		return relayertest.Reveal(t, s, other).StatusCode() == 200
	})
	if n := relayertest.PendingOperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions sent after the restart, want 1 (the refused reveal was broadcast)", n-before)
	}
	if st := relayertest.Status(t, s, req); st.State != "unknown" {
		t.Fatalf("the refused reveal after a restart: status %s, want unknown", st.State)
	}
}

// A request carrying someone else's nullifier with a proof that does not verify, running when
// the valid reveal of that nullifier arrives, does not hand the valid one its refusal: its
// outcome is its own (422 INVALID_PROOF), and the valid reveal is then run on its own (200).
func TestABadCopyDoesNotRefuseTheValidReveal(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "RPC_TIMEOUT": "30s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 44)
	forged := req
	forged.Proof.PiA = slices.Clone(req.Proof.PiA)
	forged.Proof.PiA[0], forged.Proof.PiA[1] = "1", "1"
	proxy.SetRule(devchain.OnMethod("eth_call", devchain.Hold)) // the first checks read the chain
	bad := revealAsync(t, s, forged)
	edgetest.WaitFor(t, "the forged request's checks to wait", func() bool { return proxy.Counts()[devchain.Hold] > 0 })
	valid := revealAsync(t, s, req)
	time.Sleep(100 * time.Millisecond) // the valid one waits on the forged one's outcome
	proxy.Heal()
	relayertest.WantCode(t, "the forged request", <-bad, 422, "INVALID_PROOF")
	if r := <-valid; r.StatusCode() != 200 {
		t.Fatalf("the valid reveal beside a forged copy: %d %s", r.StatusCode(), r.Body)
	}
}

// Stopping the relayer (SIGTERM) while a reveal waits to be mined: the reveal still gets its
// answer, because the transaction watcher outlives the server's drain.
func TestShutdownFinishesRevealsInFlight(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	port := edgetest.FreePort(t)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"PORT": strconv.Itoa(port), "RECEIPT_TIMEOUT": "20s", "REPLACE_AFTER": "10s"}))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(runCtx) }()
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	client, _ := relayertest.NewClient(url)
	edgetest.WaitFor(t, "the relayer serving", func() bool { _, err := client.GetHealthWithResponse(ctx); return err == nil })
	s := &relayertest.Server{Svc: svc, URL: url, Client: client}

	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 61)
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	pending := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == start+1 })
	stop() // SIGTERM
	time.Sleep(100 * time.Millisecond)
	c.ResumeSealing()
	if r := <-pending; r.StatusCode() != 200 {
		t.Fatalf("the reveal in flight at shutdown: %d %s", r.StatusCode(), r.Body)
	}
	if err := <-ran; err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// A transaction from the operator key already waiting in the pool when the relayer starts (sent
// before a restart, say) is tracked like the relayer's own: it is replaced when it lingers, with
// its value and data kept, and later reveals take the nonces after it.
func TestStartAdoptsPoolTransactions(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 71)
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	self := c.Accounts.Operator.Address
	old, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &self, big.NewInt(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := relayertest.Start(t, c, map[string]string{"REPLACE_AFTER": "200ms", "RECEIPT_TIMEOUT": "20s"})
	h, _ := s.Client.GetHealthWithResponse(ctx)
	if h.JSON200.InFlight != 1 || h.JSON200.NextNonce != int64(start+1) {
		t.Fatalf("health with one operator transaction in the pool: %s", h.Body)
	}
	edgetest.WaitFor(t, "the lingering transaction replaced", func() bool {
		return strings.Contains(scrape(t, s), "vaultd_relayer_transaction_replacements_total 1")
	})
	pending := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == start+2 })
	c.ResumeSealing()
	if r := <-pending; r.StatusCode() != 200 {
		t.Fatalf("the reveal behind it: %d %s", r.StatusCode(), r.Body)
	}
	edgetest.WaitFor(t, "nothing in flight", func() bool {
		h, _ := s.Client.GetHealthWithResponse(ctx)
		return h.JSON200.InFlight == 0
	})
	if n := relayertest.OperatorNonce(t, c); n != start+2 {
		t.Fatalf("operator nonce %d, want %d", n, start+2)
	}
	block, err := c.Client().BlockByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mined *types.Transaction
	for n := block.NumberU64(); mined == nil && n > 0; n-- {
		b, _ := c.Client().BlockByNumber(ctx, new(big.Int).SetUint64(n))
		for _, tx := range b.Transactions() {
			if from, _ := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx); from == self && tx.Nonce() == start {
				mined = tx
			}
		}
	}
	if mined == nil {
		t.Fatalf("nothing mined at nonce %d", start)
	}
	if mined.Hash() == old.Hash() || mined.Value().Cmp(big.NewInt(7)) != 0 || mined.GasFeeCap().Cmp(old.GasFeeCap()) <= 0 {
		t.Fatalf("mined at nonce %d: %s, value %s, fee cap %s; want a replacement of %s (fee cap %s) with value 7",
			start, mined.Hash(), mined.Value(), mined.GasFeeCap(), old.Hash(), old.GasFeeCap())
	}
}

// A node without eth_getBlockReceipts (some providers): after its first refusal, which is not
// asked again, reveals are followed one by one and still answered.
func TestNodeWithoutBlockReceipts(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	proxy.SetReply("eth_getBlockReceipts", `"error":{"code":-32000,"message":"the method eth_getBlockReceipts does not exist/is not available"}`, 0) // some providers' words, not -32601
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL})
	for i := range 3 {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(81+i))
		if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
			t.Fatalf("reveal %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	if m := scrape(t, s); !strings.Contains(m, `vaultd_chain_call_errors_total{call="block_receipts"} 1`+"\n") {
		t.Fatalf("eth_getBlockReceipts asked more than once after the node said it has none:\n%s", edgetest.Grep(m, "block_receipts"))
	}
}

// An idle relayer makes at most one chain call per balance poll: the watch loop sleeps while
// nothing is in flight (it used to read the head every receipt poll, ~10 calls a second).
func TestIdleRelayerBarelyCallsTheChain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	counter := devchaintest.CountCalls(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": counter.URL, "BALANCE_POLL_INTERVAL": "1s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 91)
	r := relayertest.Reveal(t, s, req)
	if r.StatusCode() != 200 { // the watch loop has had work, and is idle again
		t.Fatalf("reveal: %d %s", r.StatusCode(), r.Body)
	}
	// The round that settled the reveal still reads the pending nonce and the balance after the
	// flight left the in-flight set; its last step gives the gate back the reveal's reservation,
	// leaving the spend window at what the reveal paid.
	paid, _ := new(big.Float).Quo(new(big.Float).SetInt(costOf(t, c, r.JSON200.TxHash)), big.NewFloat(1e18)).Float64()
	edgetest.WaitFor(t, "the round that settled the reveal to end", func() bool {
		got, ok := edgetest.SeriesValue(scrape(t, s), "vaultd_relayer_spend_window_ether")
		return ok && got > paid*(1-1e-9) && got < paid*(1+1e-9)
	})
	counter.Take()
	const idle = 3 * time.Second
	time.Sleep(idle)
	byMethod, total := counter.Take()
	if total > 4 || byMethod["eth_blockNumber"] > 0 {
		t.Fatalf("an idle relayer made %d chain calls in %s with BALANCE_POLL_INTERVAL=1s (want ≤ 4, no eth_blockNumber): %v", total, idle, byMethod)
	}
	// And it still follows what it sends after an idle spell.
	_, req = relayertest.Request(t, c, relayertest.User(c, 1), 92)
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("reveal after an idle spell: %d %s", r.StatusCode(), r.Body)
	}
}

// The same reveal sent again while its transaction is pending, after a 504 TX_PENDING, and
// again after a restart of the relayer (which adopts the transaction from the pool), gets that
// transaction's outcome (504 while pending, 200 once mined) and never causes a second
// transaction; once the relayer has settled it, a repeat is NULLIFIER_USED.
func TestRepeatAfterTxPendingNeverPaysTwice(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 93)
	over := map[string]string{"RECEIPT_TIMEOUT": "1s", "REPLACE_AFTER": "500ms"}
	s := relayertest.Start(t, c, over)
	before := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	first := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "the reveal, not mined in time", first, 504, "TX_PENDING")
	again := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "the same reveal again", again, 504, "TX_PENDING")
	if n := relayertest.PendingOperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions sent for one nullifier", n-before)
	}

	s.Stop()
	s = relayertest.Start(t, c, over) // adopts the transaction from the pool, by its nullifier
	relayertest.WantCode(t, "the same reveal after a restart", relayertest.Reveal(t, s, req), 504, "TX_PENDING")
	if n := relayertest.PendingOperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions sent for one nullifier across a restart", n-before)
	}
	c.ResumeSealing()
	edgetest.WaitFor(t, "the reveal mined", func() bool { return relayertest.OperatorNonce(t, c) == before+1 })
	// Its outcome while the relayer still follows it, NULLIFIER_USED once it has settled (504
	// TX_PENDING again while the receipt is not yet read: RECEIPT_TIMEOUT is 1 s here).
	switch r := relayertest.Reveal(t, s, req); r.StatusCode() {
	case 200, 409:
	default:
		relayertest.WantCode(t, "the same reveal once mined", r, 504, "TX_PENDING")
	}
	edgetest.WaitFor(t, "NULLIFIER_USED", func() bool { return relayertest.Reveal(t, s, req).StatusCode() == 409 })
	if n := relayertest.OperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions mined for one nullifier", n-before)
	}
}

// With RPC_URL listing a node that is down before the dev chain, the relayer starts, pays a
// reveal through the fallback, and says which endpoint it uses (docs/chain.md).
func TestRevealThroughAFallbackRPCEndpoint(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	down := fmt.Sprintf("127.0.0.1:%d", edgetest.FreePort(t))
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": "http://" + down + "," + c.RPCURL})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 5)
	if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("reveal through the fallback: %d %s", r.StatusCode(), r.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_chain_endpoint 1\n") || !strings.Contains(m, "vaultd_chain_endpoint_switches_total 1\n") {
		t.Fatalf("metrics:\n%s", edgetest.Grep(m, "vaultd_chain_endpoint"))
	}
}

// The endpoint in use fails while a reveal's transaction is in flight (a proxy in front of the
// dev chain that starts answering 502): the relayer follows the transaction to its receipt
// through the fallback and answers 200, with one transaction sent.
func TestTheRPCEndpointFailsMidFlight(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	first := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": first.URL + "," + c.RPCURL, "RECEIPT_TIMEOUT": "10s", "REPLACE_AFTER": "5s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 6)
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	resp := revealAsync(t, s, req)
	edgetest.WaitFor(t, "the relayer's transaction in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == start+1 })
	first.SetRule(devchain.OnMethod("*", devchain.Refuse)) // the endpoint in use is down: 502
	c.ResumeSealing()
	if r := <-resp; r.StatusCode() != 200 {
		t.Fatalf("with the endpoint in use failing mid-flight: %d %s", r.StatusCode(), r.Body)
	}
	if n := relayertest.OperatorNonce(t, c); n != start+1 {
		t.Fatalf("operator sent %d transactions, want exactly 1", n-start)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_chain_endpoint 1\n") {
		t.Fatalf("metrics:\n%s", edgetest.Grep(m, "vaultd_chain_endpoint"))
	}
}

// Behind a gateway that forwards each reveal's transaction and then loses the answer (502, 429,
// a dropped connection), with the node itself as the fallback, every reveal is sent exactly once
// and answered 200: the send is not repeated on the fallback, whose "nonce too low" (the first
// copy mined meanwhile) once made the relayer sign the reveal again at the next nonce, which
// reverted, and the client was told 422 although its reveal had succeeded.
func TestLostAnswersToSendsRevealOnce(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	gateway := devchaintest.Faults(t, c.RPCURL)
	gateway.SetLostAnswerDelay(300 * time.Millisecond)
	faults := []devchain.Fault{devchain.LoseAnswer, devchain.Throttle, devchain.Drop}
	var sends atomic.Int64
	gateway.SetRule(func(method string) devchain.Fault {
		if method != "eth_sendRawTransaction" {
			return devchain.Pass
		}
		return faults[int(sends.Add(1))%len(faults)]
	})
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": gateway.URL + "," + c.RPCURL, "RECEIPT_TIMEOUT": "10s", "REPLACE_AFTER": "5s"})
	start := relayertest.OperatorNonce(t, c)
	for i := range 3 {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(60+i))
		if r := relayertest.Reveal(t, s, req); r.StatusCode() != 200 {
			t.Fatalf("reveal %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	if n := relayertest.OperatorNonce(t, c); n != start+3 {
		t.Fatalf("operator sent %d transactions for 3 reveals", n-start)
	}
}
