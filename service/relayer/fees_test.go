package relayer_test

import (
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// feeCard is the amount of the cards the fee tests reveal: above any fee at the dev chain's fees
// and the test's price.
const feeCard = 1_000_000_000

// feeEnv is a relayer paid by fees alone (its treasury off), with a price for the chain's first
// token only.
func feeEnv(c *devchain.Chain, price string) map[string]string {
	return map[string]string{"RELAYER_FUNDING": "fee", "RELAYER_TOKEN_PRICES": c.Tokens[0].Address.Hex() + "=" + price}
}

func askQuote(t testing.TB, s *relayertest.Server, token common.Address, amount int64, partial ...bool) *relayerapi.QuoteResponse {
	t.Helper()
	req := relayerapi.QuoteRequest{TokenAddress: token.Hex(), Amount: big.NewInt(amount).String()}
	if len(partial) > 0 {
		req.Partial = &partial[0]
	}
	resp, err := s.Client.QuoteWithResponse(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func mustQuote(t testing.TB, s *relayertest.Server, token common.Address, amount int64, partial ...bool) relayerapi.Quote {
	t.Helper()
	resp := askQuote(t, s, token, amount, partial...)
	if resp.JSON200 == nil {
		t.Fatalf("POST /quote: %d %s", resp.StatusCode(), resp.Body)
	}
	return *resp.JSON200
}

// proveWithFee proves the whole reveal of cd to recipient paying fee (signal [3] is their
// binding), and makes the relayer's request of it, carrying q.
func proveWithFee(t testing.TB, c *devchain.Chain, cd card.Card, recipient common.Address, fee zk.Fee, q relayerapi.Quote) relayerapi.RevealRequest {
	t.Helper()
	return provePartWithFee(t, c, cd, nil, recipient, fee, q)
}

// provePartWithFee is proveWithFee revealing amount of cd (nil: all of it).
func provePartWithFee(t testing.TB, c *devchain.Chain, cd card.Card, amount *big.Int, recipient common.Address, fee zk.Fee, q relayerapi.Quote) relayerapi.RevealRequest {
	t.Helper()
	tree, err := card.Tree(ctx, c.Client(), c.Contracts.Vault)
	if err != nil {
		t.Fatal(err)
	}
	zr, _, err := note.Reveal(cd, tree, recipient, amount)
	if err != nil {
		t.Fatal(err)
	}
	zr.Fee = &fee
	proof, signals, err := relayertest.Keys(t).Prove(zr)
	if err != nil {
		t.Fatal(err)
	}
	req := card.ToAPI(note.RequestOf(cd, zr, proof, signals))
	req.Fee = &relayerapi.RevealFee{Amount: fee.Amount.String(), Receiver: fee.Receiver.Hex(), Quote: q}
	return req
}

func newCard(t testing.TB, c *devchain.Chain, user int, token common.Address, amount int64) card.Card {
	t.Helper()
	cd, _, err := card.Create(ctx, c.Client(), relayertest.User(c, user), c.Contracts.Vault, token, big.NewInt(amount))
	if err != nil {
		t.Fatal(err)
	}
	return cd
}

func balanceOf(t testing.TB, c *devchain.Chain, token, who common.Address) *big.Int {
	t.Helper()
	w := contracts.NewWrappedToken()
	b, err := bind.Call(w.Instance(c.Client(), token), nil, w.PackBalanceOf(who), w.UnpackBalanceOf)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bigOf(t testing.TB, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("%q is not a decimal integer", s)
	}
	return v
}

// A quoted fee, proved into the reveal: the relayer sends revealWithFee, the recipient gets
// amount − fee and the relayer's receiver (the operator, by default) the fee, read from the
// chain; the quote's fee is its parts' sum, signed by the operator key. The same reveal again is
// NULLIFIER_USED, as any reveal's.
func TestAQuotedFeeRevealPaysTheRecipientAndTheReceiver(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, feeEnv(c, "1000000"))
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address

	asked := time.Now()
	q := mustQuote(t, s, token, feeCard)
	fee := bigOf(t, q.Fee)
	cost := new(big.Int).Mul(big.NewInt(q.Gas), bigOf(t, q.FeePerGas))
	cost.Mul(cost, big.NewInt(11_000))
	want := new(big.Int).Div(new(big.Int).Add(cost, big.NewInt(10_000*1_000_000-1)), big.NewInt(10_000*1_000_000)) // ÷ 10,000 bps, ÷ the price, up
	if q.Price != "1000000" || q.MarginBps != 1000 || q.Gas != 351_000 || fee.Cmp(want) != 0 || fee.Sign() <= 0 {
		t.Fatalf("quote %+v: fee %s, want %s from its parts", q, fee, want)
	}
	if q.FeeReceiver != operator.Hex() || q.Signer != operator.Hex() || q.Partial || q.ChainId != int64(c.ChainID) || q.Vault != c.Contracts.Vault.Hex() {
		t.Fatalf("quote %+v: want the operator as receiver and signer, whole, this chain's vault", q)
	}
	if life := time.Unix(q.ExpiresAt, 0).Sub(asked); life < 4*time.Minute || life > 6*time.Minute {
		t.Fatalf("the quote lives %s, want the default 5 minutes", life)
	}

	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	req := proveWithFee(t, c, newCard(t, c, 0, token, feeCard), recipient, zk.Fee{Amount: fee, Receiver: operator}, q)
	before := balanceOf(t, c, token, operator)
	resp := relayertest.Reveal(t, s, req)
	if resp.JSON200 == nil {
		t.Fatalf("the fee-paying reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	t.Logf("a whole reveal paying a fee used %s gas", resp.JSON200.GasUsed)
	if got, want := balanceOf(t, c, token, recipient), new(big.Int).Sub(big.NewInt(feeCard), fee); got.Cmp(want) != 0 {
		t.Errorf("the recipient holds %s, want amount − fee = %s", got, want)
	}
	if got := new(big.Int).Sub(balanceOf(t, c, token, operator), before); got.Cmp(fee) != 0 {
		t.Errorf("the receiver got %s, want the fee %s", got, fee)
	}
	if gas := bigOf(t, resp.JSON200.GasUsed); gas.Cmp(big.NewInt(q.Gas)) > 0 {
		t.Errorf("the reveal used %s gas, more than the %d its fee paid for", gas, q.Gas)
	}
	relayertest.WantCode(t, "the same reveal again", relayertest.Reveal(t, s, req), 409, "NULLIFIER_USED")
	earned := func() float64 {
		t.Helper()
		f, _ := edgetest.SeriesValue(scrape(t, s), `vaultd_relayer_fees_earned_total{token="`+token.Hex()+`"}`)
		return f
	}
	if got, want := earned(), float64(fee.Int64()); got != want {
		t.Errorf("vaultd_relayer_fees_earned_total of the token is %v, want the fee %v", got, want)
	}

	// A partial reveal pays the fee of its kind; a whole reveal's quote does not apply to it.
	const part = feeCard / 2
	pq, wq := mustQuote(t, s, token, part, true), mustQuote(t, s, token, part)
	pfee := bigOf(t, pq.Fee)
	if !pq.Partial || pq.Gas <= wq.Gas || pfee.Cmp(bigOf(t, wq.Fee)) <= 0 {
		t.Fatalf("partial quote %+v, whole %+v: want more gas and a higher fee", pq, wq)
	}
	other := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	preq := provePartWithFee(t, c, newCard(t, c, 1, token, feeCard), big.NewInt(part), other, zk.Fee{Amount: pfee, Receiver: operator}, wq)
	relayertest.WantCode(t, "a partial reveal on a whole reveal's quote", relayertest.Reveal(t, s, preq), 422, "QUOTE_INVALID")
	preq.Fee.Quote = pq
	before = balanceOf(t, c, token, operator)
	if resp = relayertest.Reveal(t, s, preq); resp.JSON200 == nil {
		t.Fatalf("the partial fee-paying reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	t.Logf("a partial reveal paying a fee used %s gas", resp.JSON200.GasUsed)
	if got, want := balanceOf(t, c, token, other), new(big.Int).Sub(big.NewInt(part), pfee); got.Cmp(want) != 0 {
		t.Errorf("the partial reveal's recipient holds %s, want %s", got, want)
	}
	if got := new(big.Int).Sub(balanceOf(t, c, token, operator), before); got.Cmp(pfee) != 0 {
		t.Errorf("the receiver got %s of the partial reveal, want %s", got, pfee)
	}
	if gas := bigOf(t, resp.JSON200.GasUsed); gas.Cmp(big.NewInt(pq.Gas)) > 0 {
		t.Errorf("the partial reveal used %s gas, more than the %d its fee paid for", gas, pq.Gas)
	}
}

// Every way a relayer refuses a fee, and nothing sent for any: the operator's nonce is
// unchanged and every card unspent.
func TestFeeRefusals(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, feeEnv(c, "1000000"))
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	nonce, err := c.Client().PendingNonceAt(ctx, operator)
	if err != nil {
		t.Fatal(err)
	}
	q := mustQuote(t, s, token, feeCard)
	fee := bigOf(t, q.Fee)
	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	var reqs []relayerapi.RevealRequest
	refused := func(what string, req relayerapi.RevealRequest, status int, code string) {
		t.Helper()
		reqs = append(reqs, req)
		relayertest.WantCode(t, what, relayertest.Reveal(t, s, req), status, code)
	}

	_, unpaid := relayertest.Request(t, c, relayertest.User(c, 0), feeCard)
	refused("no fee, the treasury off", unpaid, 402, "PAYMENT_REQUIRED")

	other := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	refused("the fee to someone else", proveWithFee(t, c, newCard(t, c, 0, token, feeCard), recipient, zk.Fee{Amount: fee, Receiver: other}, q),
		422, "FEE_RECEIVER_MISMATCH")

	less := new(big.Int).Sub(fee, big.NewInt(1))
	low := proveWithFee(t, c, newCard(t, c, 1, token, feeCard), recipient, zk.Fee{Amount: less, Receiver: operator}, q)
	refused("a fee below the quote's", low, 402, "FEE_TOO_LOW")
	if body := relayertest.Reveal(t, s, low).Body; !strings.Contains(string(body), "below the quote's") {
		t.Errorf("a fee below the quote's: %s", body)
	}

	forged := relayertest.Clone(low)
	forged.Fee.Quote.Fee = less.String() // the quote says what the fee is: not the relayer's signature any more
	refused("a quote changed", forged, 422, "QUOTE_INVALID")

	elsewhere := relayertest.Clone(low)
	elsewhere.Fee.Quote = mustQuote(t, s, token, feeCard+1) // signed, but for another amount
	refused("a quote for another reveal", elsewhere, 422, "QUOTE_INVALID")

	unpriced := c.Tokens[1].Address
	if resp := askQuote(t, s, unpriced, feeCard); resp.StatusCode() != 422 || !codeIs(resp.Body, "TOKEN_NOT_PRICED") {
		t.Errorf("a quote for a token without a price: %d %s", resp.StatusCode(), resp.Body)
	}
	refused("a token without a price", proveWithFee(t, c, newCard(t, c, 1, unpriced, feeCard), recipient, zk.Fee{Amount: fee, Receiver: operator}, q),
		422, "TOKEN_NOT_PRICED")

	if resp := askQuote(t, s, token, 1); resp.StatusCode() != 422 || !codeIs(resp.Body, "AMOUNT_TOO_SMALL") {
		t.Errorf("a quote for 1 unit: %d %s", resp.StatusCode(), resp.Body)
	}

	for _, req := range reqs {
		if st := relayertest.Status(t, s, req); st.State != relayerapi.RevealStatusStateUnknown {
			t.Errorf("a refused reveal is %s", st.State)
		}
	}
	if after, err := c.Client().PendingNonceAt(ctx, operator); err != nil || after != nonce {
		t.Fatalf("the operator's nonce went from %d to %d (%v): something was sent", nonce, after, err)
	}
}

// A quote sent back with one of its integers negated is refused 400 INVALID_REQUEST, nothing
// sent: a digest of the magnitudes alone would take -1000 for the 1000 the relayer signed (and
// so a negated margin, fee or expiry for its own signature). The document's validator refuses
// them over HTTP with the same answer; the relayer refuses them itself (the edge's parseReveal, under
// the validator). The quote as answered pays for the reveal after.
func TestAQuoteWithANegativeNumberIsRefused(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, feeEnv(c, "1000000"))
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	q := mustQuote(t, s, token, feeCard)
	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	req := proveWithFee(t, c, newCard(t, c, 0, token, feeCard), recipient, zk.Fee{Amount: bigOf(t, q.Fee), Receiver: operator}, q)
	nonce := relayertest.PendingOperatorNonce(t, c)
	for name, negate := range map[string]func(*relayerapi.Quote){
		"chainId":   func(q *relayerapi.Quote) { q.ChainId = -q.ChainId },
		"amount":    func(q *relayerapi.Quote) { q.Amount = "-" + q.Amount },
		"fee":       func(q *relayerapi.Quote) { q.Fee = "-" + q.Fee },
		"expiresAt": func(q *relayerapi.Quote) { q.ExpiresAt = -q.ExpiresAt },
		"gas":       func(q *relayerapi.Quote) { q.Gas = -q.Gas },
		"feePerGas": func(q *relayerapi.Quote) { q.FeePerGas = "-" + q.FeePerGas },
		"marginBps": func(q *relayerapi.Quote) { q.MarginBps = -q.MarginBps },
	} {
		r := relayertest.Clone(req)
		negate(&r.Fee.Quote)
		_, err := s.Svc.Reveal(ctx, r)
		if re, ok := errors.AsType[*relayer.RevealError](err); !ok || re.Reason != relayer.InvalidInput || !strings.Contains(re.Message, "fee.quote."+name) {
			t.Errorf("the quote's %s negated: %v, want the relayer's InvalidInput naming it (400 INVALID_REQUEST)", name, err)
		}
		relayertest.WantCode(t, "the quote's "+name+" negated, over HTTP", relayertest.Reveal(t, s, r), 400, "INVALID_REQUEST")
	}
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("refused quotes sent %d transactions", n-nonce)
	}
	if resp := relayertest.Reveal(t, s, req); resp.JSON200 == nil {
		t.Fatalf("the reveal with its quote as answered: %d %s", resp.StatusCode(), resp.Body)
	}
}

// A quote is honoured for its life alone, and only while its fee covers the reveal's cost at
// the moment: a relayer whose price for the token halved refuses a fee quoted before as too low
// for now, and a quote past its expiry as expired. A relayer taking no fees quotes none.
func TestAQuoteIsHonouredWhileItLivesAndCoversTheCost(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	before := relayertest.Start(t, c, feeEnv(c, "1000000"))
	q := mustQuote(t, before, token, feeCard)
	before.Stop()

	// The same operator (its key signs quotes, its address is the receiver) with half the price
	// and quotes living one second.
	over := feeEnv(c, "500000")
	over["RELAYER_QUOTE_TTL"] = "1s"
	s := relayertest.Start(t, c, over)
	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	cheap := proveWithFee(t, c, newCard(t, c, 0, token, feeCard), recipient, zk.Fee{Amount: bigOf(t, q.Fee), Receiver: operator}, q)
	resp := relayertest.Reveal(t, s, cheap)
	relayertest.WantCode(t, "a fee quoted at the old price", resp, 402, "FEE_TOO_LOW")
	if !strings.Contains(string(resp.Body), "no longer covers") {
		t.Errorf("a fee quoted at the old price: %s", resp.Body)
	}

	short := mustQuote(t, s, token, feeCard)
	late := proveWithFee(t, c, newCard(t, c, 1, token, feeCard), recipient, zk.Fee{Amount: bigOf(t, short.Fee), Receiver: operator}, short)
	for time.Now().Unix() <= short.ExpiresAt {
		time.Sleep(100 * time.Millisecond)
	}
	relayertest.WantCode(t, "an expired quote", relayertest.Reveal(t, s, late), 402, "QUOTE_EXPIRED")

	plain := relayertest.Start(t, c, nil) // RELAYER_FUNDING defaults to treasury
	if resp := askQuote(t, plain, token, feeCard); resp.StatusCode() != 422 || !codeIs(resp.Body, "FEES_NOT_ACCEPTED") {
		t.Fatalf("a quote of a relayer taking no fees: %d %s", resp.StatusCode(), resp.Body)
	}
}

// A partial reveal's change costs ~21,000 gas more per 1-bit of its leaf index, which anyone can
// read from the chain: a quote at the dearest index (2^20 − 1, twenty 1-bits) is higher than at
// an index of one; there a fee that does not cover the reveal's simulated gas is refused
// FEE_TOO_LOW and nothing is sent (the fee of a fixed 650,000 gas, what every partial reveal was
// quoted at, on a quote made at the cheap index), and the fee quoted there pays for the reveal.
func TestAPartialRevealIsQuotedAndCheckedAtItsLeafIndex(t *testing.T) {
	t.Parallel()
	c := devchaintest.StartConfig(t, devchain.Config{Preimages: true})
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	cd := newCard(t, c, 0, token, feeCard) // leaf 0: the change would be leaf 1
	const part = feeCard / 2
	s := relayertest.Start(t, c, feeEnv(c, "1000000"))
	few := mustQuote(t, s, token, part, true)
	s.Stop()

	// The same chain, the card in its tree, its next leaf the dearest.
	dear := treeAt(t, c, 1<<20-1)
	s = relayertest.Start(t, dear, feeEnv(dear, "1000000"))
	many := mustQuote(t, s, token, part, true)
	if many.Gas <= few.Gas || new(big.Int).Mul(bigOf(t, many.Fee), bigOf(t, few.FeePerGas)).Cmp(new(big.Int).Mul(bigOf(t, few.Fee), bigOf(t, many.FeePerGas))) <= 0 {
		t.Fatalf("the quote at leaf 2^20 − 1 (%d gas, fee %s at %s wei per gas) is not above the one at leaf 1 (%d gas, fee %s at %s)",
			many.Gas, many.Fee, many.FeePerGas, few.Gas, few.Fee, few.FeePerGas)
	}

	nonce := relayertest.PendingOperatorNonce(t, dear)
	old := new(big.Int).Mul(big.NewInt(650_000*11_000), bigOf(t, many.FeePerGas)) // with the default 10 % margin, at the price of 1,000,000 wei
	old.Div(old.Add(old, big.NewInt(10_000*1_000_000-1)), big.NewInt(10_000*1_000_000))
	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	short := provePartWithFee(t, c, cd, big.NewInt(part), recipient, zk.Fee{Amount: old, Receiver: operator}, few)
	resp := relayertest.Reveal(t, s, short)
	relayertest.WantCode(t, "a fee short of the simulated gas", resp, 402, "FEE_TOO_LOW")
	if !strings.Contains(string(resp.Body), "simulated") {
		t.Errorf("a fee short of the simulated gas: %s", resp.Body)
	}
	if st := relayertest.Status(t, s, short); st.State != relayerapi.RevealStatusStateUnknown {
		t.Errorf("the refused reveal is %s", st.State)
	}
	if n := relayertest.PendingOperatorNonce(t, dear); n != nonce {
		t.Fatalf("the operator's nonce went from %d to %d: something was sent", nonce, n)
	}

	paid := provePartWithFee(t, c, cd, big.NewInt(part), recipient, zk.Fee{Amount: bigOf(t, many.Fee), Receiver: operator}, many)
	if resp = relayertest.Reveal(t, s, paid); resp.JSON200 == nil {
		t.Fatalf("the reveal paying the fee quoted at leaf 2^20 − 1: %d %s", resp.StatusCode(), resp.Body)
	}
	t.Logf("a partial reveal paying a fee used %s gas at leaf 2^20 − 1, quoted for %d (%d at leaf 1)", resp.JSON200.GasUsed, many.Gas, few.Gas)
	if gas := bigOf(t, resp.JSON200.GasUsed); gas.Cmp(big.NewInt(many.Gas)) > 0 {
		t.Errorf("the reveal used %s gas, more than the %d its fee paid for", gas, many.Gas)
	}
}

// A reveal paying exactly its quote's fee, proved at the index the quote priced, is mined even at
// RELAYER_FEE_MARGIN=0: the quoted gas covers what check.fee_gas compares the fee with, the
// reveal's eth_estimateGas (above the gas it uses), for a whole reveal and for a partial one
// whose change takes a leaf of one 1-bit while the root history is not yet full.
func TestAFeeRevealPayingExactlyItsQuoteAtNoMarginIsMined(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	over := feeEnv(c, "1000000")
	over["RELAYER_FEE_MARGIN"] = "0"
	s := relayertest.Start(t, c, over)
	whole, part := newCard(t, c, 0, token, feeCard), newCard(t, c, 1, token, feeCard) // leaves 0 and 1: a change takes leaf 2

	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	q := mustQuote(t, s, token, feeCard)
	req := proveWithFee(t, c, whole, recipient, zk.Fee{Amount: bigOf(t, q.Fee), Receiver: operator}, q)
	if resp := relayertest.Reveal(t, s, req); resp.JSON200 == nil {
		t.Fatalf("a whole reveal paying exactly its quote (%d gas) at no margin: %d %s", q.Gas, resp.StatusCode(), resp.Body)
	}

	const amount = feeCard / 2
	pq := mustQuote(t, s, token, amount, true)
	other := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	preq := provePartWithFee(t, c, part, big.NewInt(amount), other, zk.Fee{Amount: bigOf(t, pq.Fee), Receiver: operator}, pq)
	if resp := relayertest.Reveal(t, s, preq); resp.JSON200 == nil {
		t.Fatalf("a partial reveal paying exactly its quote (%d gas) at leaf 2, no margin: %d %s", pq.Gas, resp.StatusCode(), resp.Body)
	}
}

// The gas limit learned for reveals without change is learned from those alone: a reveal paying
// a fee, estimated every time and dearer by its fee's transfer, leaves it as it was (unlearned
// before any other reveal; after a plain one, the plain one's), where it raised it for all.
func TestAFeeRevealLeavesTheLearnedGasLimit(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	over := feeEnv(c, "1000000")
	over["RELAYER_FUNDING"] = "fee,treasury"
	s := relayertest.Start(t, c, over)
	feeReveal := func(user int) {
		t.Helper()
		q := mustQuote(t, s, token, feeCard)
		recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
		req := proveWithFee(t, c, newCard(t, c, user, token, feeCard), recipient, zk.Fee{Amount: bigOf(t, q.Fee), Receiver: operator}, q)
		if resp := relayertest.Reveal(t, s, req); resp.JSON200 == nil || !resp.JSON200.Success {
			t.Fatalf("a fee reveal: %d %s", resp.StatusCode(), resp.Body)
		}
	}

	feeReveal(0)
	if got := s.Svc.LearnedGasLimit(); got != 0 {
		t.Fatalf("a fee reveal alone taught the relayer a limit of %d gas for reveals without change, want none", got)
	}
	_, plain := relayertest.Request(t, c, relayertest.User(c, 1), 31)
	if resp := relayertest.Reveal(t, s, plain); resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("a reveal the treasury pays for: %d %s", resp.StatusCode(), resp.Body)
	}
	learned := s.Svc.LearnedGasLimit()
	if learned == 0 {
		t.Fatal("a reveal without change or fee taught no limit")
	}
	feeReveal(2)
	if got := s.Svc.LearnedGasLimit(); got != learned {
		t.Errorf("a fee reveal moved the learned limit from %d to %d gas", learned, got)
	}
}

// treeAt is a copy of chain c whose tree's next leaf index is next, its roots (the current one
// among them) kept: a proof made on c verifies on the copy, and its change takes leaf next.
func treeAt(t testing.TB, c *devchain.Chain, next uint64) *devchain.Chain {
	t.Helper()
	// CommitmentTree's layout (as cmd/gasbench overrides it): currentRootIndex and nextIndex, two
	// uint32 packed in slot 52, currentRootIndex in the low 4 bytes.
	slot := common.BigToHash(big.NewInt(52))
	word, err := c.Client().StorageAt(ctx, c.Contracts.CommitmentTree, slot, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := new(big.Int).SetBytes(word)
	v.And(v, new(big.Int).Not(new(big.Int).Lsh(big.NewInt(0xffff_ffff), 32)))
	v.Or(v, new(big.Int).Lsh(new(big.Int).SetUint64(next), 32))
	cp, err := c.Copy(ctx, map[common.Address]map[common.Hash]common.Hash{c.Contracts.CommitmentTree: {slot: common.BigToHash(v)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cp.Close() })
	tree := contracts.NewCommitRevealVault()
	if got, err := bind.Call(tree.Instance(cp.Client(), cp.Contracts.CommitmentTree), nil, tree.PackNextIndex(), tree.UnpackNextIndex); err != nil || uint64(got) != next {
		t.Fatalf("the copy's tree reads next index %d (%v), want %d: its storage layout is not the one assumed", got, err, next)
	}
	return cp
}

// Quotes share the chain's figures: 100 quotes at once within one block (half of them partial)
// read each at the node at most once a second (the tip, eth_maxPriorityFeePerGas; the
// head's base fee, eth_getBlockByNumber; the tree's next leaf, eth_call), where each quote made
// its own; and once a new block changed the base fee, quotes reflect it.
func TestQuotesShareTheChainsFigures(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	counter := devchaintest.CountCalls(t, c.RPCURL)
	over := feeEnv(c, "1000000")
	over["RPC_URL"], over["RATE_LIMIT_QUOTE_PER_IP"] = counter.URL, "1000/1m"
	s := relayertest.Start(t, c, over)
	token := c.Tokens[0].Address

	c.PauseSealing()
	head, err := c.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counter.Take()
	const quotes = 100
	start := time.Now()
	var wg sync.WaitGroup
	for i := range quotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			partial := i%2 == 0
			resp, err := s.Client.QuoteWithResponse(ctx, relayerapi.QuoteRequest{TokenAddress: token.Hex(), Amount: big.NewInt(feeCard).String(), Partial: &partial})
			if err != nil || resp.JSON200 == nil {
				t.Errorf("POST /quote: %v %v", err, resp)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	byMethod, total := counter.Take()
	if now, err := c.Client().BlockNumber(ctx); err != nil || now != head {
		t.Fatalf("the head moved from %d to %d (%v) while sealing was paused", head, now, err)
	}
	c.ResumeSealing()
	t.Logf("%d quotes within one block, in %s: %d chain calls, %v", quotes, elapsed, total, byMethod)
	// A figure is read at most once a second: one read, and one more for each second the quotes
	// took on a loaded machine, and one to spare (as this bound always had); far fewer than one
	// a quote, whatever the time.
	most := int(elapsed/time.Second) + 2
	for _, m := range []string{"eth_maxPriorityFeePerGas", "eth_getBlockByNumber", "eth_call"} {
		if byMethod[m] > most || byMethod[m] > quotes/10 {
			t.Errorf("%d quotes within one block, in %s, made %d %s calls, want at most %d and far fewer than one a quote (all: %v)", quotes, elapsed, byMethod[m], m, min(most, quotes/10), byMethod)
		}
	}

	before, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	to := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	tx, err := devchain.SendTx(ctx, c, relayertest.User(c, 1), &to, big.NewInt(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	after, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := c.Client().SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.BaseFee.Cmp(before.BaseFee) == 0 {
		t.Fatalf("the base fee stayed at %s over block %d", after.BaseFee, after.Number)
	}
	want := new(big.Int).Add(after.BaseFee, tip).String()
	var got string
	edgetest.WaitFor(t, "a quote at block "+after.Number.String()+"'s base fee", func() bool {
		got = mustQuote(t, s, token, feeCard).FeePerGas
		return got == want
	})
}

func codeIs(body []byte, code string) bool {
	var e struct{ Code string }
	return json.Unmarshal(body, &e) == nil && e.Code == code
}

// The fee settings: every problem at once, and the defaults (the
// treasury pays; fees to the operator, quotes signed by its key, 5 minutes, 10 %).
func TestFeeSettings(t *testing.T) {
	t.Parallel()
	key := relayertest.FreshKey(t)
	base := map[string]string{
		"RPC_URL": "http://127.0.0.1:1", "OPERATOR_PRIVATE_KEY": common.Bytes2Hex(crypto.FromECDSA(key)), "DATABASE_URL": "sqlite:" + t.TempDir() + "/r.db",
		"COMMIT_REVEAL_VAULT_ADDRESS": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "NULLIFIER_REGISTRY_ADDRESS": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
		"COMMITMENT_TREE_ADDRESS": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
	}
	load := func(over map[string]string) (relayer.Config, error) {
		m := maps.Clone(base)
		maps.Copy(m, over)
		return relayer.LoadConfig(func(k string) string { return m[k] })
	}
	cfg, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	f := cfg.Fees
	if !f.Treasury || f.Fees || f.Receiver != crypto.PubkeyToAddress(key.PublicKey) || !f.QuoteKey.Equal(key) || f.QuoteTTL != 5*time.Minute || f.Margin != 1000 {
		t.Fatalf("defaults: %+v", f)
	}
	_, err = load(map[string]string{"RELAYER_FUNDING": "fee,sponsor,bank", "RELAYER_TOKEN_PRICES": "0x12=1,0x5FbDB2315678afecb367f032d93F642f64180aa3=-2",
		"RELAYER_FEE_MARGIN": "ten", "RELAYER_FEE_RECEIVER": "0x34", "RELAYER_QUOTE_TTL": "soon"})
	if err == nil {
		t.Fatal("bad fee settings accepted")
	}
	for _, want := range []string{`"bank" is not one of`, "RELAYER_TOKEN_PRICES: entry 1", "RELAYER_TOKEN_PRICES: entry 2",
		"RELAYER_FEE_MARGIN", "RELAYER_FEE_RECEIVER", "RELAYER_QUOTE_TTL", "prices no token"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q: %v", want, err)
		}
	}
	if _, err := load(map[string]string{"RELAYER_TOKEN_PRICES": "0x5FbDB2315678afecb367f032d93F642f64180aa3=2"}); err == nil || !strings.Contains(err.Error(), "does not include fee") {
		t.Errorf("prices without fees: %v", err)
	}
	cfg, err = load(map[string]string{"RELAYER_FUNDING": "fee, treasury", "RELAYER_TOKEN_PRICES": "0x5FbDB2315678afecb367f032d93F642f64180aa3=0.0003",
		"RELAYER_FEE_MARGIN": "12.5", "RELAYER_FEE_RECEIVER": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"})
	if err != nil || !cfg.Fees.Fees || !cfg.Fees.Treasury || cfg.Fees.Margin != 1250 || cfg.Fees.Receiver != common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8") {
		t.Fatalf("fee and treasury: %+v %v", cfg.Fees, err)
	}
	cfg, err = load(map[string]string{"RELAYER_FUNDING": "sponsor"})
	if err != nil || !cfg.Fees.Sponsors || cfg.Fees.Fees || cfg.Fees.Treasury || cfg.Fees.SponsorLow.String() != "100000000000000000" || cfg.Limits.PerSponsor.N != 60 {
		t.Fatalf("sponsors alone: %+v %+v %v", cfg.Fees, cfg.Limits.PerSponsor, err)
	}
	cfg, err = load(map[string]string{"RELAYER_FUNDING": "fee,sponsor,treasury", "RELAYER_TOKEN_PRICES": "0x5FbDB2315678afecb367f032d93F642f64180aa3=1"})
	if err != nil || !cfg.Fees.Sponsors || !cfg.Fees.Fees || !cfg.Fees.Treasury {
		t.Fatalf("all three: %+v %v", cfg.Fees, err)
	}
}

// A fee-paying reveal is one transaction per nullifier across a restart too: the relayer that
// starts adopts its transaction from the node's pool by the nullifier in its revealWithFee
// calldata, and a repeat gets that transaction's outcome, never a second one.
func TestAFeeRevealRepeatedAfterARestartNeverPaysTwice(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	over := feeEnv(c, "1000000")
	over["RECEIPT_TIMEOUT"], over["REPLACE_AFTER"] = "1s", "500ms"
	s := relayertest.Start(t, c, over)
	q := mustQuote(t, s, token, feeCard)
	req := proveWithFee(t, c, newCard(t, c, 0, token, feeCard), crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey), zk.Fee{Amount: bigOf(t, q.Fee), Receiver: operator}, q)
	before := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	relayertest.WantCode(t, "the fee reveal, not mined in time", relayertest.Reveal(t, s, req), 504, "TX_PENDING")

	s.Stop()
	s = relayertest.Start(t, c, over) // a new record: what is in flight is found in the pool alone
	relayertest.WantCode(t, "the same fee reveal after a restart", relayertest.Reveal(t, s, req), 504, "TX_PENDING")
	if n := relayertest.PendingOperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions sent for one fee-paying nullifier across a restart", n-before)
	}
	c.ResumeSealing()
	edgetest.WaitFor(t, "the reveal mined", func() bool { return relayertest.OperatorNonce(t, c) == before+1 })
	edgetest.WaitFor(t, "NULLIFIER_USED", func() bool { return relayertest.Reveal(t, s, req).StatusCode() == 409 })
	if n := relayertest.OperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions mined for one nullifier", n-before)
	}
}
