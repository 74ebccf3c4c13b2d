package faucet_test

import (
	"math/big"
	"sync/atomic"

	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
)

// Behind a gateway that forwards a claim's transaction and then loses the answer (502, 429, or a
// dropped connection), with the node itself as RPC_URL's fallback, every claim is paid exactly
// once: the send is not repeated on the fallback (whose "nonce too low", once the first copy is
// mined, once made the faucet sign the payment again at the next nonce).
func TestLostAnswersToSendsPayOnce(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	gateway := devchaintest.Faults(t, c.RPCURL)
	faults := []devchain.Fault{devchain.LoseAnswer, devchain.Throttle, devchain.Drop}
	gateway.SetLostAnswerDelay(300 * time.Millisecond) // the first copy is mined before the faucet hears
	var sends atomic.Int64
	gateway.SetRule(func(method string) devchain.Fault {
		if method != "eth_sendRawTransaction" {
			return devchain.Pass
		}
		return faults[int(sends.Add(1))%len(faults)]
	})
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RPC_URL": gateway.URL + "," + c.RPCURL})
	const claims = 6
	addrs := make([]string, claims)
	for i := range addrs {
		addr := freshAddress(t)
		addrs[i] = addr.Hex()
		if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	for _, a := range addrs {
		addr := common.HexToAddress(a)
		waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
		if b := balance(t, c, addr); b.Cmp(amount) != 0 {
			t.Errorf("%s holds %s, want %s", a, b, amount)
		}
	}
	if n := nonce(t, c, wallet); n != before+claims {
		t.Fatalf("%d transactions for %d claims", n-before, claims)
	}
	if got := gateway.Counts(); got[devchain.LoseAnswer]+got[devchain.Throttle]+got[devchain.Drop] < claims {
		t.Fatalf("faults injected: %v", got)
	}
}

// A faucet stopped with a claim in the pool and restarted behind a provider whose receipt index
// lags (it serves the head and the state, and answers null for every receipt) does not take the
// claim's transaction, mined meanwhile, for displaced: it finds that transaction at the claim's
// nonce, waits for its receipt, and pays nothing twice.
func TestALaggingReceiptIndexIsNotDisplacement(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	c.PauseSealing()
	s := startFaucet(t, c, dir, nil)
	addr := freshAddress(t)
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	s.stop()
	c.ResumeSealing()
	waitFor(t, "the claim's transaction mined", func() bool { return nonce(t, c, wallet) == before+1 })
	for range 3 { // deep enough to be taken for a displacement
		fund(t, c, c.Accounts.Deployer.Key, freshAddress(t), big.NewInt(1))
	}

	lagging := devchaintest.Faults(t, c.RPCURL)
	lagging.SetRule(func(string) devchain.Fault { return devchain.NullReceipt })
	s = startFaucet(t, c, dir, map[string]string{"RPC_URL": lagging.URL, "DISPLACED_AFTER_BLOCKS": "1"})
	time.Sleep(3 * time.Second) // the start's reconciliation and a retry
	if n := nonce(t, c, wallet); n != before+1 {
		t.Fatalf("%d transactions for one claim behind a lagging receipt index", n-before)
	}
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusPending {
		t.Fatalf("with no receipt to read: %s", st.Body)
	}
	lagging.SetRule(nil) // the index catches up
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if n, b := nonce(t, c, wallet), balance(t, c, addr); n != before+1 || b.Cmp(amount) != 0 {
		t.Fatalf("%d transactions, balance %s", n-before, b)
	}
}

// A faucet holding less than one claim answers 503 FAUCET_BALANCE_LOW, and /ready 503, from its
// balance, also behind a node whose estimates do not check the balance (Hardhat's; here a proxy
// answering as it does): before, the estimate passed, the send was refused, and the claim got
// 502 CHAIN_UNAVAILABLE while /ready said 200.
func TestAWalletShortOfOneClaimIs503(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	key := freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(key), new(big.Int).Div(amount, big.NewInt(2))) // half a claim
	node := devchaintest.Faults(t, c.RPCURL)
	node.SetReply("eth_estimateGas", `"result":"0x5208"`, 0)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RPC_URL": node.URL, "FAUCET_PRIVATE_KEY": keyHex(key), "MIN_FAUCET_BALANCE": "0"})
	r := claim(t, s, freshAddress(t).Hex())
	wantError(t, "a claim the wallet cannot pay", r.StatusCode(), r.Body, 503, "FAUCET_BALANCE_LOW")
	ready, err := s.client.GetReadyWithResponse(ctx)
	if err != nil || ready.StatusCode() != 503 || ready.JSON503.Code != "FAUCET_BALANCE_LOW" {
		t.Fatalf("/ready: %v %s", err, ready.Body)
	}
}

// A faucet restarted with claims mined while it was down settles them from one batch of receipt
// lookups, not one request per claim: behind a node without eth_getBlockReceipts (Hardhat, many
// providers) the cost of a restart no longer grows with what was in flight.
func TestARestartLooksUpReceiptsInBatches(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	c.PauseSealing()
	s := startFaucet(t, c, dir, nil)
	const claims = 8
	addrs := make([]common.Address, claims)
	for i := range addrs {
		addrs[i] = freshAddress(t)
		if r := claim(t, s, addrs[i].Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	s.stop()
	c.ResumeSealing()
	waitFor(t, "the claims' transactions mined", func() bool { return nonce(t, c, wallet) == before+claims })

	node := devchaintest.Faults(t, c.RPCURL)
	node.SetRule(func(method string) devchain.Fault {
		if method == "eth_getBlockReceipts" {
			return devchain.MethodMissing
		}
		return devchain.Pass
	})
	s = startFaucet(t, c, dir, map[string]string{"RPC_URL": node.URL})
	for _, a := range addrs {
		waitStatus(t, s, a, faucetapi.ClaimStatusConfirmed)
	}
	if requests, calls := node.Requests("eth_getTransactionReceipt"), node.Calls("eth_getTransactionReceipt"); requests > 2 || calls < claims {
		t.Fatalf("%d receipt lookups in %d requests for %d claims; want them batched", calls, requests, claims)
	}
	if n := nonce(t, c, wallet); n != before+claims {
		t.Fatalf("%d transactions for %d claims", n-before, claims)
	}
}
