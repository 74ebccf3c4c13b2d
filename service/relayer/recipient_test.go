package relayer_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// A reveal to a contract that would keep what it is sent is refused before anything is held
// or sent: to the vault, to the token being revealed, or to another of the vault's tokens
// (VAULT_TOKENS; devstack's environment lists the dev chain's): 400 RECIPIENT_NOT_ALLOWED, the
// message naming what the recipient is, not its address (a wallet app scanning a token payment
// request may have given the token's address as the recipient's). Without VAULT_TOKENS the
// token being revealed is still refused. The card then reveals to a person's address.
func TestARecipientThatWouldKeepWhatItIsSentIsRefused(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	if len(c.Tokens) < 2 {
		t.Fatalf("the dev chain has %d tokens, want 2 or more", len(c.Tokens))
	}
	cd, req := relayertest.Request(t, c, relayertest.User(c, 0), 38)
	nonce := relayertest.PendingOperatorNonce(t, c)
	bare := relayertest.Start(t, c, map[string]string{"VAULT_TOKENS": ""})
	for _, to := range []struct {
		name    string
		s       *relayertest.Server
		address common.Address
	}{
		{"the vault", s, c.Contracts.Vault},
		{"the token being revealed", s, c.Tokens[0].Address},
		{"one of the vault's tokens", s, c.Tokens[1].Address},
		{"the token being revealed", bare, c.Tokens[0].Address},
	} {
		r := relayertest.Reveal(t, to.s, relayertest.PrepareFor(t, c, cd, to.address))
		relayertest.WantCode(t, to.name, r, 400, "RECIPIENT_NOT_ALLOWED")
		if r.JSON400 == nil || r.JSON400.Code != "RECIPIENT_NOT_ALLOWED" || !strings.Contains(r.JSON400.Error, "the recipient is "+to.name) ||
			strings.Contains(strings.ToLower(string(r.Body)), strings.ToLower(to.address.Hex()[2:])) {
			t.Fatalf("%s: %s", to.name, r.Body)
		}
	}
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("%d transactions sent for refused reveals", n-nonce)
	}
	if r := relayertest.Reveal(t, s, req); r.JSON200 == nil || !r.JSON200.Success {
		t.Fatalf("the card to a person's address: %d %s", r.StatusCode(), r.Body)
	}
}

// GET /reveal/{nullifier} is admitted per client IP by a limit of its own
// (RATE_LIMIT_STATUS_PER_IP), apart from POST /reveal's: every answer carries it in the RateLimit
// headers, a malformed request and a HEAD count, and over it the answer is 429 RATE_LIMITED with
// Retry-After, while POST /reveal's own allowance is untouched. In process and in Redis.
func TestStatusRequestsHaveAPerIPLimit(t *testing.T) {
	t.Parallel()
	t.Run("in process", func(t *testing.T) {
		c := devchaintest.Start(t)
		statusLimit(t, relayertest.Start(t, c, map[string]string{"RATE_LIMIT_STATUS_PER_IP": "3/1m", "RATE_LIMIT_PER_IP": "2/1m"}))
	})
	t.Run("redis", func(t *testing.T) {
		c := devchaintest.Start(t)
		url, _ := redistest.Server(t)
		statusLimit(t, relayertest.Start(t, c, map[string]string{"RATE_LIMIT_STATUS_PER_IP": "3/1m", "RATE_LIMIT_PER_IP": "2/1m", "REDIS_URL": url}))
	})
}

func statusLimit(t *testing.T, s *relayertest.Server) {
	nullifier := common.BigToHash(common.Big1).Hex()
	quota := func(h http.Header, left int) {
		t.Helper()
		if got, want := h.Get("RateLimit-Policy"), `"ip";q=3;w=60`; got != want {
			t.Fatalf("RateLimit-Policy %q, want %q", got, want)
		}
		if got, want := h.Get("RateLimit"), fmt.Sprintf(`"ip";r=%d;`, left); !strings.HasPrefix(got, want) {
			t.Fatalf("RateLimit %q, want %s…", got, want)
		}
	}
	malformed, err := s.Client.GetRevealWithResponse(ctx, "0x12")
	if err != nil || malformed.JSON400 == nil {
		t.Fatalf("a malformed nullifier: %v %s", err, malformed.Body)
	}
	quota(malformed.HTTPResponse.Header, 2)
	st, err := s.Client.GetRevealWithResponse(ctx, nullifier)
	if err != nil || st.JSON200 == nil || st.JSON200.State != "unknown" {
		t.Fatalf("a status: %v %s", err, st.Body)
	}
	quota(st.HTTPResponse.Header, 1)
	head, err := http.Head(s.URL + "/reveal/" + nullifier)
	if err != nil || head.StatusCode != 200 {
		t.Fatalf("HEAD: %v %v", err, head)
	}
	head.Body.Close()
	quota(head.Header, 0)
	over, err := s.Client.GetRevealWithResponse(ctx, nullifier)
	if err != nil || over.JSON429 == nil || over.JSON429.Code != "RATE_LIMITED" || over.HTTPResponse.Header.Get("Retry-After") == "" ||
		!strings.Contains(over.JSON429.Error, "status requests per client IP") {
		t.Fatalf("over the limit: %v %d %s", err, over.StatusCode(), over.Body)
	}
	quota(over.HTTPResponse.Header, 0)
	post, err := s.Client.RevealWithBodyWithResponse(ctx, "application/json", strings.NewReader(`{}`))
	if err != nil || post.StatusCode() != 400 || post.HTTPResponse.Header.Get("RateLimit-Policy") != `"ip";q=2;w=60` {
		t.Fatalf("POST /reveal once the status limit is reached: %v %d %s %v", err, post.StatusCode(), post.Body, post.HTTPResponse.Header)
	}
}
