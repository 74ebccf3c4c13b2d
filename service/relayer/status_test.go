package relayer_test

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// getStatus is GET /status's body, and its Cache-Control.
func getStatus(t testing.TB, s *relayertest.Server) (relayerapi.RelayerStatus, string) {
	t.Helper()
	resp, err := s.Client.GetStatusWithResponse(ctx)
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("GET /status: %v %v", err, resp)
	}
	return *resp.JSON200, resp.HTTPResponse.Header.Get("Cache-Control")
}

// statusAfter waits for a status read in the background after since (a refresh is a balance
// poll, 200 ms in the tests).
func statusAfter(t testing.TB, s *relayertest.Server, since time.Time) relayerapi.RelayerStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, _ := getStatus(t, s)
		if st.UpdatedAt > since.Unix() {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("no status read after %s: updatedAt %d", since, st.UpdatedAt)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A relayer's status names its chain, vault, versions, what pays for reveals (the treasury
// alone by default: no fees), that it is ready and its runway, cacheable for 5 seconds; an
// operator's pause shows at once as paused and not ready (PAUSED), a resume as ready again.
func TestStatusSaysHowTheRelayerStands(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"ADMIN_API_KEY": adminKey})
	st, cache := getStatus(t, s)
	if cache != "public, max-age=5" {
		t.Errorf("Cache-Control %q, want public, max-age=5", cache)
	}
	if st.ChainId != 1337 || st.Vault != c.Contracts.Vault.Hex() || st.Version != buildversion.String() || st.ApiVersion != "1.1.0" {
		t.Errorf("chain %d, vault %s, version %q, API %q: want 1337, %s, %q, 1.1.0", st.ChainId, st.Vault, st.Version, st.ApiVersion, c.Contracts.Vault.Hex(), buildversion.String())
	}
	if h, err := s.Client.GetHealthWithResponse(ctx); err != nil {
		t.Fatal(err)
	} else if h.JSON200 == nil || h.JSON200.Version != st.Version {
		t.Errorf("health %s: want version %q, as GET /status says", h.Body, st.Version)
	}
	if !st.Ready || st.NotReady != nil || st.Paused || st.InFlight != 0 || st.Operator == nil || *st.Operator != c.Accounts.Operator.Address.Hex() {
		t.Errorf("ready %v (%v), paused %v, in flight %d, operator %v: want ready, not paused, none in flight, the dev operator", st.Ready, st.NotReady, st.Paused, st.InFlight, st.Operator)
	}
	if !slices.Equal(st.Funding.Modes, []string{"treasury"}) || st.Funding.Fees != nil {
		t.Errorf("funding %v, fees %v: want the treasury alone", st.Funding.Modes, st.Funding.Fees)
	}
	if st.Runway == nil || st.Runway.Reveals == 0 || st.Runway.SpendLimitReveals == nil || st.UpdatedAt == 0 {
		t.Fatalf("runway %+v, updated at %d: want one read at start, with the default spend limit", st.Runway, st.UpdatedAt)
	}

	if p, err := s.Client.PauseWithResponse(ctx, bearer(adminKey)); err != nil || p.JSON200 == nil {
		t.Fatalf("pause: %v %v", err, p)
	}
	st, _ = getStatus(t, s)
	if st.Ready || !st.Paused || st.NotReady == nil || *st.NotReady != "PAUSED" {
		t.Errorf("paused: ready %v, paused %v, not ready %v: want not ready, paused, PAUSED", st.Ready, st.Paused, st.NotReady)
	}
	if r, err := s.Client.ResumeWithResponse(ctx, bearer(adminKey)); err != nil || r.JSON200 == nil {
		t.Fatalf("resume: %v %v", err, r)
	}
	if st, _ = getStatus(t, s); !st.Ready || st.Paused || st.NotReady != nil {
		t.Errorf("resumed: ready %v, paused %v, not ready %v", st.Ready, st.Paused, st.NotReady)
	}
}

// With fees, the status says the fee of a whole and of a partial reveal in each priced token:
// what POST /quote answers at the same fee per gas and leaf index (the chain's sealing paused
// so that neither moves).
func TestStatusFeesAreWhatAQuoteAnswers(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	over := feeEnv(c, "1000000")
	over["RELAYER_FUNDING"] = "fee,treasury"
	s := relayertest.Start(t, c, over)
	token := c.Tokens[0].Address

	c.PauseSealing()
	defer c.ResumeSealing()
	st := statusAfter(t, s, time.Now())
	if !slices.Equal(st.Funding.Modes, []string{"fee", "treasury"}) || st.Funding.Fees == nil {
		t.Fatalf("funding %v, fees %v: want fee and treasury, with fees", st.Funding.Modes, st.Funding.Fees)
	}
	fees := st.Funding.Fees
	if fees.Quote != "/quote" || fees.FeeReceiver != c.Accounts.Operator.Address.Hex() || fees.MarginBps != 1000 || len(fees.Tokens) != 1 {
		t.Fatalf("fees %+v: want /quote, the operator as receiver, a 10 %% margin, one token", fees)
	}
	tf := fees.Tokens[0]
	if tf.Token != token.Hex() || tf.Price != "1000000" {
		t.Fatalf("token fee %+v: want %s at 1000000", tf, token.Hex())
	}
	for _, partial := range []bool{false, true} {
		q := askQuote(t, s, token, feeCard, partial).JSON200
		if q == nil {
			t.Fatal("no quote")
		}
		want := tf.Whole
		if partial {
			want = tf.Partial
		}
		if q.FeePerGas != fees.FeePerGas || q.Fee != want {
			t.Errorf("partial %v: the quote's fee %s at %s wei per gas, the status's %s at %s", partial, q.Fee, q.FeePerGas, want, fees.FeePerGas)
		}
	}
	if whole, _ := new(big.Int).SetString(tf.Whole, 10); whole == nil || whole.Cmp(mustInt(t, tf.Partial)) >= 0 {
		t.Errorf("a whole reveal's fee %s is not below a partial one's %s", tf.Whole, tf.Partial)
	}
}

// The runway is the balance above MIN_OPERATOR_BALANCE over one reveal's worst case at the fee
// per gas now (and the spend limit's remainder over the same), and it drops as the wallet is
// spent: half the wallet sent away, the next refresh shows it, and so does the gauge.
func TestStatusRunwayFollowsTheBalance(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	key := relayertest.FreshKey(t)
	operator := crypto.PubkeyToAddress(key.PublicKey)
	fund(t, c, operator, big.NewInt(21))
	s := relayertest.Start(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(key)),
		"MIN_OPERATOR_BALANCE": "1", "OPERATOR_SPEND_LIMIT": "0.5/1h"})
	ether := big.NewInt(params.Ether)

	check := func(st relayerapi.RelayerStatus) int64 {
		t.Helper()
		rw := st.Runway
		if rw == nil {
			t.Fatal("no runway")
		}
		cost := new(big.Int).Mul(mustInt(t, rw.FeePerGas), big.NewInt(rw.GasPerReveal))
		want := new(big.Int).Quo(new(big.Int).Sub(mustInt(t, rw.Balance), ether), cost)
		if rw.GasPerReveal < 500_000 || cost.Sign() <= 0 || rw.Reveals != want.Int64() {
			t.Fatalf("runway %+v: want (balance − 1 native) ÷ (gas × fee per gas) = %s", rw, want)
		}
		spend := new(big.Int).Quo(new(big.Int).Div(ether, big.NewInt(2)), cost)
		if rw.SpendLimitReveals == nil || *rw.SpendLimitReveals != spend.Int64() {
			t.Fatalf("spend limit's runway %v: want 0.5 native ÷ %s = %s", rw.SpendLimitReveals, cost, spend)
		}
		return rw.Reveals
	}
	st := statusAfter(t, s, time.Now())
	if st.Runway == nil || st.Runway.Balance != new(big.Int).Mul(big.NewInt(21), ether).String() {
		t.Fatalf("runway %+v: want a balance of 21 native", st.Runway)
	}
	before := check(st)

	away := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	tx, err := devchain.SendTx(ctx, c, key, &away, new(big.Int).Mul(big.NewInt(10), ether), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st = statusAfter(t, s, time.Now())
		if st.Runway.Balance != new(big.Int).Mul(big.NewInt(21), ether).String() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the runway's balance never showed the 10 native sent away")
		}
	}
	if after := check(st); after >= before {
		t.Errorf("runway %d reveals after half the wallet above its minimum was sent away, %d before: want fewer", after, before)
	}
	// The gauge is the status's runway (the two read between two refreshes).
	for i := 0; ; i++ {
		first, _ := getStatus(t, s)
		g := gauge(t, s, "vaultd_relayer_runway_reveals")
		if second, _ := getStatus(t, s); first.UpdatedAt == second.UpdatedAt && first.Runway.Reveals == second.Runway.Reveals {
			if g != float64(first.Runway.Reveals) {
				t.Fatalf("vaultd_relayer_runway_reveals %v, GET /status's %d", g, first.Runway.Reveals)
			}
			break
		}
		if i == 20 {
			t.Fatal("the runway moved at each of 20 reads")
		}
	}
}

// GET /status reads no chain: with the background reads far apart (a balance poll and a
// receipt poll of an hour), thousands of statuses make no JSON-RPC call.
func TestStatusReadsNoChain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	counter := devchaintest.CountCalls(t, c.RPCURL)
	over := feeEnv(c, "1000000")
	over["RPC_URL"], over["BALANCE_POLL_INTERVAL"], over["RECEIPT_POLL_INTERVAL"] = counter.URL, "1h", "1h"
	s := relayertest.Start(t, c, over)
	getStatus(t, s)
	time.Sleep(500 * time.Millisecond) // what the start set going (its first reads) ends
	counter.Take()
	// Bursts of statuses spread over three seconds, longer than the figures quotes share are kept
	// (a second): a status reading them would read them again within. Spread, not a flood: what
	// is counted is calls, and a flood would only take the cores from the other tests.
	statuses, start := 0, time.Now()
	for ; statuses < 300 || time.Since(start) < 3*time.Second; statuses++ {
		if st, _ := getStatus(t, s); st.Runway == nil || st.Funding.Fees == nil || len(st.Funding.Fees.Tokens) != 1 {
			t.Fatalf("status %+v: want the runway and the fees read at start", st)
		}
		if statuses%10 == 9 {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if byMethod, total := counter.Take(); total != 0 {
		t.Fatalf("%d statuses made %d chain calls: %v", statuses, total, byMethod)
	}
}

func mustInt(t testing.TB, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("%q is not a decimal integer", s)
	}
	return n
}

// gauge is a gauge's value as the relayer's /metrics exports it.
func gauge(t testing.TB, s *relayertest.Server, name string) float64 {
	t.Helper()
	for line := range strings.SplitSeq(scrape(t, s), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no %s in /metrics", name)
	return 0
}
