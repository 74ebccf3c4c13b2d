package faucet_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/faucet/pow"
)

// powSecret is the tests' FAUCET_POW_SECRET, so that a test can make a challenge the faucet
// takes for its own (an expired one).
var powSecret = strings.Repeat("ab", 32)

// cheapPow asks a little work of small hashes, so that the tests solve in milliseconds.
func cheapPow(over map[string]string) map[string]string {
	m := map[string]string{"FAUCET_POW_WORK": "4", "FAUCET_POW_MEMORY_KIB": "64", "FAUCET_POW_SECRET": powSecret}
	maps.Copy(m, over)
	return m
}

func challenge(t testing.TB, s *server, addr common.Address) faucetapi.Challenge {
	t.Helper()
	r, err := s.client.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: addr.Hex()})
	if err != nil || r.JSON200 == nil {
		t.Fatalf("challenge: %v %d %s", err, r.StatusCode(), r.Body)
	}
	if cc := r.HTTPResponse.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("a challenge's Cache-Control: %q", cc)
	}
	return *r.JSON200
}

func solve(t testing.TB, ch faucetapi.Challenge) *faucetapi.PowSolution {
	t.Helper()
	c, err := pow.Parse(ch.Challenge)
	if err != nil {
		t.Fatal(err)
	}
	n, err := pow.Solve(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	return &faucetapi.PowSolution{Challenge: ch.Challenge, Nonce: int64(n)}
}

func claimWith(t testing.TB, s *server, addr common.Address, sol *faucetapi.PowSolution) *faucetapi.ClaimResponse {
	t.Helper()
	r, err := s.client.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: addr.Hex(), Pow: sol})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// With FAUCET_POW_WORK set, a claim carries the solution of a challenge for its own address:
// without one, with another address's, with a nonce that misses the target, with an altered or
// an expired challenge, it is refused with its own 403 and nothing is paid; solved, it is paid.
// The challenge says what a solver needs (salt, work, memory) and is never cached.
func TestAClaimCarriesItsProofOfWork(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(nil))
	addr, other := freshAddress(t), freshAddress(t)
	before := nonce(t, c, c.Accounts.Faucet.Address)

	r := claimWith(t, s, addr, nil)
	wantError(t, "a claim without proof of work", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowRequired)
	ch := challenge(t, s, addr)
	parsed, _ := pow.Parse(ch.Challenge)
	if ch.Address != addr.Hex() || ch.Algorithm != "argon2id" || ch.Work != 4 || ch.MemoryKiB != 64 || ch.Passes != 1 ||
		ch.Salt != "0x"+hex.EncodeToString(parsed.ID[:]) || time.Until(ch.ExpiresAt) < 9*time.Minute {
		t.Fatalf("the challenge: %+v", ch)
	}
	sol := solve(t, ch)
	r = claimWith(t, s, other, sol)
	wantError(t, "another address's challenge", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowInvalid)
	miss := *sol
	for miss.Nonce = sol.Nonce + 1; pow.Meets(pow.Hash(parsed, uint64(miss.Nonce)), parsed.Work); miss.Nonce++ {
	}
	r = claimWith(t, s, addr, &miss)
	wantError(t, "a nonce that misses the target", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowInvalid)
	easier := []byte(ch.Challenge)
	easier[60] = map[bool]byte{true: 'B', false: 'A'}[easier[60] == 'A'] // within the work's bytes (44-51)
	r = claimWith(t, s, addr, &faucetapi.PowSolution{Challenge: string(easier), Nonce: sol.Nonce})
	wantError(t, "an altered challenge", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowInvalid)
	secret, _ := hex.DecodeString(powSecret)
	expired := pow.NewIssuer(secret, -time.Second).Issue(addr, pow.Params{Work: 1, MemoryKiB: 64, Passes: 1})
	r = claimWith(t, s, addr, &faucetapi.PowSolution{Challenge: expired.Token(), Nonce: 0})
	wantError(t, "an expired challenge", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowExpired)
	if n := nonce(t, c, c.Accounts.Faucet.Address); n != before {
		t.Fatalf("refused claims sent %d transactions", n-before)
	}

	if r := claimWith(t, s, addr, sol); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("the solved claim: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	if r := claimWith(t, s, addr, sol); r.StatusCode() != http.StatusConflict {
		t.Fatalf("the same claim again: %d %s", r.StatusCode(), r.Body)
	}
}

// The work follows demand: the base while the window is empty, four times as much at half the
// total limit (pow.WorkFor: sixteen at the limit).
func TestTheWorkFollowsTheWindowsClaims(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_TOTAL": "4/1h"}))
	if w := challenge(t, s, freshAddress(t)).Work; w != 4 {
		t.Fatalf("the work with no claims: %d, want 4", w)
	}
	for range 2 {
		addr := freshAddress(t)
		if r := claimWith(t, s, addr, solve(t, challenge(t, s, addr))); r.StatusCode() != http.StatusAccepted {
			t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
		}
	}
	time.Sleep(time.Second) // the work counted once a second
	if w := challenge(t, s, freshAddress(t)).Work; w != 16 {
		t.Fatalf("the work at 2 of 4 claims: %d, want 16", w)
	}
}

// The work follows the spend budget too: at half of FAUCET_SPEND_LIMIT spent it is four times
// the base, as at half the total limit, however few claims that took.
func TestTheWorkFollowsTheWindowsSpending(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"FAUCET_SPEND_LIMIT": "200/1h"}))
	addr := freshAddress(t)
	if r := claimWith(t, s, addr, solve(t, challenge(t, s, addr))); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	time.Sleep(time.Second) // the work counted once a second
	if w := challenge(t, s, freshAddress(t)).Work; w != 16 {
		t.Fatalf("the work at 100 and its gas spent of 200: %d, want 16", w)
	}
}

// A faucet that asks no proof of work (the default) says so: no challenge to ask for.
func TestAFaucetWithoutProofOfWorkHasNoChallenge(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), nil)
	r, err := s.client.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: freshAddress(t).Hex()})
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, "a challenge of a faucet without proof of work", r.StatusCode(), r.Body, http.StatusNotFound, "NOT_FOUND")
}

// Replicas must share the secret their challenges are signed with; a faucet alone makes one.
func TestProofOfWorkSettings(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	_, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"FAUCET_POW_WORK": "32", "REDIS_URL": "redis://127.0.0.1:1/0", "FAUCET_POW_TTL": "10s"}))
	for _, want := range []string{"FAUCET_POW_SECRET is required", "FAUCET_POW_TTL must be at least 1m"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config error %v, want %q", err, want)
		}
	}
	_, err = faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"FAUCET_POW_WORK": "32", "FAUCET_POW_SECRET": "0x1234"}))
	if err == nil || !strings.Contains(err.Error(), "FAUCET_POW_SECRET must be at least 32 bytes") || strings.Contains(err.Error(), "0x1234") {
		t.Errorf("a short secret: %v", err)
	}
	if _, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"FAUCET_POW_WORK": "32"})); err != nil {
		t.Errorf("a faucet alone without a secret: %v", err)
	}
	cfg, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"FAUCET_POW_WORK": ""})) // unset
	if err != nil || cfg.Pow.Work != faucet.DefaultPowWork || faucet.DefaultPowWork == 0 {
		t.Errorf("a faucet asks proof of work unless told otherwise: %v, work %d", err, cfg.Pow.Work)
	}
}

// A flood of wrong solutions costs the faucet at most RATE_LIMIT_PER_IP hashes a client: the
// per-IP limit counts every claim before its proof of work is checked, so the requests past it
// are refused 429 without a hash (vaultd_faucet_pow_verify_duration_seconds counts each one).
func TestWrongSolutionsPastThePerIPLimitCostNoHash(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_PER_IP": "3/1h"}))
	addr := freshAddress(t)
	ch := challenge(t, s, addr)
	parsed, _ := pow.Parse(ch.Challenge)
	miss := int64(0)
	for pow.Meets(pow.Hash(parsed, uint64(miss)), parsed.Work) {
		miss++
	}
	for i := range 10 {
		r := claimWith(t, s, addr, &faucetapi.PowSolution{Challenge: ch.Challenge, Nonce: miss})
		if i < 3 {
			wantError(t, "a wrong solution under the limit", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowInvalid)
		} else {
			wantError(t, "a wrong solution past the limit", r.StatusCode(), r.Body, http.StatusTooManyRequests, "RATE_LIMITED")
		}
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_faucet_pow_verify_duration_seconds_count 3\n") {
		t.Fatalf("hashes computed for 10 wrong solutions, 3 allowed:\n%s", edgetest.Grep(m, "pow_verify_duration_seconds_count"))
	}
}

// missingNonce is a nonce that misses c's target.
func missingNonce(t testing.TB, token string) int64 {
	t.Helper()
	c, err := pow.Parse(token)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(0)
	for pow.Meets(pow.Hash(c, uint64(n)), c.Work) {
		n++
	}
	return n
}

// A challenge is checked against three solutions at most: after three wrong nonces even its
// right one is refused, and nothing is paid, so one challenge cannot buy hashes without end.
func TestAChallengeIsCheckedThreeTimesAtMost(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_PER_IP": "100/1h"}))
	addr := freshAddress(t)
	ch := challenge(t, s, addr)
	sol, miss := solve(t, ch), missingNonce(t, ch.Challenge)
	for range 3 {
		r := claimWith(t, s, addr, &faucetapi.PowSolution{Challenge: ch.Challenge, Nonce: miss})
		wantError(t, "a wrong nonce", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowInvalid)
	}
	r := claimWith(t, s, addr, sol)
	wantError(t, "the right nonce after three wrong ones", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowInvalid)
	if !strings.Contains(string(r.Body), "3 wrong solutions") {
		t.Errorf("the refusal does not say why: %s", r.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_faucet_pow_verify_duration_seconds_count 3\n") ||
		!strings.Contains(m, `vaultd_faucet_pow_refused_total{reason="tried_out"} 1`+"\n") {
		t.Fatalf("hashes and refusals:\n%s", edgetest.Grep(m, "vaultd_faucet_pow_"))
	}
	if r := claimWith(t, s, addr, solve(t, challenge(t, s, addr))); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("a new challenge, solved: %d %s", r.StatusCode(), r.Body)
	}
}

// Many claims at once carrying one challenge with random nonces (the sender does no work) cost
// the faucet three hashes at most: one request checks a challenge at a time (the others 429
// with Retry-After, or 403 once it is tried out), whatever their timing.
func TestOneChallengeSentManyTimesAtOnceCostsAFewHashes(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_PER_IP": "1000/1h", "FAUCET_POW_WORK": "1000000",
		"FAUCET_POW_MEMORY_KIB": "16384"})) // hashes of 16 MiB: slow enough that requests overlap
	addr := freshAddress(t)
	ch := challenge(t, s, addr)
	codes := make(chan string, 40)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			r, err := s.client.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: addr.Hex(), Pow: &faucetapi.PowSolution{Challenge: ch.Challenge, Nonce: int64(i)}})
			if err != nil {
				t.Error(err)
				return
			}
			var e struct{ Code string }
			_ = json.Unmarshal(r.Body, &e)
			if r.StatusCode() == http.StatusTooManyRequests && r.HTTPResponse.Header.Get("Retry-After") == "" {
				t.Errorf("a 429 without Retry-After: %s", r.Body)
			}
			codes <- fmt.Sprint(r.StatusCode(), " ", e.Code)
		})
	}
	wg.Wait()
	close(codes)
	seen := map[string]int{}
	for code := range codes {
		seen[code]++
	}
	for code := range seen {
		if code != "403 POW_INVALID" && code != "429 RATE_LIMITED" {
			t.Errorf("answers %v: %q is neither a refused solution nor a challenge being checked", seen, code)
		}
	}
	if seen["429 RATE_LIMITED"] == 0 { // requests 40 at once overlap a 16 MiB hash
		t.Errorf("answers %v: no request was refused while another checked the challenge", seen)
	}
	m := scrape(t, s)
	var hashes int
	if _, err := fmt.Sscanf(edgetest.Grep(m, "vaultd_faucet_pow_verify_duration_seconds_count"), "vaultd_faucet_pow_verify_duration_seconds_count %d", &hashes); err != nil || hashes < 1 || hashes > 3 {
		t.Fatalf("40 claims with one challenge hashed %d times (answers %v), want 1 to 3 (%v)", hashes, seen, err)
	}
}

// A solution banked while demand was low does not pay once demand has risen: two challenges
// solved at work 4, the first claimed at once (the work still low: paid); then six claims, each
// solved at the work asked just before it, bring the total limit's eight to seven used, a new
// challenge asks 45, and the second banked solution (work 4, below half of 45) is refused
// POW_EXPIRED, nothing paid. The claims in between are solved as they go rather than banked: a
// solution banked at work 4 goes stale as soon as the work is counted again (once a second),
// which a slow machine reaches in the middle of seven claims.
func TestSolutionsBankedAtLowWorkExpireInAFlood(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_TOTAL": "8/1h", "RATE_LIMIT_PER_IP": "100/1h"}))
	bankedChallenge := func(addr common.Address) *faucetapi.PowSolution {
		ch := challenge(t, s, addr)
		if ch.Work != 4 {
			t.Fatalf("the work at no demand: %d", ch.Work)
		}
		return solve(t, ch)
	}
	early, late := freshAddress(t), freshAddress(t)
	earlySol, lateSol := bankedChallenge(early), bankedChallenge(late)
	if r := claimWith(t, s, early, earlySol); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("a banked claim while the work was still low: %d %s", r.StatusCode(), r.Body)
	}
	for range 6 {
		addr := freshAddress(t)
		if r := claimWith(t, s, addr, solve(t, challenge(t, s, addr))); r.StatusCode() != http.StatusAccepted {
			t.Fatalf("a claim solved at the work asked: %d %s", r.StatusCode(), r.Body)
		}
	}
	time.Sleep(time.Second) // the work counted once a second
	if w := challenge(t, s, freshAddress(t)).Work; w != 45 {
		t.Fatalf("the work at 7 of 8 claims: %d, want 45", w)
	}
	before := nonce(t, c, c.Accounts.Faucet.Address)
	r := claimWith(t, s, late, lateSol)
	wantError(t, "a solution banked at work 4, used at 45", r.StatusCode(), r.Body, http.StatusForbidden, faucet.CodePowExpired)
	if n := nonce(t, c, c.Accounts.Faucet.Address); n != before {
		t.Fatalf("the refused claim sent %d transactions", n-before)
	}
	if r := claimWith(t, s, late, solve(t, challenge(t, s, late))); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("the same address with a challenge at today's work: %d %s", r.StatusCode(), r.Body)
	}
}

// Challenges have their own limit per client IP (RATE_LIMIT_CHALLENGE_PER_IP): past it a
// challenge is 429 with the limit's headers, and claims are not counted against it.
func TestChallengesPerIPAreLimited(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_CHALLENGE_PER_IP": "2/1h"}))
	addr := freshAddress(t)
	sol := solve(t, challenge(t, s, addr))
	challenge(t, s, freshAddress(t))
	r, err := s.client.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: freshAddress(t).Hex()})
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, "a third challenge", r.StatusCode(), r.Body, http.StatusTooManyRequests, "RATE_LIMITED")
	if h := r.HTTPResponse.Header; h.Get("Retry-After") == "" || h.Get("RateLimit-Policy") != `"ip";q=2;w=3600` {
		t.Errorf("the 429's headers: %v", h)
	}
	if r := claimWith(t, s, addr, sol); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("a claim past the challenges' limit: %d %s", r.StatusCode(), r.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, `vaultd_faucet_rate_limited_total{limit="challenge_ip"} 1`+"\n") {
		t.Errorf("the refusal is not counted:\n%s", edgetest.Grep(m, "rate_limited_total"))
	}
}

// A right solution whose claim is refused after its check (here the total limit, 429) can be
// sent again as often as the client retries: it passes without a hash or a try, and is refused
// for what refused it, never POW_INVALID; the claim goes through once the limit allows.
func TestARightSolutionIsCheckedOnce(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_TOTAL": "1/1h", "RATE_LIMIT_PER_IP": "100/1h"}))
	first := freshAddress(t)
	if r := claimWith(t, s, first, solve(t, challenge(t, s, first))); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("the first claim: %d %s", r.StatusCode(), r.Body)
	}
	addr := freshAddress(t)
	sol := solve(t, challenge(t, s, addr))
	for range 5 {
		r := claimWith(t, s, addr, sol)
		wantError(t, "a right solution past the total limit", r.StatusCode(), r.Body, http.StatusTooManyRequests, "RATE_LIMITED")
	}
	if m := scrape(t, s); !strings.Contains(m, "vaultd_faucet_pow_verify_duration_seconds_count 2\n") {
		t.Fatalf("two right solutions, one sent five times: hashes\n%s", edgetest.Grep(m, "pow_verify_duration_seconds_count"))
	}
	r := claimWith(t, s, first, solve(t, challenge(t, s, first)))
	wantError(t, "the paid address again", r.StatusCode(), r.Body, http.StatusConflict, faucet.CodeAlreadyClaimed)
}

// A claim the faucet had no turn to check (every check's slot taken for a second) is 503 with
// Retry-After, and costs its client none of its claims per IP: after three such refusals, with
// RATE_LIMIT_PER_IP at 2, the same solution is paid once the slots are free.
func TestAClaimWithoutATurnCostsNoClaimOfTheIP(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RATE_LIMIT_PER_IP": "2/1h"}))
	addr := freshAddress(t)
	sol := solve(t, challenge(t, s, addr))
	release := faucet.HoldChecks(s.svc)
	for range 3 {
		r := claimWith(t, s, addr, sol)
		wantError(t, "a claim while every slot is taken", r.StatusCode(), r.Body, http.StatusServiceUnavailable, "UNAVAILABLE")
		if r.HTTPResponse.Header.Get("Retry-After") != "1" {
			t.Errorf("the 503's Retry-After: %q", r.HTTPResponse.Header.Get("Retry-After"))
		}
	}
	release()
	if r := claimWith(t, s, addr, sol); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("the same solution once the slots are free: %d %s", r.StatusCode(), r.Body)
	}
	if m := scrape(t, s); !strings.Contains(m, `vaultd_faucet_pow_refused_total{reason="busy"} 3`+"\n") {
		t.Errorf("busy refusals:\n%s", edgetest.Grep(m, "pow_refused_total"))
	}
}

// A claim whose transaction the node refuses is withdrawn (502, nothing recorded), and its
// solution is not used up: the client's retry with the same solution is paid, not POW_USED.
func TestARefusedSendGivesTheSolutionBack(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	node := devchaintest.Faults(t, c.RPCURL)
	node.SetReply("eth_sendRawTransaction", `"error":{"code":-32000,"message":"invalid sender"}`, 1)
	s := startFaucet(t, c, t.TempDir(), cheapPow(map[string]string{"RPC_URL": node.URL}))
	addr := freshAddress(t)
	sol := solve(t, challenge(t, s, addr))
	r := claimWith(t, s, addr, sol)
	wantError(t, "a claim whose send the node refuses", r.StatusCode(), r.Body, http.StatusBadGateway, "CHAIN_UNAVAILABLE")
	if r := claimWith(t, s, addr, sol); r.StatusCode() != http.StatusAccepted {
		t.Fatalf("the same solution again: %d %s", r.StatusCode(), r.Body)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
}
