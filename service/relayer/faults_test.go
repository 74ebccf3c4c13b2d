package relayer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/platform/platformtest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func operatorNonce(t testing.TB, c *devchain.Chain) uint64 {
	n, err := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func pendingOperatorNonce(t testing.TB, c *devchain.Chain) uint64 {
	n, err := c.Client().PendingNonceAt(ctx, c.Accounts.Operator.Address)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	platformtest.WaitFor(t, what, cond)
}

func revealAsync(t testing.TB, s *server, req relayerRequest) <-chan *relayerapi.RevealResponse {
	ch := make(chan *relayerapi.RevealResponse, 1)
	go func() {
		resp, err := s.client.RevealWithResponse(ctx, req)
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
	s := startRelayer(t, c, nil)
	_, req := request(t, c, devUsers(c, 0), 12)
	start := operatorNonce(t, c)

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
	waitFor(t, "the relayer's transaction in the pool", func() bool { return pendingOperatorNonce(t, c) == start+1 })
	c.ResumeSealing()
	r := <-resp
	wantCode(t, "revealed meanwhile", r, 422, "TX_REVERTED")
	if !strings.Contains(string(r.Body), `"txHash":"0x`) {
		t.Fatalf("no txHash: %s", r.Body)
	}
	// Its status says so, with the vault's reason and the transaction that was mined.
	var answer struct{ TxHash string }
	json.Unmarshal(r.Body, &answer)
	if st := status(t, s, req); st.State != "reverted" || st.TxHash == nil || *st.TxHash != answer.TxHash || st.BlockNumber == nil ||
		st.Reason == nil || !strings.HasPrefix(*st.Reason, "NullifierAlreadySpent(") {
		t.Fatalf("the reverted reveal's status: %+v", st)
	}
	time.Sleep(200 * time.Millisecond)
	if n := operatorNonce(t, c); n != start+1 {
		t.Fatalf("operator sent %d transactions, want exactly 1 (no retry)", n-start)
	}
}

// A transaction that is not mined in time is replaced (same nonce, higher fees) and the
// replacement's outcome is reported.
func TestLingeringTransactionIsReplaced(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, map[string]string{"REPLACE_AFTER": "200ms", "RECEIPT_TIMEOUT": "20s"})
	_, req := request(t, c, devUsers(c, 0), 13)
	start := operatorNonce(t, c)
	c.PauseSealing()
	resp := revealAsync(t, s, req)
	waitFor(t, "a replacement", func() bool { return strings.Contains(scrape(t, s), "vaultd_relayer_transaction_replacements_total 1") })
	c.ResumeSealing()
	r := <-resp
	if r.StatusCode() != 200 {
		t.Fatalf("after replacement: %d %s", r.StatusCode(), r.Body)
	}
	mined, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(r.JSON200.TxHash))
	if err != nil || mined.Nonce() != start {
		t.Fatalf("the mined transaction %v has nonce %d, want %d", err, mined.Nonce(), start)
	}
	if operatorNonce(t, c) != start+1 {
		t.Fatal("a nonce gap or an extra transaction")
	}
	next, _ := s.client.GetHealthWithResponse(ctx)
	if next.JSON200.NextNonce != int64(start+1) || next.JSON200.InFlight != 0 {
		t.Fatalf("health after the replacement: %s", next.Body)
	}
}

// A transaction not mined within RECEIPT_TIMEOUT is TX_PENDING with its hash; it stays in flight
// and is settled when it is mined later.
func TestReceiptTimeoutIsTxPending(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, map[string]string{"RECEIPT_TIMEOUT": "300ms", "REPLACE_AFTER": "250ms"})
	_, req := request(t, c, devUsers(c, 0), 17)
	c.PauseSealing()
	r := reveal(t, s, req)
	wantCode(t, "not mined in time", r, 504, "TX_PENDING")
	if !strings.Contains(string(r.Body), `"txHash":"0x`) {
		t.Fatalf("no txHash: %s", r.Body)
	}
	if h, _ := s.client.GetHealthWithResponse(ctx); h.JSON200.InFlight != 1 {
		t.Fatalf("in flight: %s", h.Body)
	}
	// The web app follows it by its nullifier instead of sending it again: pending, with the
	// newest version sent, then mined.
	if st := status(t, s, req); st.State != "pending" || st.TxHash == nil || st.BlockNumber != nil {
		t.Fatalf("the pending reveal's status: %+v", st)
	}
	c.ResumeSealing()
	waitFor(t, "the late transaction to settle", func() bool {
		h, _ := s.client.GetHealthWithResponse(ctx)
		return h.JSON200.InFlight == 0 && status(t, s, req).State != "pending"
	})
	st := status(t, s, req)
	if st.State != "mined" || st.TxHash == nil || st.BlockNumber == nil || st.GasUsed == nil || st.Reason != nil {
		t.Fatalf("the mined reveal's status: %+v", st)
	}
	rc, err := c.Client().TransactionReceipt(ctx, common.HexToHash(*st.TxHash))
	if err != nil || rc.Status != 1 || rc.BlockNumber.Int64() != *st.BlockNumber || fmt.Sprint(rc.GasUsed) != *st.GasUsed {
		t.Fatalf("the status %+v is not the chain's receipt (%v)", st, err)
	}
	// A nullifier this relayer never sent is unknown; one that is not 0x and 64 hex digits, 400.
	unknown, err := s.client.GetRevealWithResponse(ctx, common.Hash{1}.Hex())
	if err != nil || unknown.JSON200 == nil || unknown.JSON200.State != "unknown" || unknown.JSON200.TxHash != nil {
		t.Fatalf("an unknown nullifier: %v %s", err, unknown.Body)
	}
	bad, err := s.client.GetRevealWithResponse(ctx, "0x12")
	if err != nil || bad.StatusCode() != 400 || !strings.Contains(string(bad.Body), "INVALID_REQUEST") {
		t.Fatalf("a malformed nullifier: %v %d %s", err, bad.StatusCode(), bad.Body)
	}
}

// A transaction sent from the operator key by someone else is absorbed: the relayer's next send
// meets "nonce too low", resyncs and succeeds, with no gap.
func TestOutsideTransactionIsAbsorbed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, first := request(t, c, devUsers(c, 0), 14)
	if r := reveal(t, s, first); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	self := c.Accounts.Operator.Address
	tx, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &self, big.NewInt(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	devchain.WaitReceipt(ctx, c.Client(), tx.Hash())
	_, second := request(t, c, devUsers(c, 1), 15)
	if r := reveal(t, s, second); r.StatusCode() != 200 {
		t.Fatalf("after an outside transaction: %d %s", r.StatusCode(), r.Body)
	}
	_, third := request(t, c, devUsers(c, 2), 16)
	if r := reveal(t, s, third); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	if n := operatorNonce(t, c); n != 4 {
		t.Fatalf("operator nonce %d, want 4 (3 reveals + 1 outside)", n)
	}
}

// A transaction from the operator key waiting in the pool at the relayer's next nonce (the node
// answers "replacement transaction underpriced") is absorbed the same way: resync, next nonce.
func TestPendingOutsideTransactionIsAbsorbed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, first := request(t, c, devUsers(c, 0), 17)
	if r := reveal(t, s, first); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	_, second := request(t, c, devUsers(c, 1), 18)
	c.PauseSealing()
	self := c.Accounts.Operator.Address
	if _, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &self, big.NewInt(1), nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan *relayerapi.RevealResponse, 1)
	go func() { done <- reveal(t, s, second) }()
	for {
		h, err := s.client.GetHealthWithResponse(ctx)
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
	if n := operatorNonce(t, c); n != 3 {
		t.Fatalf("operator nonce %d, want 3 (2 reveals + 1 outside)", n)
	}
}

// The RPC stops answering in the middle of a request and comes back; a send is refused; a send's
// answer is lost. Each time nothing is left half-done and nothing is sent twice: afterwards
// reveals succeed with contiguous nonces.
func TestRPCFaults(t *testing.T) {
	// Not in parallel, and a 1 s RPC_TIMEOUT rather than less: a shorter one lapsed when other
	// work took the cores (other packages' tests, CI's other lanes).
	c := devchaintest.Start(t)
	proxy := newFaultProxy(t, c.RPCURL)
	s := startRelayer(t, c, map[string]string{"RPC_URL": proxy.url, "RPC_TIMEOUT": "1s", "RECEIPT_TIMEOUT": "3s", "REPLACE_AFTER": "2s"})
	start := operatorNonce(t, c)

	// 1. No answer to the send (nor to the lookup that follows): the transaction may have
	// reached a node, so it is followed by its hash and never signed again at another nonce:
	// 504 TX_PENDING with its hash. Once the node answers, the same transaction is broadcast
	// again and mined, and the same request gets its outcome.
	_, a := request(t, c, devUsers(c, 0), 21)
	proxy.set("eth_sendRawTransaction", true, false)
	proxy.set("eth_getTransactionByHash", true, false)
	pending := reveal(t, s, a)
	wantCode(t, "send hangs", pending, 504, "TX_PENDING")
	proxy.heal()
	if r := reveal(t, s, a); r.StatusCode() != 200 || pending.JSON504.TxHash == nil || r.JSON200.TxHash != *pending.JSON504.TxHash {
		t.Fatalf("the same request once the node answers: %d %s, want 200 with %s", r.StatusCode(), r.Body, pending.Body)
	}

	// 2. The whole RPC is down: 502 at the first check; back up, the same request succeeds.
	_, f := request(t, c, devUsers(c, 4), 25)
	proxy.down()
	wantCode(t, "RPC down", reveal(t, s, f), 502, "CHAIN_UNAVAILABLE")
	proxy.heal()
	if r := reveal(t, s, f); r.StatusCode() != 200 {
		t.Fatalf("after the RPC came back: %d %s", r.StatusCode(), r.Body)
	}

	// 3. The send's answer is lost although the node took it: the relayer finds the transaction
	// by its hash and reports its outcome instead of reusing the nonce.
	_, b := request(t, c, devUsers(c, 1), 22)
	proxy.set("eth_sendRawTransaction", false, true)
	if r := reveal(t, s, b); r.StatusCode() != 200 {
		t.Fatalf("lost answer: %d %s", r.StatusCode(), r.Body)
	}
	proxy.heal()

	// 4. The node refuses the send: 502, the nonce is not used.
	_, e := request(t, c, devUsers(c, 3), 24)
	proxy.refuseWith("eth_sendRawTransaction", "insufficient funds for gas * price + value")
	wantCode(t, "send refused", reveal(t, s, e), 502, "CHAIN_UNAVAILABLE")
	proxy.heal()

	_, d := request(t, c, devUsers(c, 2), 23)
	if r := reveal(t, s, d); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	if n := operatorNonce(t, c); n != start+4 {
		t.Fatalf("operator nonce %d after 4 mined reveals from %d: a gap or a duplicate", n, start)
	}
}

func cardRequest(r relayerRequest) card.Request {
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
	proxy := newFaultProxy(t, c.RPCURL)
	s := startRelayer(t, c, map[string]string{"RPC_URL": proxy.url, "RPC_TIMEOUT": "10s"})
	_, req := request(t, c, devUsers(c, 0), 41)

	proxy.stallUntilHeal("eth_call") // the chain checks wait
	firstCtx, leave := context.WithCancel(ctx)
	first := make(chan error, 1)
	go func() { _, err := s.client.RevealWithResponse(firstCtx, req); first <- err }()
	for proxy.hung.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	second := make(chan *relayerapi.RevealResponse, 1)
	go func() { second <- reveal(t, s, req) }()
	time.Sleep(200 * time.Millisecond) // the second request joins the first's outcome
	leave()
	if err := <-first; err == nil {
		t.Fatal("the first client's request finished although it left")
	}
	time.Sleep(100 * time.Millisecond) // let a cancellation, if any, reach the checks
	proxy.heal()
	if r := <-second; r.StatusCode() != 200 {
		t.Fatalf("the identical request: %d %s", r.StatusCode(), r.Body)
	}
}

// A nullifier spent between the relayer's read of it (check 1) and its simulation is answered
// as check 1 answers a spent one, 409 NULLIFIER_USED, not as a reveal the vault refuses.
func TestANullifierSpentDuringTheChecksIsUsed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := newFaultProxy(t, c.RPCURL)
	s := startRelayer(t, c, map[string]string{"RPC_URL": proxy.url, "RPC_TIMEOUT": "30s"})
	other := startRelayer(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(fundedKey(t, c)))})
	_, req := request(t, c, devUsers(c, 0), 43)
	proxy.stallUntilHeal("eth_estimateGas") // the simulation, after check 1
	first := revealAsync(t, s, req)
	waitFor(t, "the simulation to wait", func() bool { return proxy.hung.Load() > 0 })
	if r := reveal(t, other, req); r.StatusCode() != 200 {
		t.Fatalf("the reveal at the other relayer: %d %s", r.StatusCode(), r.Body)
	}
	proxy.heal()
	wantCode(t, "the reveal whose nullifier was spent during its checks", <-first, 409, "NULLIFIER_USED")
}

// A reveal the node refused to take is not counted against its recipient's limit: retried once
// the node takes transactions again, it goes through.
func TestRefusedSendIsNotCounted(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	proxy := newFaultProxy(t, c.RPCURL)
	s := startRelayer(t, c, map[string]string{"RPC_URL": proxy.url, "RATE_LIMIT_PER_RECIPIENT": "1/1h", "RATE_LIMIT_TOTAL": "1/1h"})
	_, req := request(t, c, devUsers(c, 0), 51)
	proxy.refuseWith("eth_sendRawTransaction", "insufficient funds for gas * price + value")
	wantCode(t, "send refused", reveal(t, s, req), 502, "CHAIN_UNAVAILABLE")
	proxy.heal()
	if r := reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("the same reveal once the node takes it: %d %s", r.StatusCode(), r.Body)
	}
}

// Stopping the relayer (SIGTERM) while a reveal waits to be mined: the reveal still gets its
// answer, because the transaction watcher outlives the server's drain.
func TestShutdownFinishesRevealsInFlight(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	port := platformtest.FreePort(t)
	cfg, err := relayer.LoadConfig(env(t, c, map[string]string{"PORT": strconv.Itoa(port), "RECEIPT_TIMEOUT": "20s", "REPLACE_AFTER": "10s"}))
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
	client, _ := relayerapi.NewClientWithResponses(url)
	waitFor(t, "the relayer serving", func() bool { _, err := client.GetHealthWithResponse(ctx); return err == nil })
	s := &server{svc: svc, url: url, client: client}

	_, req := request(t, c, devUsers(c, 0), 61)
	start := operatorNonce(t, c)
	c.PauseSealing()
	pending := revealAsync(t, s, req)
	waitFor(t, "the reveal in the pool", func() bool { return pendingOperatorNonce(t, c) == start+1 })
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
	_, req := request(t, c, devUsers(c, 0), 71)
	start := operatorNonce(t, c)
	c.PauseSealing()
	self := c.Accounts.Operator.Address
	old, err := devchain.SendTx(ctx, c, c.Accounts.Operator.Key, &self, big.NewInt(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := startRelayer(t, c, map[string]string{"REPLACE_AFTER": "200ms", "RECEIPT_TIMEOUT": "20s"})
	h, _ := s.client.GetHealthWithResponse(ctx)
	if h.JSON200.InFlight != 1 || h.JSON200.NextNonce != int64(start+1) {
		t.Fatalf("health with one operator transaction in the pool: %s", h.Body)
	}
	waitFor(t, "the lingering transaction replaced", func() bool {
		return strings.Contains(scrape(t, s), "vaultd_relayer_transaction_replacements_total 1")
	})
	pending := revealAsync(t, s, req)
	waitFor(t, "the reveal in the pool", func() bool { return pendingOperatorNonce(t, c) == start+2 })
	c.ResumeSealing()
	if r := <-pending; r.StatusCode() != 200 {
		t.Fatalf("the reveal behind it: %d %s", r.StatusCode(), r.Body)
	}
	waitFor(t, "nothing in flight", func() bool {
		h, _ := s.client.GetHealthWithResponse(ctx)
		return h.JSON200.InFlight == 0
	})
	if n := operatorNonce(t, c); n != start+2 {
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
	proxy := newFaultProxy(t, c.RPCURL)
	proxy.refuseWith("eth_getBlockReceipts", "the method eth_getBlockReceipts does not exist/is not available")
	s := startRelayer(t, c, map[string]string{"RPC_URL": proxy.url})
	for i := range 3 {
		_, req := request(t, c, devUsers(c, i), int64(81+i))
		if r := reveal(t, s, req); r.StatusCode() != 200 {
			t.Fatalf("reveal %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	if m := scrape(t, s); !strings.Contains(m, `vaultd_chain_call_errors_total{call="block_receipts"} 1`+"\n") {
		t.Fatalf("eth_getBlockReceipts asked more than once after the node said it has none:\n%s", grepLines(m, "block_receipts"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// An idle relayer makes at most one chain call per balance poll: the watch loop sleeps while
// nothing is in flight (it used to read the head every receipt poll, ~10 calls a second).
func TestIdleRelayerBarelyCallsTheChain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	counter := devchaintest.CountCalls(t, c.RPCURL)
	s := startRelayer(t, c, map[string]string{"RPC_URL": counter.URL, "BALANCE_POLL_INTERVAL": "1s"})
	_, req := request(t, c, devUsers(c, 0), 91)
	r := reveal(t, s, req)
	if r.StatusCode() != 200 { // the watch loop has had work, and is idle again
		t.Fatalf("reveal: %d %s", r.StatusCode(), r.Body)
	}
	// The round that settled the reveal still reads the pending nonce and the balance after the
	// flight left the in-flight set; its last step gives the gate back the reveal's reservation,
	// leaving the spend window at what the reveal paid.
	paid, _ := new(big.Float).Quo(new(big.Float).SetInt(costOf(t, c, r.JSON200.TxHash)), big.NewFloat(1e18)).Float64()
	waitFor(t, "the round that settled the reveal to end", func() bool {
		got, ok := platformtest.SeriesValue(scrape(t, s), "vaultd_relayer_spend_window_ether")
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
	_, req = request(t, c, devUsers(c, 1), 92)
	if r := reveal(t, s, req); r.StatusCode() != 200 {
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
	_, req := request(t, c, devUsers(c, 0), 93)
	over := map[string]string{"RECEIPT_TIMEOUT": "1s", "REPLACE_AFTER": "500ms"}
	s := startRelayer(t, c, over)
	before := pendingOperatorNonce(t, c)
	c.PauseSealing()
	first := reveal(t, s, req)
	wantCode(t, "the reveal, not mined in time", first, 504, "TX_PENDING")
	again := reveal(t, s, req)
	wantCode(t, "the same reveal again", again, 504, "TX_PENDING")
	if n := pendingOperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions sent for one nullifier", n-before)
	}

	s.stop()
	s = startRelayer(t, c, over) // adopts the transaction from the pool, by its nullifier
	wantCode(t, "the same reveal after a restart", reveal(t, s, req), 504, "TX_PENDING")
	if n := pendingOperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions sent for one nullifier across a restart", n-before)
	}
	c.ResumeSealing()
	waitFor(t, "the reveal mined", func() bool { return operatorNonce(t, c) == before+1 })
	// Its outcome while the relayer still follows it, NULLIFIER_USED once it has settled (504
	// TX_PENDING again while the receipt is not yet read: RECEIPT_TIMEOUT is 1 s here).
	switch r := reveal(t, s, req); r.StatusCode() {
	case 200, 409:
	default:
		wantCode(t, "the same reveal once mined", r, 504, "TX_PENDING")
	}
	waitFor(t, "NULLIFIER_USED", func() bool { return reveal(t, s, req).StatusCode() == 409 })
	if n := operatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions mined for one nullifier", n-before)
	}
}

// Forty partial reveals proved against one root and sent at once: each mined one inserts its
// change note, and the tree keeps 32 roots, so the relayer sends the first 32 and refuses the
// rest before paying (409 ROOT_EXPIRING: prove again against the current root). None reverts.
func TestBurstOfPartialRevealsAgainstOneRootNeverReverts(t *testing.T) {
	// Not in parallel: its two provers take both cores, and a neighbour's short timeouts
	// would lapse.
	c := devchaintest.Start(t)
	// The spend limit off: forty reveals in flight at once, each reserved at its worst case (gas
	// at MAX_FEE_PER_GAS), exceed the default; this is about the root history.
	s := startRelayer(t, c, map[string]string{"RECEIPT_TIMEOUT": "2m", "OPERATOR_SPEND_LIMIT": "off"})
	burstAgainstOneRoot(t, c, []*server{s}, []common.Address{c.Accounts.Operator.Address})
}

// The same burst spread over two replicas sharing a Redis, each with its own key: the inserts
// in flight are counted for the fleet, so still 32 sent and 8 refused, none reverted (each
// replica counting only its own would send 40, and 8 would revert).
func TestBurstOfPartialRevealsAcrossReplicasNeverReverts(t *testing.T) {
	// Not in parallel: its two provers take both cores, and a neighbour's short timeouts
	// would lapse.
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	var keys []string
	var wallets []common.Address
	for range 2 {
		k := fundedKey(t, c)
		keys, wallets = append(keys, hexutil.Encode(crypto.FromECDSA(k))), append(wallets, crypto.PubkeyToAddress(k.PublicKey))
	}
	// The leases are not what this tests: at the harness's 1 s TTL, a loaded CI machine once let
	// one lapse mid-burst (two reveals 503 OPERATOR_KEY_UNAVAILABLE).
	over := map[string]string{"RECEIPT_TIMEOUT": "2m", "REDIS_URL": url, "OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEYS": strings.Join(keys, ","),
		"OPERATOR_SPEND_LIMIT": "off", "OPERATOR_LEASE_TTL": "5s"}
	burstAgainstOneRoot(t, c, []*server{startRelayer(t, c, over), startRelayer(t, c, over)}, wallets)
}

// burstAgainstOneRoot sends forty partial reveals proved against one root at once, spread over
// servers, and checks that 32 were sent (from wallets) and mined, the rest refused with
// ROOT_EXPIRING, none reverted.
func burstAgainstOneRoot(t *testing.T, c *devchain.Chain, servers []*server, wallets []common.Address) {
	reqs := burstReveals(t, c)
	n := len(reqs)

	nonces := func(pending bool) (sum uint64) {
		for _, w := range wallets {
			var n uint64
			var err error
			if pending {
				n, err = c.Client().PendingNonceAt(ctx, w)
			} else {
				n, err = c.Client().NonceAt(ctx, w, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			sum += n
		}
		return sum
	}
	before := nonces(false)
	c.PauseSealing()
	answers := make(chan *relayerapi.RevealResponse, n)
	for i, r := range reqs {
		go func() {
			resp, err := servers[i%len(servers)].client.RevealWithResponse(ctx, r)
			if err != nil {
				t.Error(err)
			}
			answers <- resp
		}()
	}
	var got []*relayerapi.RevealResponse
	waitFor(t, "every reveal sent or refused", func() bool {
		for len(answers) > 0 {
			got = append(got, <-answers)
		}
		return int(nonces(true)-before)+len(got) == n
	})
	sent := nonces(true) - before
	c.ResumeSealing()
	for len(got) < n {
		got = append(got, <-answers)
	}
	codes := map[string]int{}
	for _, r := range got {
		var body struct{ Code string }
		json.Unmarshal(r.Body, &body)
		if r.StatusCode() == 200 {
			body.Code = "200"
		}
		codes[body.Code]++
	}
	if sent != 32 || codes["200"] != 32 || codes["ROOT_EXPIRING"] != n-32 {
		t.Fatalf("%d sent, answers %v; want 32 sent and mined, %d refused with ROOT_EXPIRING, none reverted", sent, codes, n-32)
	}
	if mined := nonces(false) - before; mined != 32 {
		t.Fatalf("%d transactions mined, want 32", mined)
	}
}

// burstReveals commits the burst's forty cards to c and returns their partial reveals, all
// proved against the tree that holds them (one root): proved once for the package, so a test
// that needs many reveals sent at once takes them from here rather than proving its own.
func burstReveals(t *testing.T, c *devchain.Chain) []relayerRequest {
	t.Helper()
	cards := make([]card.Card, 40)
	for i := range cards {
		cards[i] = burstCard(t, c, i)
	}
	tree, err := card.Tree(ctx, c.Client(), c.Contracts.CommitmentTree)
	if err != nil {
		t.Fatal(err)
	}
	return burstRequests(t, cards, tree)
}

// burstCard commits the i-th card of a burst to c, from a dev user's account. Its secrets are
// fixed by i: each burst commits the same cards in the same order to a fresh dev chain, so
// every burst's tree is the same, and so are its proofs (burstRequests).
func burstCard(t *testing.T, c *devchain.Chain, i int) card.Card {
	t.Helper()
	chainID, err := c.Client().ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cd := card.Card{ChainID: chainID.Uint64(), Vault: c.Contracts.Vault, Token: c.Tokens[0].Address, Amount: big.NewInt(int64(1000 + i)),
		Secret: big.NewInt(int64(1_000_001 + i)), NullifierSecret: big.NewInt(int64(2_000_001 + i))}
	key := devUsers(c, i)
	if _, err := card.Send(ctx, c.Client(), key, cd.Token, contracts.NewWrappedToken().PackApprove(cd.Vault, cd.Amount)); err != nil {
		t.Fatal(err)
	}
	commit := contracts.NewCommitRevealVault().PackCommit(cd.Token, cd.Amount, common.BigToHash(zk.Commitment(cd.Secret, cd.NullifierSecret)))
	if _, err := card.Send(ctx, c.Client(), key, cd.Vault, commit); err != nil {
		t.Fatal(err)
	}
	return cd
}

// burst holds the partial reveals of the burst's cards, proved once for the package against the
// tree every burst's dev chain holds (proving forty took each burst test 40 s of CPU on a loaded
// machine).
var burst struct {
	once sync.Once
	root *big.Int
	reqs []relayerRequest
}

// burstRequests returns the partial reveals of cards proved against tree, two provers at a
// time, the first time; later, the same reveals, after checking that tree is the one they were
// proved against.
func burstRequests(t *testing.T, cards []card.Card, tree *zk.Tree) []relayerRequest {
	t.Helper()
	burst.once.Do(func() {
		reqs := make([]relayerRequest, len(cards))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 2)
		for i := range cards {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				reqs[i] = partialRequest(t, cards[i], tree)
			})
		}
		wg.Wait()
		if !t.Failed() {
			burst.root, burst.reqs = tree.Root(), reqs
		}
	})
	if burst.reqs == nil {
		t.Fatal("the burst's reveals were not proved (the test proving them failed)")
	}
	if root := tree.Root(); root.Cmp(burst.root) != 0 {
		t.Fatalf("this dev chain's tree has root %#x, the burst's reveals were proved against %#x: its cards or its deployment differ from the first burst's", root, burst.root)
	}
	reqs := make([]relayerRequest, len(burst.reqs))
	for i, r := range burst.reqs {
		reqs[i] = clone(r)
	}
	return reqs
}

// partialRequest proves the reveal of half of cd against tree, with a change note.
func partialRequest(t testing.TB, cd card.Card, tree *zk.Tree) relayerRequest {
	note, err := cd.Note()
	if err != nil {
		t.Fatal(err)
	}
	index := -1
	for i := range tree.Len() {
		if tree.Leaf(i).Cmp(note.Leaf()) == 0 {
			index = i
		}
	}
	secret, nullifierSecret, err := card.NewSecrets()
	if err != nil {
		t.Fatal(err)
	}
	recipient := crypto.PubkeyToAddress(freshKey(t).PublicKey)
	half := new(big.Int).Div(cd.Amount, big.NewInt(2))
	proof, signals, err := keys(t).Prove(zk.RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: half, Recipient: recipient,
		ChangeSecret: secret, ChangeNullifierSecret: nullifierSecret})
	if err != nil {
		t.Fatal(err)
	}
	return toAPI(t, card.Request{Proof: proof.JSON(), PublicSignals: signals.Hex(), Recipient: recipient.Hex(), TokenAddress: cd.Token.Hex(), Amount: half.String()})
}

// With RPC_URL listing a node that is down before the dev chain, the relayer starts, pays a
// reveal through the fallback, and says which endpoint it uses (docs/chain.md).
func TestRevealThroughAFallbackRPCEndpoint(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	down := fmt.Sprintf("127.0.0.1:%d", platformtest.FreePort(t))
	s := startRelayer(t, c, map[string]string{"RPC_URL": "http://" + down + "," + c.RPCURL})
	_, req := request(t, c, devUsers(c, 0), 5)
	if r := reveal(t, s, req); r.StatusCode() != 200 {
		t.Fatalf("reveal through the fallback: %d %s", r.StatusCode(), r.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_chain_endpoint 1\n") || !strings.Contains(m, "vaultd_chain_endpoint_switches_total 1\n") {
		t.Fatalf("metrics:\n%s", grepLines(m, "vaultd_chain_endpoint"))
	}
}

// The endpoint in use fails while a reveal's transaction is in flight (a proxy in front of the
// dev chain that starts answering 503): the relayer follows the transaction to its receipt
// through the fallback and answers 200, with one transaction sent.
func TestTheRPCEndpointFailsMidFlight(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	var down atomic.Bool
	target, _ := url.Parse(c.RPCURL)
	rp := httputil.NewSingleHostReverseProxy(target)
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(first.Close)
	s := startRelayer(t, c, map[string]string{"RPC_URL": first.URL + "," + c.RPCURL, "RECEIPT_TIMEOUT": "10s", "REPLACE_AFTER": "5s"})
	_, req := request(t, c, devUsers(c, 0), 6)
	start := operatorNonce(t, c)
	c.PauseSealing()
	resp := revealAsync(t, s, req)
	waitFor(t, "the relayer's transaction in the pool", func() bool { return pendingOperatorNonce(t, c) == start+1 })
	down.Store(true)
	c.ResumeSealing()
	if r := <-resp; r.StatusCode() != 200 {
		t.Fatalf("with the endpoint in use failing mid-flight: %d %s", r.StatusCode(), r.Body)
	}
	if n := operatorNonce(t, c); n != start+1 {
		t.Fatalf("operator sent %d transactions, want exactly 1", n-start)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_chain_endpoint 1\n") {
		t.Fatalf("metrics:\n%s", grepLines(m, "vaultd_chain_endpoint"))
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
	s := startRelayer(t, c, map[string]string{"RPC_URL": gateway.URL + "," + c.RPCURL, "RECEIPT_TIMEOUT": "10s", "REPLACE_AFTER": "5s"})
	start := operatorNonce(t, c)
	for i := range 3 {
		_, req := request(t, c, devUsers(c, i), int64(60+i))
		if r := reveal(t, s, req); r.StatusCode() != 200 {
			t.Fatalf("reveal %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	if n := operatorNonce(t, c); n != start+3 {
		t.Fatalf("operator sent %d transactions for 3 reveals", n-start)
	}
}
