package relayer_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

func TestSignalMismatch(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 50)
	for name, f := range map[string]func(r *relayerapi.RevealRequest){
		"amount": func(r *relayerapi.RevealRequest) { r.Amount = "49" },
		"recipient": func(r *relayerapi.RevealRequest) {
			r.Recipient = crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey).Hex()
		},
		"token": func(r *relayerapi.RevealRequest) { r.TokenAddress = c.Tokens[1].Address.Hex() },
	} {
		r := relayertest.Clone(req)
		f(&r)
		relayertest.WantCode(t, name, relayertest.Reveal(t, s, r), 422, "SIGNAL_MISMATCH")
	}
}

// A well-formed proof that does not verify: off-chain verification says INVALID_PROOF; without
// the key, the simulation catches it and the vault's error is named.
func TestProofThatDoesNotVerify(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	withKey := relayertest.Start(t, c, nil)
	withoutKey := relayertest.Start(t, c, map[string]string{"VERIFICATION_KEY_FILE": ""})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 50)
	r := relayertest.Clone(req)
	r.Proof.PiA, r.Proof.PiC = r.Proof.PiC, r.Proof.PiA // still points on the curve
	relayertest.WantCode(t, "off-chain", relayertest.Reveal(t, withKey, r), 422, "INVALID_PROOF")
	resp := relayertest.Reveal(t, withoutKey, r)
	relayertest.WantCode(t, "simulated", resp, 422, "REVEAL_REJECTED")
	if !strings.Contains(string(resp.Body), "InvalidProof") {
		t.Fatalf("the decoded revert is not named: %s", resp.Body)
	}
	if h, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil); h != 0 {
		t.Fatalf("a refused request sent %d transactions", h)
	}
}

// Five identical requests at once make exactly one transaction; all get its outcome.
func TestDuplicateRequestsShareOneTransaction(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 31)
	before, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	var wg sync.WaitGroup
	bodies := make([]string, 5)
	codes := make([]int, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := relayertest.Reveal(t, s, req)
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
	s := relayertest.Start(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 4)
	for name, f := range map[string]func(r *relayerapi.RevealRequest){
		"five signals":      func(r *relayerapi.RevealRequest) { r.PublicSignals = r.PublicSignals[:5] },
		"decimal signal":    func(r *relayerapi.RevealRequest) { r.PublicSignals[0] = "123" },
		"short pi_a":        func(r *relayerapi.RevealRequest) { r.Proof.PiA = r.Proof.PiA[:2] },
		"bad recipient":     func(r *relayerapi.RevealRequest) { r.Recipient = "0x1234" },
		"amount zero":       func(r *relayerapi.RevealRequest) { r.Amount = "0" },
		"amount not digits": func(r *relayerapi.RevealRequest) { r.Amount = "1e18" },
		"amount too long":   func(r *relayerapi.RevealRequest) { r.Amount = strings.Repeat("9", 79) },
	} {
		r := relayertest.Clone(req)
		f(&r)
		resp := relayertest.Reveal(t, s, r)
		relayertest.WantCode(t, name, resp, 400, "INVALID_REQUEST")
	}
	// 2^256 passes the pattern (78 digits) but not the range.
	r := relayertest.Clone(req)
	r.Amount = "115792089237316195423570985008687907853269984665640564039457584007913129639936"
	relayertest.WantCode(t, "amount 2^256", relayertest.Reveal(t, s, r), 400, "INVALID_REQUEST")
	if n, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil); n != 0 {
		t.Fatal("a malformed request sent a transaction")
	}
}
