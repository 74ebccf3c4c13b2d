package relayer_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
)

func TestSignalMismatch(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, req := request(t, c, devUsers(c, 0), 50)
	for name, f := range map[string]func(r *relayerRequest){
		"amount":    func(r *relayerRequest) { r.Amount = "49" },
		"recipient": func(r *relayerRequest) { r.Recipient = crypto.PubkeyToAddress(freshKey(t).PublicKey).Hex() },
		"token":     func(r *relayerRequest) { r.TokenAddress = c.Tokens[1].Address.Hex() },
	} {
		r := clone(req)
		f(&r)
		wantCode(t, name, reveal(t, s, r), 422, "SIGNAL_MISMATCH")
	}
}

// A well-formed proof that does not verify: off-chain verification says INVALID_PROOF; without
// the key, the simulation catches it and the vault's error is named.
func TestProofThatDoesNotVerify(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	withKey := startRelayer(t, c, nil)
	withoutKey := startRelayer(t, c, map[string]string{"VERIFICATION_KEY_FILE": ""})
	_, req := request(t, c, devUsers(c, 0), 50)
	r := clone(req)
	r.Proof.PiA, r.Proof.PiC = r.Proof.PiC, r.Proof.PiA // still points on the curve
	wantCode(t, "off-chain", reveal(t, withKey, r), 422, "INVALID_PROOF")
	resp := reveal(t, withoutKey, r)
	wantCode(t, "simulated", resp, 422, "REVEAL_REJECTED")
	if !strings.Contains(string(resp.Body), "InvalidProof") {
		t.Fatalf("the decoded revert is not named: %s", resp.Body)
	}
	if h, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil); h != 0 {
		t.Fatalf("a refused request sent %d transactions", h)
	}
}

// 20 distinct reveals at once all succeed, with distinct, contiguous nonces (partial reveals of
// the burst's cards, proved once for the package).
func TestConcurrentReveals(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	const n = 20
	reqs := burstReveals(t, c)[:n]
	start, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	var wg sync.WaitGroup
	results := make([]*relayerapi.RevealResponse, n)
	for i := range reqs {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = reveal(t, s, reqs[i]) }()
	}
	wg.Wait()
	nonces := map[uint64]bool{}
	for i, resp := range results {
		if resp.StatusCode() != 200 {
			t.Fatalf("reveal %d: %d %s", i, resp.StatusCode(), resp.Body)
		}
		tx, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(resp.JSON200.TxHash))
		if err != nil {
			t.Fatal(err)
		}
		nonces[tx.Nonce()] = true
	}
	for i := start; i < start+n; i++ {
		if !nonces[i] {
			t.Fatalf("nonces %v are not %d..%d", nonces, start, start+n-1)
		}
	}
	if end, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil); end != start+n {
		t.Fatalf("operator nonce %d after %d reveals from %d", end, n, start)
	}
}

// Five identical requests at once make exactly one transaction; all get its outcome.
func TestDuplicateRequestsShareOneTransaction(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, req := request(t, c, devUsers(c, 0), 31)
	before, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	var wg sync.WaitGroup
	bodies := make([]string, 5)
	codes := make([]int, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := reveal(t, s, req)
			bodies[i], codes[i] = string(resp.Body), resp.StatusCode()
		}()
	}
	wg.Wait()
	after, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	if after-before != 1 {
		t.Fatalf("%d transactions for 5 identical requests", after-before)
	}
	successes := 0
	for i := range 5 {
		if codes[i] == 200 {
			successes++
		} else if codes[i] != 409 {
			t.Fatalf("request %d: %d %s", i, codes[i], bodies[i])
		}
	}
	if successes == 0 {
		t.Fatalf("no request got the success: %v", bodies)
	}
}

// Malformed requests are refused by the OpenAPI validation with 400 INVALID_REQUEST, naming the
// field, before any check.
func TestShapeErrors(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startRelayer(t, c, nil)
	_, req := request(t, c, devUsers(c, 0), 4)
	for name, f := range map[string]func(r *relayerRequest){
		"five signals":      func(r *relayerRequest) { r.PublicSignals = r.PublicSignals[:5] },
		"decimal signal":    func(r *relayerRequest) { r.PublicSignals[0] = "123" },
		"short pi_a":        func(r *relayerRequest) { r.Proof.PiA = r.Proof.PiA[:2] },
		"bad recipient":     func(r *relayerRequest) { r.Recipient = "0x1234" },
		"amount zero":       func(r *relayerRequest) { r.Amount = "0" },
		"amount not digits": func(r *relayerRequest) { r.Amount = "1e18" },
		"amount too long":   func(r *relayerRequest) { r.Amount = strings.Repeat("9", 79) },
	} {
		r := clone(req)
		f(&r)
		resp := reveal(t, s, r)
		wantCode(t, name, resp, 400, "INVALID_REQUEST")
	}
	// 2^256 passes the pattern (78 digits) but not the range.
	r := clone(req)
	r.Amount = "115792089237316195423570985008687907853269984665640564039457584007913129639936"
	wantCode(t, "amount 2^256", reveal(t, s, r), 400, "INVALID_REQUEST")
	if n, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil); n != 0 {
		t.Fatal("a malformed request sent a transaction")
	}
}
