package faucet_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

// A claim answers 202 pending with its transaction, becomes confirmed with its block, moves the
// amount once; a second claim, in any letter case, is 409 ALREADY_CLAIMED with the first claim.
func TestClaimThenStatusThenAlreadyClaimed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	if h := health(t, s); h.Version != buildversion.String() {
		t.Fatalf("health says version %q, want %q", h.Version, buildversion.String())
	} else if h.Schema == nil || len(*h.Schema) != len(faucet.Schemas) {
		t.Fatalf("health says schema %v, want a version of each of %d owners", h.Schema, len(faucet.Schemas))
	} else {
		for _, s := range faucet.Schemas {
			if (*h.Schema)[s.Owner] < 1 {
				t.Fatalf("health says schema %v: %s not migrated", *h.Schema, s.Owner)
			}
		}
	}
	addr := freshAddress(t)
	if r := status(t, s, addr.Hex()); r.JSON200 == nil || r.JSON200.Status != faucetapi.ClaimStatusNone || r.JSON200.TxHash != nil {
		t.Fatalf("status before any claim: %d %s", r.StatusCode(), r.Body)
	}
	r := claim(t, s, strings.ToLower(addr.Hex()))
	if r.StatusCode() != 202 || r.JSON202.Status != faucetapi.ClaimStatusPending || r.JSON202.TxHash == nil || r.JSON202.Address != addr.Hex() ||
		*r.JSON202.Amount != amount.String() {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if got.BlockNumber == nil || *got.BlockNumber <= 0 || *got.TxHash != *r.JSON202.TxHash || got.CreatedAt == nil {
		t.Fatalf("confirmed claim: %+v", got)
	}
	receipt, err := c.Client().TransactionReceipt(ctx, common.HexToHash(*got.TxHash))
	if err != nil || receipt.Status != 1 || receipt.BlockNumber.Int64() != *got.BlockNumber {
		t.Fatalf("the claim's transaction: %v %v", receipt, err)
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s after a claim, want %s", b, amount)
	}
	for _, again := range []string{addr.Hex(), strings.ToLower(addr.Hex()), "0x" + strings.ToUpper(addr.Hex()[2:])} {
		r := claim(t, s, again)
		if r.StatusCode() != 409 || r.JSON409.Code != "ALREADY_CLAIMED" || r.JSON409.Claim.Status != faucetapi.ClaimStatusConfirmed ||
			*r.JSON409.Claim.TxHash != *got.TxHash || r.JSON409.Error == "" {
			t.Fatalf("second claim as %s: %d %s", again, r.StatusCode(), r.Body)
		}
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s after refused claims, want %s", b, amount)
	}
}

// Fifty claims for one address at the same moment make one transaction and one 202.
func TestConcurrentClaimsForOneAddressMakeOneTransaction(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	addr := freshAddress(t)
	var wg sync.WaitGroup
	codes := make([]int, 50)
	for i := range codes {
		wg.Go(func() { codes[i] = claim(t, s, addr.Hex()).StatusCode() })
	}
	wg.Wait()
	count := map[int]int{}
	for _, code := range codes {
		count[code]++
	}
	if count[202] != 1 || count[409] != 49 {
		t.Fatalf("answers to 50 concurrent claims: %v, want one 202 and 49 409", count)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if n := nonce(t, c, wallet); n != before+1 {
		t.Fatalf("the faucet sent %d transactions, want 1", n-before)
	}
	if b := balance(t, c, addr); b.Cmp(amount) != 0 {
		t.Fatalf("balance %s, want %s", b, amount)
	}
}

// Many addresses at once: each gets its amount once, on consecutive nonces.
func TestConcurrentClaimsForManyAddresses(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	before := nonce(t, c, c.Accounts.Faucet.Address)
	addrs := make([]common.Address, 20)
	var wg sync.WaitGroup
	for i := range addrs {
		addrs[i] = freshAddress(t)
		wg.Go(func() {
			if r := claim(t, s, addrs[i].Hex()); r.StatusCode() != 202 {
				t.Errorf("claim %d: %d %s", i, r.StatusCode(), r.Body)
			}
		})
	}
	wg.Wait()
	for _, a := range addrs {
		waitStatus(t, s, a, faucetapi.ClaimStatusConfirmed)
		if b := balance(t, c, a); b.Cmp(amount) != 0 {
			t.Fatalf("%s holds %s", a.Hex(), b)
		}
	}
	if n := nonce(t, c, c.Accounts.Faucet.Address); n != before+uint64(len(addrs)) {
		t.Fatalf("%d transactions for %d claims", n-before, len(addrs))
	}
}

// A burst of claims larger than what a node's pool keeps of one account's transactions that
// cannot be executed yet (go-ethereum: 64) is mined without a single replacement: the transfers
// reach the node in nonce order, so its pool holds every one of them. Sealing is paused while the
// claims arrive, so that nothing is mined meanwhile and every transfer must wait in the pool.
// (Sent out of order, as when sends stopped holding the manager's lock, the pool dropped some,
// and they were replaced only at REPLACE_AFTER: a burst took 31 blocks.)
func TestABurstOfClaimsBeyondThePoolsQueueIsMinedWithoutReplacement(t *testing.T) {
	t.Parallel()
	const n = 200
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	addrs := make([]common.Address, n)
	for i := range addrs {
		addrs[i] = freshAddress(t)
	}
	c.PauseSealing()
	var wg sync.WaitGroup
	for _, a := range addrs {
		wg.Go(func() {
			if r := claim(t, s, a.Hex()); r.StatusCode() != 202 {
				t.Errorf("claim for %s: %d %s", a.Hex(), r.StatusCode(), r.Body)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		c.ResumeSealing()
		return
	}
	waitFor(t, fmt.Sprintf("all %d transfers in the node's pool", n), func() bool {
		pending, err := c.Client().PendingNonceAt(ctx, wallet)
		return err == nil && pending == before+n
	})
	c.ResumeSealing()
	for _, a := range addrs {
		waitStatus(t, s, a, faucetapi.ClaimStatusConfirmed)
	}
	if got := nonce(t, c, wallet); got != before+n {
		t.Fatalf("%d transactions for %d claims", got-before, n)
	}
	if m := scrape(t, s); !strings.Contains(m, "\nvaultd_faucet_transaction_replacements_total 0\n") {
		_, replaced, _ := strings.Cut(m, "\nvaultd_faucet_transaction_replacements_total ")
		replaced, _, _ = strings.Cut(replaced, "\n")
		t.Fatalf("%s replacement transactions sent for the burst", replaced)
	}
}

// Bad input gets 400 INVALID_REQUEST and changes nothing.
func TestBadInput(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	wallet := c.Accounts.Faucet.Address
	before := nonce(t, c, wallet)
	valid := freshAddress(t).Hex()
	badChecksum := valid[:2] + strings.Map(func(r rune) rune { // every letter's case flipped
		switch {
		case r >= 'a' && r <= 'f':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'F':
			return r - 'A' + 'a'
		}
		return r
	}, valid[2:])
	for name, body := range map[string]string{
		"not an address":   `{"address":"alice"}`,
		"too short":        `{"address":"0x1234"}`,
		"no 0x":            `{"address":"` + valid[2:] + `"}`,
		"the zero address": `{"address":"0x0000000000000000000000000000000000000000"}`,
		"bad checksum":     `{"address":"` + badChecksum + `"}`,
		"unknown field":    `{"address":"` + valid + `","amount":"1000"}`,
		"no address":       `{}`,
		"not json":         `{"address":`,
		"a number":         `{"address":42}`,
	} {
		resp, err := http.Post(s.url+"/api/faucet/claim", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error, Code string }
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 400 || e.Code != "INVALID_REQUEST" || e.Error == "" {
			t.Errorf("%s: %d %+v, want 400 INVALID_REQUEST", name, resp.StatusCode, e)
		}
	}
	for name, q := range map[string]string{"no address": "", "not an address": "?address=bob", "zero": "?address=0x0000000000000000000000000000000000000000"} {
		resp, err := http.Get(s.url + "/api/faucet/status" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("status, %s: %d, want 400", name, resp.StatusCode)
		}
	}
	if n := nonce(t, c, wallet); n != before {
		t.Fatalf("bad input sent %d transactions", n-before)
	}
	if r := status(t, s, valid); r.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("a refused claim left %s", r.Body)
	}
}

// A contract that refuses native tokens is refused before anything is recorded or sent.
func TestClaimForAContractThatRefusesTokens(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	before := nonce(t, c, c.Accounts.Faucet.Address)
	r := claim(t, s, c.Contracts.TokenFactory.Hex())
	wantError(t, "claim for the token factory", r.StatusCode(), r.Body, 422, "CLAIM_REJECTED")
	if st := status(t, s, c.Contracts.TokenFactory.Hex()); st.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("a rejected claim was recorded: %s", st.Body)
	}
	if n := nonce(t, c, c.Accounts.Faucet.Address); n != before {
		t.Fatal("a rejected claim sent a transaction")
	}
}

// The per-IP limit counts every claim request; the total limit counts claims sent, so a 409 does
// not use it up. Both answer 429 naming the limit, with Retry-After.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "3/1h", "RATE_LIMIT_TOTAL": "1000/1h"})
	first := freshAddress(t)
	claim(t, s, first.Hex())
	claim(t, s, first.Hex()) // 409, counted per IP
	claim(t, s, freshAddress(t).Hex())
	r := claim(t, s, freshAddress(t).Hex())
	wantError(t, "fourth claim from one IP", r.StatusCode(), r.Body, 429, "RATE_LIMITED")
	if !strings.Contains(string(r.Body), "per client IP") || r.HTTPResponse.Header.Get("Retry-After") == "" {
		t.Fatalf("per-IP 429: %s %v", r.Body, r.HTTPResponse.Header)
	}

	s = startFaucet(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "1000/1h", "RATE_LIMIT_TOTAL": "2/1h"})
	a := freshAddress(t)
	claim(t, s, a.Hex())
	claim(t, s, a.Hex()) // 409: not counted in total
	if r := claim(t, s, freshAddress(t).Hex()); r.StatusCode() != 202 {
		t.Fatalf("second claim sent: %d %s (a 409 used up the total limit?)", r.StatusCode(), r.Body)
	}
	r = claim(t, s, freshAddress(t).Hex())
	wantError(t, "over the total limit", r.StatusCode(), r.Body, 429, "RATE_LIMITED")
	if !strings.Contains(string(r.Body), "in total") {
		t.Fatalf("total 429: %s", r.Body)
	}
	m := scrape(t, s)
	if !strings.Contains(m, `vaultd_faucet_rate_limited_total{limit="total"} 1`) {
		t.Fatalf("metrics lack the total limit hit:\n%s", m)
	}
}

// A faucet funded below MIN_FAUCET_BALANCE answers 503 FAUCET_BALANCE_LOW with Retry-After, logs
// one alert, reports degraded health, records nothing; funding it reopens the gate.
func TestBalanceGate(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	poor := freshKey(t)
	fund(t, c, c.Accounts.Deployer.Key, keyAddress(poor), new(big.Int).Mul(big.NewInt(50), big.NewInt(params.Ether)))
	logs := captureLogs(t)
	s := startFaucetWith(t, c, t.TempDir(), map[string]string{"FAUCET_PRIVATE_KEY": keyHex(poor), "MIN_FAUCET_BALANCE": "1000", "BALANCE_POLL_INTERVAL": "100ms"}, logs.options())
	addr := freshAddress(t)
	for range 3 {
		r := claim(t, s, addr.Hex())
		wantError(t, "claim from a poor faucet", r.StatusCode(), r.Body, 503, "FAUCET_BALANCE_LOW")
		if r.HTTPResponse.Header.Get("Retry-After") == "" {
			t.Fatal("503 without Retry-After")
		}
	}
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("a refused claim was recorded: %s", st.Body)
	}
	if n := strings.Count(logs.String(), "ALERT: faucet balance below MIN_FAUCET_BALANCE"); n != 1 {
		t.Fatalf("%d alert lines, want 1:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), `"level":"ERROR"`); n != 1 {
		t.Fatalf("%d ERROR lines for one closing and three refused claims, want 1:\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), keyHex(poor)[2:]) {
		t.Fatal("the faucet key is in the logs")
	}
	if h, _ := s.client.GetHealthWithResponse(ctx); h.JSON200.Status != faucetapi.Degraded {
		t.Fatalf("health while the gate is closed: %s", h.Body)
	}
	if r, _ := s.client.GetReadyWithResponse(ctx); r.StatusCode() != 503 || r.JSON503.Code != "FAUCET_BALANCE_LOW" {
		t.Fatalf("ready while the gate is closed: %d %s", r.StatusCode(), r.Body)
	}
	m := scrape(t, s)
	for _, want := range []string{"vaultd_faucet_balance_gate_trips_total 1", "vaultd_faucet_balance_low_rejections_total 3",
		"vaultd_faucet_balance_threshold_ether 1000", "vaultd_faucet_balance_gate_open 0", "vaultd_faucet_balance_ether 50"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	fund(t, c, c.Accounts.Deployer.Key, keyAddress(poor), new(big.Int).Mul(big.NewInt(2000), big.NewInt(params.Ether)))
	waitFor(t, "the gate to reopen", func() bool { return claim(t, s, addr.Hex()).StatusCode() == 202 })
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if r, _ := s.client.GetReadyWithResponse(ctx); r.StatusCode() != 200 {
		t.Fatalf("ready after funding: %d %s", r.StatusCode(), r.Body)
	}
	if !strings.Contains(logs.String(), "accepting claims again") {
		t.Fatal("the reopening is not logged")
	}
}

// A wallet that holds less than one claim, with MIN_FAUCET_BALANCE set under it, answers 503
// FAUCET_BALANCE_LOW (not the address's fault), and records nothing.
func TestWalletHoldingLessThanOneClaim(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	poor := freshKey(t)
	fund(t, c, c.Accounts.Deployer.Key, keyAddress(poor), new(big.Int).Mul(big.NewInt(50), big.NewInt(params.Ether)))
	s := startFaucet(t, c, t.TempDir(), map[string]string{"FAUCET_PRIVATE_KEY": keyHex(poor), "MIN_FAUCET_BALANCE": "0"})
	addr := freshAddress(t)
	r := claim(t, s, addr.Hex())
	wantError(t, "claim from a wallet holding 50 of 100", r.StatusCode(), r.Body, 503, "FAUCET_BALANCE_LOW")
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("recorded: %s", st.Body)
	}
}

// Claims the validation refuses count against the per-IP limit too.
func TestMalformedClaimsCountPerIP(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "3/1h"})
	var codes []int
	for range 5 {
		resp, err := http.Post(s.url+"/api/faucet/claim", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if fmt.Sprint(codes) != "[400 400 400 429 429]" {
		t.Fatalf("five malformed claims with a limit of 3: %v", codes)
	}
}

// FAUCET_SPEND_LIMIT refuses new claims once what the window's claims paid reaches it (the
// last one sent may go over it): with 150 and claims of 100 + gas, the second claim is sent
// (about 66, the outflow rule: more than half the budget is gone), the third gets 503
// SPEND_LIMIT_REACHED and nothing is recorded for it; /ready says why.
// The outflow: past half the budget, each claim gets less, in proportion to what is left, down
// to FAUCET_MIN_AMOUNT, so the faucet slows rather than stops. With 400 per window, claims of
// 100 and a floor of 10, the amounts fall 100, 100, ~100, ~50, ~25, ~12.5, 10, 10 (eight claims
// where a flat 100 makes four), GET /health tells the amount a claim gets now, and the wallet
// pays no more than the budget and the last claim let through.
func TestTheOutflowSlowsRatherThanStops(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"FAUCET_SPEND_LIMIT": "400/1h"})
	wallet := common.HexToAddress(health(t, s).Faucet)
	before := balance(t, c, wallet)
	ether := big.NewInt(params.Ether)
	var amounts []*big.Int
	for len(amounts) < 20 {
		quoted, _ := new(big.Int).SetString(health(t, s).Amount, 10)
		addr := freshAddress(t)
		r := claim(t, s, addr.Hex())
		if r.StatusCode() == 503 {
			wantError(t, "a claim once the budget is spent", r.StatusCode(), r.Body, 503, "SPEND_LIMIT_REACHED")
			break
		}
		if r.StatusCode() != 202 {
			t.Fatalf("claim %d: %d %s", len(amounts)+1, r.StatusCode(), r.Body)
		}
		got, _ := new(big.Int).SetString(*r.JSON202.Amount, 10)
		// /health tells what a claim gets; the window's spending moves a little between the two
		// reads as the last claim's gas, reserved at its worst, settles at what it cost.
		if diff := new(big.Int).Abs(new(big.Int).Sub(got, quoted)); diff.Cmp(new(big.Int).Div(quoted, big.NewInt(1000))) > 0 {
			t.Errorf("claim %d sent %v; /health said %v", len(amounts)+1, got, quoted)
		}
		waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
		if b := balance(t, c, addr); b.Cmp(got) != 0 {
			t.Fatalf("claim %d: the address holds %v, the claim says %v", len(amounts)+1, b, got)
		}
		amounts = append(amounts, got)
	}
	whole := func(wei *big.Int) float64 { f, _ := new(big.Rat).SetFrac(wei, ether).Float64(); return f }
	var got []string
	for _, a := range amounts {
		got = append(got, fmt.Sprintf("%.1f", whole(a)))
	}
	if len(amounts) != 8 {
		t.Fatalf("%d claims before the budget was spent (%v), want 8", len(amounts), got)
	}
	for i, want := range []float64{100, 100, 100, 50, 25, 12.5, 10, 10} {
		if d := whole(amounts[i]) - want; d > 0.01 || d < -0.01 {
			t.Fatalf("amounts %v, want about 100 100 100 50 25 12.5 10 10", got)
		}
	}
	paid := new(big.Int).Sub(before, balance(t, c, wallet))
	if limit := new(big.Int).Mul(big.NewInt(410), ether); paid.Cmp(limit) > 0 { // the budget and the last claim of 10
		t.Fatalf("the wallet paid %v wei, more than the budget and the last claim", paid)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_faucet_claim_amount_ether 10\n") {
		t.Fatalf("the amount's gauge at the floor:\n%s", m)
	}
}

func TestSpendLimit(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"FAUCET_SPEND_LIMIT": "150/1h"})
	for range 2 {
		addr := freshAddress(t)
		if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim under the limit: %d %s", r.StatusCode(), r.Body)
		}
		waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	}
	third := freshAddress(t)
	r := claim(t, s, third.Hex())
	wantError(t, "a claim over the spend limit", r.StatusCode(), r.Body, 503, "SPEND_LIMIT_REACHED")
	if r.HTTPResponse.Header.Get("Retry-After") == "" {
		t.Fatal("503 without Retry-After")
	}
	if st := status(t, s, third.Hex()); st.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("a refused claim was recorded: %s", st.Body)
	}
	if r, _ := s.client.GetReadyWithResponse(ctx); r.StatusCode() != 503 || r.JSON503.Code != "SPEND_LIMIT_REACHED" {
		t.Fatalf("ready while the spend limit is reached: %d %s", r.StatusCode(), r.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_faucet_spend_limit_rejections_total 1") || !strings.Contains(m, "vaultd_faucet_spend_limit_ether 150") {
		t.Fatalf("metrics:\n%s", m)
	}
}
