package faucet_test

import (
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
)

// The activity gate reads the claimant on another chain (a second dev chain here): an address
// that holds less than GATE_MIN_BALANCE there is refused 403 GATE_BALANCE_LOW, one that has
// sent fewer than GATE_MIN_NONCE transactions 403 GATE_NONCE_LOW, nothing recorded either way;
// once it has both, it is paid. A gate chain that does not answer is 502 CHAIN_UNAVAILABLE.
func TestTheActivityGateReadsAnotherChain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	other, err := devchaintest.StartWith(t, 5)
	if err != nil {
		t.Fatal(err)
	}
	s := startFaucet(t, c, t.TempDir(), map[string]string{"GATE_RPC_URL": other.RPCURL, "GATE_MIN_BALANCE": "0.5", "GATE_MIN_NONCE": "1"})
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)

	r := claim(t, s, addr.Hex())
	wantError(t, "a claimant with nothing on the gate chain", r.StatusCode(), r.Body, 403, "GATE_BALANCE_LOW")
	fund(t, other, other.Accounts.Deployer.Key, addr, big.NewInt(params.Ether))
	r = claim(t, s, addr.Hex())
	wantError(t, "a claimant that never sent a transaction there", r.StatusCode(), r.Body, 403, "GATE_NONCE_LOW")
	if st := status(t, s, addr.Hex()); st.JSON200.Status != faucetapi.ClaimStatusNone {
		t.Fatalf("a refused claim was recorded: %s", st.Body)
	}
	tx, err := devchain.SendTx(ctx, other, key, &addr, big.NewInt(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, other.Client(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("a claimant active on the gate chain: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)

	other.Close()
	r = claim(t, s, freshAddress(t).Hex())
	wantError(t, "the gate chain down", r.StatusCode(), r.Body, 502, "CHAIN_UNAVAILABLE")
	if !strings.Contains(string(r.Body), "GATE_RPC_URL") || strings.Contains(string(r.Body), other.RPCURL) {
		t.Fatalf("the 502 should name the setting, not its URL: %s", r.Body)
	}
}

// captchaStandIn stands in for a captcha provider's verify endpoint (Cloudflare Turnstile's and
// hCaptcha's siteverify: a form POST of secret and response, answered {"success": …}): the real
// ones are third-party services a test cannot reach. It accepts the token "solved" for the
// secret it is given, once, and records what it was sent.
type captchaStandIn struct {
	*httptest.Server
	mu    sync.Mutex
	spent map[string]bool
	asked []string // the secrets it was sent
}

func newCaptchaStandIn(t *testing.T, secret string) *captchaStandIn {
	s := &captchaStandIn{spent: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" || r.ParseForm() != nil {
			http.Error(w, "not a siteverify request", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.asked = append(s.asked, r.PostForm.Get("secret"))
		token := r.PostForm.Get("response")
		answer := map[string]any{"success": false, "error-codes": []string{"invalid-input-response"}}
		switch {
		case r.PostForm.Get("secret") != secret:
			answer["error-codes"] = []string{"invalid-input-secret"}
		case token == "solved" && s.spent[token]:
			answer["error-codes"] = []string{"timeout-or-duplicate"}
		case token == "solved":
			s.spent[token] = true
			answer = map[string]any{"success": true}
		}
		json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(s.Close)
	return s
}

// The captcha gate: a claim without a token is 403 CAPTCHA_REQUIRED, one the provider refuses
// 403 CAPTCHA_INVALID (with the provider's reason), a solved one is paid; the provider was sent
// the site's secret, which no answer shows; a provider that does not answer is 503 UNAVAILABLE.
func TestTheCaptchaGate(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	const secret = "0x-the-sites-captcha-secret"
	provider := newCaptchaStandIn(t, secret)
	s := startFaucet(t, c, t.TempDir(), map[string]string{"CAPTCHA_VERIFY_URL": provider.URL, "CAPTCHA_SECRET": secret})
	claimCaptcha := func(token string) *faucetapi.ClaimResponse {
		t.Helper()
		body := faucetapi.ClaimRequest{Address: freshAddress(t).Hex()}
		if token != "" {
			body.Captcha = &token
		}
		r, err := s.client.ClaimWithResponse(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(r.Body), secret) {
			t.Fatalf("an answer shows the captcha secret: %s", r.Body)
		}
		return r
	}
	r := claimCaptcha("")
	wantError(t, "a claim without a captcha", r.StatusCode(), r.Body, 403, "CAPTCHA_REQUIRED")
	r = claimCaptcha("guessed")
	wantError(t, "a captcha the provider refuses", r.StatusCode(), r.Body, 403, "CAPTCHA_INVALID")
	if !strings.Contains(string(r.Body), "invalid-input-response") {
		t.Fatalf("the provider's reason is not given: %s", r.Body)
	}
	if r := claimCaptcha("solved"); r.StatusCode() != 202 {
		t.Fatalf("a solved captcha: %d %s", r.StatusCode(), r.Body)
	}
	r = claimCaptcha("solved") // a token is good once
	wantError(t, "a captcha token used twice", r.StatusCode(), r.Body, 403, "CAPTCHA_INVALID")
	provider.mu.Lock()
	for _, got := range provider.asked {
		if got != secret {
			t.Errorf("the provider was sent the secret %q", got)
		}
	}
	provider.mu.Unlock()

	provider.Close()
	r = claimCaptcha("solved")
	wantError(t, "the provider down", r.StatusCode(), r.Body, 503, "UNAVAILABLE")
	if strings.Contains(string(r.Body), provider.URL) {
		t.Fatalf("the 503 names the provider's URL: %s", r.Body)
	}
}

// Each gate's settings come in pairs; a half-set gate stops the start, naming both halves.
func TestGateSettings(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	for over, want := range map[[2]string]string{
		{"GATE_RPC_URL", c.RPCURL}:           "GATE_RPC_URL needs GATE_MIN_BALANCE or GATE_MIN_NONCE",
		{"GATE_MIN_NONCE", "3"}:              "GATE_MIN_BALANCE and GATE_MIN_NONCE need GATE_RPC_URL",
		{"CAPTCHA_VERIFY_URL", "https://x"}:  "CAPTCHA_VERIFY_URL needs CAPTCHA_SECRET",
		{"CAPTCHA_SECRET", "a site secret"}:  "CAPTCHA_SECRET needs CAPTCHA_VERIFY_URL",
		{"CAPTCHA_VERIFY_URL", "ftp://x/y"}:  "CAPTCHA_VERIFY_URL must be an http(s):// URL",
		{"GATE_MIN_BALANCE", "a little bit"}: "GATE_MIN_BALANCE",
		{"GATE_RPC_URL", "mainnet"}:          "GATE_RPC_URL: endpoint 1 is not a URL",
	} {
		_, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{over[0]: over[1]}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=%s: %v, want %q", over[0], over[1], err, want)
		}
		if err != nil && strings.Contains(err.Error(), "a site secret") {
			t.Errorf("the secret is echoed: %v", err)
		}
	}
}
