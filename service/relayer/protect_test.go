package relayer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/relayer"
)

func withHeader(k, v string) relayerapi.RequestEditorFn {
	return func(ctx context.Context, req *http.Request) error { req.Header.Set(k, v); return nil }
}

// The per-IP limit counts every POST /reveal, valid or not; a client cannot escape it with a
// made-up X-Forwarded-For (no proxy is trusted).
func TestPerIPLimitAndSpoofedForwardedFor(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"RATE_LIMIT_PER_IP": "3/1m"})
	bad := relayerapi.RevealRequest{Proof: relayerapi.Proof{PiA: []string{"1", "2", "1"}, PiB: relayerapi.G2Point{{"1", "2"}, {"1", "2"}, {"1", "0"}}, PiC: []string{"1", "2", "1"}},
		PublicSignals: []string{"0x1", "0x2", "0x3", "0x4", "0x0", "0x6"}, Recipient: "0x0000000000000000000000000000000000000001",
		TokenAddress: c.Tokens[0].Address.Hex(), Amount: "3"}
	for i := range 3 {
		resp, err := s.Client.RevealWithResponse(ctx, bad, withHeader("X-Forwarded-For", "10.0.0."+string(rune('1'+i))))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode() == 429 {
			t.Fatalf("request %d limited too early", i)
		}
	}
	resp, err := s.Client.RevealWithResponse(ctx, bad, withHeader("X-Forwarded-For", "203.0.113.99"))
	if err != nil {
		t.Fatal(err)
	}
	relayertest.WantCode(t, "fourth request, spoofed header", resp, 429, "RATE_LIMITED")
	if resp.HTTPResponse.Header.Get("Retry-After") == "" || !strings.Contains(string(resp.Body), "per client IP") {
		t.Fatalf("429 without Retry-After or without naming the limit: %s", resp.Body)
	}
}

// The per-recipient and total limits count reveals about to be sent, not refused ones.
func TestRecipientAndTotalLimits(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"RATE_LIMIT_PER_RECIPIENT": "1/1h", "RATE_LIMIT_TOTAL": "2/1m"})
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 1)
	if resp := relayertest.Reveal(t, s, first); resp.StatusCode() != 200 {
		t.Fatal(string(resp.Body))
	}
	// Same recipient again, with a new card: over the per-recipient limit.
	cd := newCard(t, c, 1, c.Tokens[0].Address, 2) // proved below, to the first recipient
	again := relayertest.PrepareFor(t, c, cd, common.HexToAddress(first.Recipient))
	resp := relayertest.Reveal(t, s, again)
	relayertest.WantCode(t, "second reveal to one recipient", resp, 429, "RATE_LIMITED")
	if !strings.Contains(string(resp.Body), "per recipient") {
		t.Fatalf("limit not named: %s", resp.Body)
	}
	_, second := relayertest.Request(t, c, relayertest.User(c, 2), 3)
	if resp := relayertest.Reveal(t, s, second); resp.StatusCode() != 200 {
		t.Fatal(string(resp.Body))
	}
	_, third := relayertest.Request(t, c, relayertest.User(c, 3), 4)
	resp = relayertest.Reveal(t, s, third)
	relayertest.WantCode(t, "third reveal in the window", resp, 429, "RATE_LIMITED")
	if !strings.Contains(string(resp.Body), "in total") || resp.HTTPResponse.Header.Get("Retry-After") == "" {
		t.Fatalf("limit not named, or no Retry-After: %s", resp.Body)
	}
	metrics := scrape(t, s)
	for _, want := range []string{`vaultd_relayer_rate_limited_total{limit="recipient"} 1`, `vaultd_relayer_rate_limited_total{limit="total"} 1`} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("metrics lack %s:\n%s", want, edgetest.Grep(metrics, "rate_limited"))
		}
	}
}

// logCapture collects the log lines of a relayer a test starts with its logger (the process's
// default logger is not touched: tests run in parallel).
type logCapture = edgetest.Logs

// An operator funded below the threshold gets 503 with Retry-After, one trip and one alert line
// however many requests come; funding it reopens the gate within a poll.
func TestBalanceGate(t *testing.T) {
	t.Parallel()
	var logs logCapture
	c := devchaintest.Start(t)
	poor := relayertest.FreshKey(t)
	fund(t, c, crypto.PubkeyToAddress(poor.PublicKey), big.NewInt(5)) // 5 native, threshold 100
	s := relayertest.StartWith(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(poor)), "BALANCE_POLL_INTERVAL": "100ms"},
		relayer.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 9)
	for range 3 {
		resp := relayertest.Reveal(t, s, req)
		relayertest.WantCode(t, "underfunded operator", resp, 503, "OPERATOR_BALANCE_LOW")
		if resp.HTTPResponse.Header.Get("Retry-After") == "" {
			t.Fatal("503 without Retry-After")
		}
	}
	if n := strings.Count(logs.String(), "ALERT: operator balance below"); n != 1 {
		t.Fatalf("%d alert lines, want 1:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), `"level":"ERROR"`) || !strings.Contains(logs.String(), crypto.PubkeyToAddress(poor.PublicKey).Hex()) {
		t.Fatalf("the alert is not at error level with the operator address:\n%s", logs.String())
	}
	if n := strings.Count(logs.String(), `"level":"ERROR"`); n != 1 {
		t.Fatalf("%d ERROR lines for one closing of the gate and three refused requests, want 1 (refusals log at warn):\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), hexutil.Encode(crypto.FromECDSA(poor))[2:]) {
		t.Fatal("the operator key is in the logs")
	}
	metrics := scrape(t, s)
	for _, want := range []string{"vaultd_relayer_balance_gate_trips_total 1", "vaultd_relayer_balance_low_rejections_total 3", "vaultd_relayer_operator_balance_threshold_ether 100"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	h, _ := s.Client.GetHealthWithResponse(ctx)
	if h.JSON200.Status != relayerapi.Degraded {
		t.Fatalf("health %s while the gate is closed", h.Body)
	}
	before := strings.Count(logs.String(), "\n")
	if r, _ := s.Client.GetReadyWithResponse(ctx); r.StatusCode() != 503 || r.JSON503.Code != "OPERATOR_BALANCE_LOW" {
		t.Fatalf("ready while the gate is closed: %d %s", r.StatusCode(), r.Body)
	}
	if strings.Count(logs.String(), "\n") != before {
		t.Fatalf("a readiness probe wrote a log line:\n%s", logs.String())
	}

	fund(t, c, crypto.PubkeyToAddress(poor.PublicKey), big.NewInt(200))
	deadline := time.Now().Add(15 * time.Second) // a poll is 100 ms; a loaded machine runs late
	for {
		resp := relayertest.Reveal(t, s, req)
		if resp.StatusCode() == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d %s after funding", resp.StatusCode(), resp.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r, _ := s.Client.GetReadyWithResponse(ctx); r.StatusCode() != 200 || !r.JSON200.Ready {
		t.Fatalf("ready after funding: %d %s", r.StatusCode(), r.Body)
	}
	if !strings.Contains(logs.String(), "accepting reveals again") {
		t.Fatal("the reopening is not logged")
	}
}

func fund(t testing.TB, c *devchain.Chain, to common.Address, ether *big.Int) {
	t.Helper()
	tx, err := devchain.SendTx(ctx, c, c.Accounts.Faucet.Key, &to, new(big.Int).Mul(ether, big.NewInt(params.Ether)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
}

func scrape(t testing.TB, s *relayertest.Server) string { return edgetest.Scrape(t, s.URL) }

func TestHealth(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	resp, err := s.Client.GetHealthWithResponse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := resp.JSON200
	if h.Status != relayerapi.Healthy || h.Operator != c.Accounts.Operator.Address.Hex() || h.ChainId != 1337 || h.Balance == "0" ||
		h.Threshold != "100000000000000000000" || h.InFlight != 0 || h.Version != buildversion.String() {
		t.Fatalf("health: %s", resp.Body)
	}
	key := hexutil.Encode(crypto.FromECDSA(c.Accounts.Operator.Key))
	if strings.Contains(string(resp.Body), key[2:]) {
		t.Fatal("health shows the operator key")
	}
	var raw map[string]any
	json.Unmarshal(resp.Body, &raw)
	if h.Schema == nil || len(*h.Schema) != len(relayer.Schemas) {
		t.Fatalf("health's schema %v: want a version of each of %d owners", h.Schema, len(relayer.Schemas))
	}
	for _, s := range relayer.Schemas {
		if (*h.Schema)[s.Owner] < 1 {
			t.Fatalf("health's schema %v: %s not migrated", *h.Schema, s.Owner)
		}
	}
	if len(raw) != 10 {
		t.Fatalf("health fields %v", raw)
	}
}

func TestConfigNeverPrintsTheKey(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	secret := "0xzz" + strings.Repeat("ab", 31)
	_, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": secret, "COMMIT_REVEAL_VAULT_ADDRESS": "0x12", "MIN_OPERATOR_BALANCE": "lots"}))
	if err == nil || strings.Contains(err.Error(), secret[4:]) {
		t.Fatalf("err = %v (must refuse, and never print the key)", err)
	}
	for _, want := range []string{"OPERATOR_PRIVATE_KEY", "COMMIT_REVEAL_VAULT_ADDRESS", "MIN_OPERATOR_BALANCE"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %s: %v", want, err)
		}
	}
	keyFile := filepath.Join(t.TempDir(), "operator.key")
	os.WriteFile(keyFile, []byte(hexutil.Encode(crypto.FromECDSA(c.Accounts.Operator.Key))+"\n"), 0o600)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEY_FILE": keyFile}))
	if err != nil || crypto.PubkeyToAddress(cfg.Operator.Key.PublicKey) != c.Accounts.Operator.Address {
		t.Fatalf("the key from OPERATOR_PRIVATE_KEY_FILE: %v", err)
	}
	// An encrypted keystore and its password file instead of a plain key.
	ks := keystore.NewKeyStore(filepath.Join(t.TempDir(), "keystore"), keystore.LightScryptN, keystore.LightScryptP)
	account, err := ks.ImportECDSA(c.Accounts.Operator.Key, "operator password")
	if err != nil {
		t.Fatal(err)
	}
	passwordFile := filepath.Join(t.TempDir(), "password")
	os.WriteFile(passwordFile, []byte("operator password\n"), 0o600)
	cfg, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KEYSTORE_FILE": account.URL.Path, "OPERATOR_KEYSTORE_PASSWORD_FILE": passwordFile}))
	if err != nil || crypto.PubkeyToAddress(cfg.Operator.Key.PublicKey) != c.Accounts.Operator.Address {
		t.Fatalf("the key from OPERATOR_KEYSTORE_FILE: %v", err)
	}
	cfg, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"MIN_OPERATOR_BALANCE": "0.5"}))
	if err != nil || cfg.Operator.MinBalance.Cmp(new(big.Int).Div(big.NewInt(params.Ether), big.NewInt(2))) != 0 {
		t.Fatalf("0.5 native: %v %v", cfg.Operator.MinBalance, err)
	}
}

// OPERATOR_PRIVATE_KEYS(_FILE): keys by position, never by value; a repeated key refused; the
// set needs REDIS_URL and excludes OPERATOR_PRIVATE_KEY.
func TestConfigOfReplicaKeys(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	good := hexutil.Encode(crypto.FromECDSA(relayertest.FreshKey(t)))
	bad := "0x" + strings.Repeat("zq", 32)
	file := filepath.Join(t.TempDir(), "keys")
	os.WriteFile(file, []byte("# replicas\n"+good+"\n\n"+bad+"\n"+good+"\n"), 0o600)
	_, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEYS_FILE": file}))
	if err == nil || strings.Contains(err.Error(), good[2:]) || strings.Contains(err.Error(), bad[2:]) {
		t.Fatalf("err = %v (must refuse, and never print a key)", err)
	}
	for _, want := range []string{"key 2 is not a valid private key", "key 3 repeats", "OPERATOR_PRIVATE_KEYS (or OPERATOR_KEYSTORE_DIR) needs REDIS_URL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	os.WriteFile(file, []byte(good+"\n"+hexutil.Encode(crypto.FromECDSA(relayertest.FreshKey(t)))+"\n"), 0o600)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEYS_FILE": file, "REDIS_URL": "redis://127.0.0.1:1/0", "OPERATOR_LEASE_TTL": ""}))
	if err != nil || len(cfg.Operator.Keys) != 2 || cfg.Operator.LeaseTTL != 10*time.Second {
		t.Fatalf("two keys: %v, %d keys, lease TTL %s", err, len(cfg.Operator.Keys), cfg.Operator.LeaseTTL)
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEYS_FILE": file, "REDIS_URL": "redis://127.0.0.1:1/0"}))
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("a key and a key set: %v", err)
	}
	// The same set as a keystore directory under one password.
	dir := filepath.Join(t.TempDir(), "keystore")
	ks := keystore.NewKeyStore(dir, keystore.LightScryptN, keystore.LightScryptP)
	want := map[common.Address]bool{}
	for range 2 {
		a, err := ks.ImportECDSA(relayertest.FreshKey(t), "replicas' password")
		if err != nil {
			t.Fatal(err)
		}
		want[a.Address] = true
	}
	cfg, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KEYSTORE_DIR": dir,
		"OPERATOR_KEYSTORE_PASSWORD": "replicas' password", "REDIS_URL": "redis://127.0.0.1:1/0"}))
	if err != nil || len(cfg.Operator.Keys) != 2 {
		t.Fatalf("OPERATOR_KEYSTORE_DIR: %v, %d keys", err, len(cfg.Operator.Keys))
	}
	for _, k := range cfg.Operator.Keys {
		if !want[crypto.PubkeyToAddress(k.PublicKey)] {
			t.Errorf("key of %s is not one of the directory's", crypto.PubkeyToAddress(k.PublicKey))
		}
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KEYSTORE_DIR": dir,
		"OPERATOR_KEYSTORE_PASSWORD": "replicas' password"}))
	if err == nil || !strings.Contains(err.Error(), "OPERATOR_KEYSTORE_DIR) needs REDIS_URL") {
		t.Fatalf("a keystore directory without Redis: %v", err)
	}
}

// thresholdJustUnderBalance is a MIN_OPERATOR_BALANCE 1,000 wei under the operator's balance:
// the gate is open, and the cost reserved for one transaction in flight closes it.
func thresholdJustUnderBalance(t testing.TB, c *devchain.Chain) string {
	t.Helper()
	balance, err := c.Client().BalanceAt(ctx, c.Accounts.Operator.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Rat).SetFrac(new(big.Int).Sub(balance, big.NewInt(1000)), big.NewInt(params.Ether)).FloatString(18)
}

// The gate counts what transactions in flight may still cost: with the threshold 1,000 wei under
// the operator's balance, one reveal in flight (its gas limit × fee cap reserved, far more than
// 1,000 wei) closes the gate for the next request, before anything is mined.
func TestInFlightCostIsReserved(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	min := thresholdJustUnderBalance(t, c)
	s := relayertest.Start(t, c, map[string]string{"MIN_OPERATOR_BALANCE": min, "BALANCE_POLL_INTERVAL": "1h"})
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 1)
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 2)
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	pending := revealAsync(t, s, first)
	edgetest.WaitFor(t, "the first reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == start+1 })
	resp := relayertest.Reveal(t, s, second)
	relayertest.WantCode(t, "second reveal while the first is in flight", resp, 503, "OPERATOR_BALANCE_LOW")
	c.ResumeSealing()
	if r := <-pending; r.StatusCode() != 200 {
		t.Fatalf("the first reveal: %d %s", r.StatusCode(), r.Body)
	}
}

// Requests that pass the gate together at arrival are checked again at the send: once the first
// one's reserved cost closes the gate, the other gets 503 and no transaction.
func TestGateIsCheckedAgainAtTheSend(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	min := thresholdJustUnderBalance(t, c)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "RPC_TIMEOUT": "10s", "MIN_OPERATOR_BALANCE": min, "BALANCE_POLL_INTERVAL": "1h"})
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 1)
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 2)
	start := relayertest.OperatorNonce(t, c)

	proxy.SetRule(devchain.OnMethod("eth_call", devchain.Hold)) // both requests get past the gate and wait in the chain checks
	a, b := revealAsync(t, s, first), revealAsync(t, s, second)
	edgetest.WaitFor(t, "both requests in the chain checks", func() bool { return proxy.Counts()[devchain.Hold] >= 4 })
	proxy.Heal()
	codes := map[int]int{}
	for _, ch := range []<-chan *relayerapi.RevealResponse{a, b} {
		r := <-ch
		codes[r.StatusCode()]++
		if r.StatusCode() == 503 {
			relayertest.WantCode(t, "the second send", r, 503, "OPERATOR_BALANCE_LOW")
		}
	}
	if codes[200] != 1 || codes[503] != 1 {
		t.Fatalf("answers %v, want one 200 and one 503", codes)
	}
	if n := relayertest.OperatorNonce(t, c); n != start+1 {
		t.Fatalf("%d transactions sent, want 1", n-start)
	}
}

// Requests the validation refuses count against the per-IP limit too: seven empty bodies with
// a limit of five get five 400s and then 429s.
func TestMalformedRequestsCountPerIP(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"RATE_LIMIT_PER_IP": "5/1m"})
	var codes []int
	for range 7 {
		resp, err := http.Post(s.URL+"/reveal", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if fmt.Sprint(codes) != "[400 400 400 400 400 429 429]" {
		t.Fatalf("seven malformed requests with a limit of 5: %v", codes)
	}
}

// IPv6 clients are limited by their /64: fresh addresses from one /64 do not escape the limit.
func TestPerIPLimitKeysIPv6ByPrefix(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, map[string]string{"RATE_LIMIT_PER_IP": "2/1m", "TRUSTED_PROXIES": "127.0.0.1"})
	post := func(client string) int {
		req, _ := http.NewRequest("POST", s.URL+"/reveal", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	got := []int{post("2001:db8:0:1::1"), post("2001:db8:0:1::2"), post("2001:db8:0:1:ffff::3"), post("2001:db8:0:2::1")}
	if fmt.Sprint(got) != "[400 400 429 400]" {
		t.Fatalf("three addresses of one /64 and one of another, limit 2: %v", got)
	}
}

// OPERATOR_SPEND_LIMIT bounds what the operator pays per window, counting the worst-case cost of
// reveals in flight: of five reveals sent at once under a limit one reveal exceeds, one is sent
// and four are refused with 503 SPEND_LIMIT_REACHED and a Retry-After, nothing else is sent,
// /ready says why, one warning line marks the transition; once the payment leaves the window,
// reveals are accepted again.
func TestSpendLimit(t *testing.T) {
	t.Parallel()
	var logs logCapture
	c := devchaintest.Start(t)
	const window = 3 * time.Second
	s := relayertest.StartWith(t, c, map[string]string{"OPERATOR_SPEND_LIMIT": "0.000000001/" + window.String()}, // 1 gwei: less than any reveal
		relayer.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	reqs := make([]relayerapi.RevealRequest, 5)
	for i := range reqs {
		_, reqs[i] = relayertest.Request(t, c, relayertest.User(c, i), int64(i+1))
	}
	start := relayertest.OperatorNonce(t, c)
	var answers []<-chan *relayerapi.RevealResponse
	for _, r := range reqs {
		answers = append(answers, revealAsync(t, s, r))
	}
	var refused []relayerapi.RevealRequest
	for i, ch := range answers {
		r := <-ch
		switch r.StatusCode() {
		case 200:
		case 503:
			relayertest.WantCode(t, "a reveal over the spend limit", r, 503, "SPEND_LIMIT_REACHED")
			if ra, _ := strconv.Atoi(r.HTTPResponse.Header.Get("Retry-After")); ra < 1 || ra > int(window/time.Second) {
				t.Fatalf("Retry-After %q, want 1..%d", r.HTTPResponse.Header.Get("Retry-After"), int(window/time.Second))
			}
			refused = append(refused, reqs[i])
		default:
			t.Fatalf("reveal %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	if n := relayertest.OperatorNonce(t, c) - start; n != 1 || len(refused) != 4 {
		t.Fatalf("%d transactions sent and %d reveals refused, want 1 and 4", n, len(refused))
	}
	if r, _ := s.Client.GetReadyWithResponse(ctx); r.StatusCode() != 503 || r.JSON503.Code != "SPEND_LIMIT_REACHED" {
		t.Fatalf("ready while the spend limit is reached: %d %s", r.StatusCode(), r.Body)
	}
	metrics := scrape(t, s)
	for _, want := range []string{"vaultd_relayer_spend_limit_open 0", "vaultd_relayer_spend_limit_rejections_total 4", "vaultd_relayer_spend_limit_ether 1e-09"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if n := strings.Count(logs.String(), "spending reached OPERATOR_SPEND_LIMIT"); n != 1 {
		t.Fatalf("%d lines for one transition, want 1:\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Fatalf("a reached spend limit logged at error level:\n%s", logs.String())
	}

	// A payment leaves the window: the next reveal is sent.
	time.Sleep(window)
	if r := relayertest.Reveal(t, s, refused[0]); r.StatusCode() != 200 {
		t.Fatalf("a reveal after the window: %d %s", r.StatusCode(), r.Body)
	}
	if n := relayertest.OperatorNonce(t, c) - start; n != 2 {
		t.Fatalf("%d transactions sent, want 2", n)
	}
}

// With REDIS_URL, the limits hold across replicas: two relayers sharing one Redis and a total
// limit of one reveal send one reveal between them (the second is 429 whichever replica it
// reaches). With Redis gone, a relayer refuses with 503 UNAVAILABLE rather than send unchecked.
func TestLimitsInRedisHoldAcrossReplicas(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, stopRedis := redistest.Server(t)
	limits := map[string]string{"REDIS_URL": url, "RATE_LIMIT_TOTAL": "1/1m"}
	a, b := relayertest.Start(t, c, limits), relayertest.Start(t, c, limits)
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 5)
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 6)
	start := relayertest.OperatorNonce(t, c)
	if r := relayertest.Reveal(t, a, first); r.StatusCode() != 200 {
		t.Fatalf("the first reveal: %d %s", r.StatusCode(), r.Body)
	}
	relayertest.WantCode(t, "a second reveal at the other replica", relayertest.Reveal(t, b, second), 429, "RATE_LIMITED")
	if n := relayertest.OperatorNonce(t, c) - start; n != 1 {
		t.Fatalf("%d transactions sent, want 1", n)
	}
	stopRedis()
	r := relayertest.Reveal(t, b, second)
	relayertest.WantCode(t, "a reveal with Redis gone", r, 503, "UNAVAILABLE")
	if n := relayertest.OperatorNonce(t, c) - start; n != 1 {
		t.Fatalf("%d transactions sent with Redis gone, want still 1", n)
	}
}

// With REDIS_URL, one transaction per nullifier holds across replicas: five copies of one reveal
// sent at once to two relayers sharing a Redis make one transaction; every copy answers with it
// (200, the same hash) or, arriving after it was mined, 409 NULLIFIER_USED.
func TestOneTransactionPerNullifierAcrossReplicas(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	replicas := []*relayertest.Server{relayertest.Start(t, c, map[string]string{"REDIS_URL": url}), relayertest.Start(t, c, map[string]string{"REDIS_URL": url})}
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 7)
	start := relayertest.OperatorNonce(t, c)
	var answers []<-chan *relayerapi.RevealResponse
	for i := range 5 {
		answers = append(answers, revealAsync(t, replicas[i%2], req))
	}
	hashes := map[string]bool{}
	for _, ch := range answers {
		r := <-ch
		switch r.StatusCode() {
		case 200:
			hashes[r.JSON200.TxHash] = true
		case 409:
			relayertest.WantCode(t, "a copy after the mining", r, 409, "NULLIFIER_USED")
		default:
			t.Fatalf("a copy: %d %s", r.StatusCode(), r.Body)
		}
	}
	if n := relayertest.OperatorNonce(t, c) - start; n != 1 || len(hashes) != 1 {
		t.Fatalf("%d transactions sent, %d hashes answered; want 1 and 1", n, len(hashes))
	}
}

// With REDIS_URL the spend limit is the fleet's: five reveals sent at once to two replicas under
// a limit one reveal exceeds send exactly one (each send is admitted and reserved in one step in
// Redis), the rest 503 SPEND_LIMIT_REACHED; a replica that sent nothing refuses too.
func TestSpendLimitHoldsAcrossReplicas(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	limit := map[string]string{"REDIS_URL": url, "OPERATOR_SPEND_LIMIT": "0.000000001/1m"} // 1 gwei: less than any reveal
	replicas := []*relayertest.Server{relayertest.Start(t, c, limit), relayertest.Start(t, c, limit)}
	reqs := make([]relayerapi.RevealRequest, 5)
	for i := range reqs {
		_, reqs[i] = relayertest.Request(t, c, relayertest.User(c, i), int64(i+1))
	}
	start := relayertest.OperatorNonce(t, c)
	var answers []<-chan *relayerapi.RevealResponse
	for i, r := range reqs {
		answers = append(answers, revealAsync(t, replicas[i%2], r))
	}
	sent := 0
	for i, ch := range answers {
		r := <-ch
		switch r.StatusCode() {
		case 200:
			sent++
		case 503:
			relayertest.WantCode(t, "a reveal over the fleet's spend limit", r, 503, "SPEND_LIMIT_REACHED")
		default:
			t.Fatalf("reveal %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	if n := relayertest.OperatorNonce(t, c) - start; n != 1 || sent != 1 {
		t.Fatalf("%d transactions, %d answered 200; want exactly 1 across the replicas", n, sent)
	}
}
