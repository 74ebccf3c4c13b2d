package relayer_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// A card redeemed through the relayer: the recipient, who never held gas, gets the tokens; the
// operator pays; the same card again is NULLIFIER_USED.
func TestRevealThroughRelayer(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 777)
	resp := relayertest.Reveal(t, s, req)
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
	again := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "the same card again", again, 409, "NULLIFIER_USED")
	if !strings.Contains(string(again.Body), "already spent") {
		t.Fatalf("message %s does not say the nullifier is already spent", again.Body)
	}
}

// A request failing several checks gets the first in the order docs/relayer.md lists ("Before anything is sent").
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	_, spentReq := relayertest.Request(t, c, relayertest.User(c, 0), 5)
	if resp := relayertest.Reveal(t, s, spentReq); resp.StatusCode() != 200 {
		t.Fatalf("setup reveal: %s", resp.Body)
	}
	_, fresh := relayertest.Request(t, c, relayertest.User(c, 1), 6)

	badRoot := func(r *relayerapi.RevealRequest) { r.PublicSignals[0] = "0x1234" }
	badProof := func(r *relayerapi.RevealRequest) { r.Proof.PiA[0] = "1"; r.Proof.PiA[1] = "1" }
	badRecipient := func(r *relayerapi.RevealRequest) { r.Recipient = "0x0000000000000000000000000000000000000000" }
	signalOverR := func(r *relayerapi.RevealRequest) { r.PublicSignals[4] = "0x" + strings.Repeat("f", 64) } // ≥ r: check 3
	badChecksum := func(r *relayerapi.RevealRequest) { r.Recipient = mixCase(r.Recipient) }
	for _, tc := range []struct {
		name   string
		base   relayerapi.RevealRequest
		breaks []func(*relayerapi.RevealRequest)
		status int
		code   string
	}{
		{"spent + bad root + bad proof + bad recipient", spentReq, []func(*relayerapi.RevealRequest){badRoot, badProof, badRecipient}, 409, "NULLIFIER_USED"},
		{"spent + a signal ≥ r", spentReq, []func(*relayerapi.RevealRequest){signalOverR}, 409, "NULLIFIER_USED"},
		{"bad root + a signal ≥ r", fresh, []func(*relayerapi.RevealRequest){badRoot, signalOverR}, 422, "UNKNOWN_ROOT"},
		{"a signal ≥ r", fresh, []func(*relayerapi.RevealRequest){signalOverR}, 422, "INVALID_PROOF"},
		{"bad root + bad proof + bad recipient", fresh, []func(*relayerapi.RevealRequest){badRoot, badProof, badRecipient}, 422, "UNKNOWN_ROOT"},
		{"bad proof + bad recipient", fresh, []func(*relayerapi.RevealRequest){badProof, badRecipient}, 422, "INVALID_PROOF"},
		{"zero recipient", fresh, []func(*relayerapi.RevealRequest){badRecipient}, 422, "INVALID_RECIPIENT"},
		{"bad checksum", fresh, []func(*relayerapi.RevealRequest){badChecksum}, 422, "INVALID_RECIPIENT"},
	} {
		r := relayertest.Clone(tc.base)
		for _, b := range tc.breaks {
			b(&r)
		}
		relayertest.WantCode(t, tc.name, relayertest.Reveal(t, s, r), tc.status, tc.code)
	}
	if resp := relayertest.Reveal(t, s, fresh); resp.StatusCode() != 200 {
		t.Fatalf("the untouched request after the refusals: %s", resp.Body)
	}
}

// A learned gas limit too small for a reveal never sends a transaction that runs out of gas: the
// simulation runs within the limit, fails, and the reveal is estimated and sent with enough.
func TestLearnedGasLimitTooSmall(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	s.Svc.SetLearnedGasLimit(150_000) // a reveal needs ~331k
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 31)
	resp := relayertest.Reveal(t, s, req)
	if resp.StatusCode() != 200 || resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	used, _ := new(big.Int).SetString(resp.JSON200.GasUsed, 10)
	if got := s.Svc.LearnedGasLimit(); used == nil || got <= used.Uint64() {
		t.Fatalf("learned limit %d after a reveal that used %s", got, resp.JSON200.GasUsed)
	}
}
