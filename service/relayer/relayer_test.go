package relayer_test

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
)

// A card redeemed through the relayer: the recipient, who never held gas, gets the tokens; the
// operator pays; the same card again is NULLIFIER_USED.
func TestRevealThroughRelayer(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, req := request(t, c, devUsers(c, 0), 777)
	resp := reveal(t, s, req)
	if resp.StatusCode() != 200 || resp.JSON200 == nil || !resp.JSON200.Success || resp.JSON200.GasUsed == "" || resp.JSON200.BlockNumber == 0 {
		t.Fatalf("reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	w := contracts.NewWrappedToken()
	recipient := common.HexToAddress(req.Recipient)
	bal, _ := bind.Call(w.Instance(c.Client(), c.Tokens[0].Address), nil, w.PackBalanceOf(recipient), w.UnpackBalanceOf)
	if bal.Cmp(big.NewInt(777)) != 0 {
		t.Fatalf("recipient holds %s", bal)
	}
	if eth, _ := c.Client().BalanceAt(ctx, recipient, nil); eth.Sign() != 0 {
		t.Fatal("the recipient paid gas")
	}
	again := reveal(t, s, req)
	wantCode(t, "the same card again", again, 409, "NULLIFIER_USED")
	if !strings.Contains(string(again.Body), "already spent") {
		t.Fatalf("message %s does not say the nullifier is already spent", again.Body)
	}
}

// A request failing several checks gets the first in the seed's order.
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, spentReq := request(t, c, devUsers(c, 0), 5)
	if resp := reveal(t, s, spentReq); resp.StatusCode() != 200 {
		t.Fatalf("setup reveal: %s", resp.Body)
	}
	_, fresh := request(t, c, devUsers(c, 1), 6)

	badRoot := func(r *relayerRequest) { r.PublicSignals[0] = "0x1234" }
	badProof := func(r *relayerRequest) { r.Proof.PiA[0] = "1"; r.Proof.PiA[1] = "1" }
	badRecipient := func(r *relayerRequest) { r.Recipient = "0x0000000000000000000000000000000000000000" }
	signalOverR := func(r *relayerRequest) { r.PublicSignals[4] = "0x" + strings.Repeat("f", 64) } // ≥ r: check 3
	badChecksum := func(r *relayerRequest) { r.Recipient = mixCase(r.Recipient) }
	for _, tc := range []struct {
		name   string
		base   relayerRequest
		breaks []func(*relayerRequest)
		status int
		code   string
	}{
		{"spent + bad root + bad proof + bad recipient", spentReq, []func(*relayerRequest){badRoot, badProof, badRecipient}, 409, "NULLIFIER_USED"},
		{"spent + a signal ≥ r", spentReq, []func(*relayerRequest){signalOverR}, 409, "NULLIFIER_USED"},
		{"bad root + a signal ≥ r", fresh, []func(*relayerRequest){badRoot, signalOverR}, 422, "UNKNOWN_ROOT"},
		{"a signal ≥ r", fresh, []func(*relayerRequest){signalOverR}, 422, "INVALID_PROOF"},
		{"bad root + bad proof + bad recipient", fresh, []func(*relayerRequest){badRoot, badProof, badRecipient}, 422, "UNKNOWN_ROOT"},
		{"bad proof + bad recipient", fresh, []func(*relayerRequest){badProof, badRecipient}, 422, "INVALID_PROOF"},
		{"zero recipient", fresh, []func(*relayerRequest){badRecipient}, 422, "INVALID_RECIPIENT"},
		{"bad checksum", fresh, []func(*relayerRequest){badChecksum}, 422, "INVALID_RECIPIENT"},
	} {
		r := clone(tc.base)
		for _, b := range tc.breaks {
			b(&r)
		}
		wantCode(t, tc.name, reveal(t, s, r), tc.status, tc.code)
	}
	if resp := reveal(t, s, fresh); resp.StatusCode() != 200 {
		t.Fatalf("the untouched request after the refusals: %s", resp.Body)
	}
}

// A learned gas limit too small for a reveal never sends a transaction that runs out of gas: the
// simulation runs within the limit, fails, and the reveal is estimated and sent with enough.
func TestLearnedGasLimitTooSmall(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	s.svc.SetLearnedGasLimit(150_000) // a reveal needs ~331k
	_, req := request(t, c, devUsers(c, 0), 31)
	resp := reveal(t, s, req)
	if resp.StatusCode() != 200 || resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	used, _ := new(big.Int).SetString(resp.JSON200.GasUsed, 10)
	if got := s.svc.LearnedGasLimit(); used == nil || got <= used.Uint64() {
		t.Fatalf("learned limit %d after a reveal that used %s", got, resp.JSON200.GasUsed)
	}
}

// A burst of reveals larger than what a node's pool keeps of one account's transactions that
// cannot be executed yet is mined without a single replacement: the reveals reach the node in
// nonce order, so its pool holds every one of them. Sealing is paused while they arrive (each
// request waits for its receipt), so that every reveal must wait in the pool. The dev chain's
// pool keeps 8 such transactions here (go-ethereum's default is 64; the limit, not its size, is
// what matters), so that three times as many reveals exceed it with few proofs.
// The relayer runs on Redis, as a fleet does: each version is also recorded in the nullifier's
// claim there, and those records ending in any order sent the reveals out of order, when sends
// went as soon as recorded; the pool then held 106 of 150 (at 64), the rest to be replaced at
// REPLACE_AFTER.
func TestABurstOfRevealsBeyondThePoolsQueueIsMinedWithoutReplacement(t *testing.T) {
	// Not in parallel: its reveals are verified all at once, and a neighbour's short timeouts
	// would lapse.
	const queue = 8
	const n = 3 * queue
	c := devchaintest.StartConfig(t, devchain.Config{AccountQueue: queue})
	// The spend limit off: the burst's reveals in flight at once, each reserved at its worst
	// case, exceed the default; this is about the node's pool. The lease is not what this tests: at
	// the harness's 1 s TTL a loaded machine can let it lapse mid-burst.
	redisURL, _ := redistest.Server(t)
	s := startRelayer(t, c, map[string]string{"RECEIPT_TIMEOUT": "2m", "OPERATOR_SPEND_LIMIT": "off", "REDIS_URL": redisURL, "OPERATOR_LEASE_TTL": "5s"})
	reqs := burstReveals(t, c)[:n] // partial reveals against one root: 24 inserts, within the 32 roots kept
	operator := c.Accounts.Operator.Address
	before, err := c.Client().PendingNonceAt(ctx, operator)
	if err != nil {
		t.Fatal(err)
	}
	c.PauseSealing()
	answers := make(chan *relayerapi.RevealResponse, n)
	for _, r := range reqs {
		go func() {
			resp, err := s.client.RevealWithResponse(ctx, r)
			if err != nil {
				t.Error(err)
			}
			answers <- resp
		}()
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pending, err := c.Client().PendingNonceAt(ctx, operator)
		if err == nil && pending == before+n {
			break
		}
		if time.Now().After(deadline) {
			c.ResumeSealing()
			t.Fatalf("the node's pool holds %d of the %d reveals after 30 s", pending-before, n)
		}
	}
	c.ResumeSealing()
	for range n {
		if r := <-answers; r == nil || r.StatusCode() != 200 {
			t.Fatalf("a reveal of the burst: %v", r)
		}
	}
	if m := scrape(t, s); !strings.Contains(m, "\nvaultd_relayer_transaction_replacements_total 0\n") {
		t.Fatalf("replacements were sent for the burst:\n%s", grepLines(m, "vaultd_relayer_transaction_re"))
	}
}
