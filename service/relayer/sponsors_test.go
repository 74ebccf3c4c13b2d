package relayer_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/big"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook/webhooktest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// sponsorEnv is a relayer with the admin routes, on the database at databaseURL.
func sponsorEnv(databaseURL string, over map[string]string) map[string]string {
	m := map[string]string{"ADMIN_API_KEY": adminKey, "DATABASE_URL": databaseURL}
	maps.Copy(m, over)
	return m
}

// createSponsor makes a sponsor on the admin routes and answers it with its key.
func createSponsor(t testing.TB, s *relayertest.Server, name string, signer *string) (relayerapi.Sponsor, string) {
	t.Helper()
	resp, err := s.Client.CreateSponsorWithResponse(ctx, relayerapi.SponsorRequest{Name: name, VoucherSigner: signer}, bearer(adminKey))
	if err != nil || resp.JSON201 == nil {
		t.Fatalf("create a sponsor: %v %s", err, resp.Body)
	}
	return resp.JSON201.Sponsor, resp.JSON201.Key
}

func creditSponsor(t testing.TB, s *relayertest.Server, id, wei string) relayerapi.Sponsor {
	t.Helper()
	resp, err := s.Client.CreditSponsorWithResponse(ctx, id, nil, relayerapi.SponsorCredit{Amount: wei}, bearer(adminKey))
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("credit %s: %v %s", id, err, resp.Body)
	}
	return *resp.JSON200
}

// The operator's sponsor routes, on SQLite and on Postgres: a sponsor is created with its key
// answered once (vsk_ and 64 hex digits; the database holds only its SHA-256), credited, listed
// and revoked (once: revoking again keeps the first time); an unknown id is 404, a credit of
// nothing 400, and without the admin key every route is 401. The list is in the order created.
func TestSponsorAdminRoutes(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "relayer.db")
		c := devchaintest.Start(t)
		key := sponsorAdminRoutes(t, c, relayertest.Start(t, c, sponsorEnv("sqlite:"+path, nil)))
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var stored string
		if err := db.QueryRow(`SELECT key_hash FROM sponsors`).Scan(&stored); err != nil || strings.Contains(stored, key[4:]) || len(stored) != 64 {
			t.Fatalf("the stored key is %q (%v), want its SHA-256 alone", stored, err)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		sponsorAdminRoutes(t, c, relayertest.Start(t, c, sponsorEnv(sqldbtest.Postgres(t), nil)))
	})
}

func sponsorAdminRoutes(t *testing.T, c *devchain.Chain, s *relayertest.Server) (key string) {
	signer := c.Accounts.Users[0].Address.Hex()
	sp, key := createSponsor(t, s, "Card Issuer Ltd", &signer)
	if !strings.HasPrefix(key, "vsk_") || len(key) != 68 || !strings.HasPrefix(sp.Id, "sp_") || sp.Name != "Card Issuer Ltd" || sp.Revoked ||
		sp.Balance != "0" || sp.Available != "0" || sp.VoucherSigner == nil || *sp.VoucherSigner != signer {
		t.Fatalf("created: %+v, key %q", sp, key)
	}
	other, _ := createSponsor(t, s, "Partner App", nil)
	if other.VoucherSigner != nil {
		t.Fatalf("a sponsor without vouchers: %+v", other)
	}
	creditSponsor(t, s, sp.Id, "1000")
	if got := creditSponsor(t, s, sp.Id, "234"); got.Credited != "1234" || got.Balance != "1234" || got.Available != "1234" || got.Debited != "0" {
		t.Fatalf("credited 1000 and 234: %+v", got)
	}
	for _, bad := range []string{"0", "x"} {
		r, err := s.Client.CreditSponsorWithResponse(ctx, sp.Id, nil, relayerapi.SponsorCredit{Amount: bad}, bearer(adminKey))
		if err != nil || r.StatusCode() != 400 {
			t.Fatalf("a credit of %q: %v %d %s", bad, err, r.StatusCode(), r.Body)
		}
	}
	unknown := "sp_" + strings.Repeat("0", 32)
	if r, err := s.Client.CreditSponsorWithResponse(ctx, unknown, nil, relayerapi.SponsorCredit{Amount: "1"}, bearer(adminKey)); err != nil || r.StatusCode() != 404 || !codeIs(r.Body, "NOT_FOUND") {
		t.Fatalf("a credit of an unknown sponsor: %v %s", err, r.Body)
	}
	if r, err := s.Client.RevokeSponsorWithResponse(ctx, unknown, bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("a revoke of an unknown sponsor: %v %s", err, r.Body)
	}
	rv, err := s.Client.RevokeSponsorWithResponse(ctx, sp.Id, bearer(adminKey))
	if err != nil || rv.JSON200 == nil || !rv.JSON200.Revoked || rv.JSON200.RevokedAt == nil || rv.JSON200.Balance != "1234" {
		t.Fatalf("revoke: %v %s", err, rv.Body)
	}
	again, err := s.Client.RevokeSponsorWithResponse(ctx, sp.Id, bearer(adminKey))
	if err != nil || again.JSON200 == nil || !again.JSON200.RevokedAt.Equal(*rv.JSON200.RevokedAt) {
		t.Fatalf("revoke again: %v %s", err, again.Body)
	}
	list, err := s.Client.ListSponsorsWithResponse(ctx, bearer(adminKey))
	if err != nil || list.JSON200 == nil || len(list.JSON200.Sponsors) != 2 || list.JSON200.Sponsors[0].Id != sp.Id || !list.JSON200.Sponsors[0].Revoked ||
		list.JSON200.Sponsors[1].Id != other.Id || strings.Contains(string(list.Body), key[4:]) {
		t.Fatalf("list: %v %s", err, list.Body)
	}
	if r, err := s.Client.ListSponsorsWithResponse(ctx); err != nil || r.StatusCode() != 401 {
		t.Fatalf("list without the admin key: %v %d", err, r.StatusCode())
	}
	if r, err := s.Client.CreateSponsorWithResponse(ctx, relayerapi.SponsorRequest{Name: "x"}, bearer(key)); err != nil || r.StatusCode() != 401 {
		t.Fatalf("create with a sponsor's key as the admin's: %v %d", err, r.StatusCode())
	}
	// Oldest first, also for sponsors created within one millisecond (the creation time's unit).
	want := []string{sp.Id, other.Id}
	for i := range 12 { // within the admin routes' 30 requests a minute
		more, _ := createSponsor(t, s, fmt.Sprintf("Sponsor %d", i), nil)
		want = append(want, more.Id)
	}
	list, err = s.Client.ListSponsorsWithResponse(ctx, bearer(adminKey))
	if err != nil || list.JSON200 == nil {
		t.Fatalf("list: %v %s", err, list.Body)
	}
	var got []string
	for _, sp := range list.JSON200.Sponsors {
		got = append(got, sp.Id)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("listed %v, want the order created %v", got, want)
	}
	return key
}

// withKey sends key as the sponsor's key.
func withKey(key string) relayerapi.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-Sponsor-Key", key)
		return nil
	}
}

func revealAs(t testing.TB, s *relayertest.Server, req relayerapi.RevealRequest, key string) *relayerapi.RevealResponse {
	t.Helper()
	resp, err := s.Client.RevealWithResponse(ctx, req, withKey(key))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// sponsorOf is GET /sponsor with key.
func sponsorOf(t testing.TB, s *relayertest.Server, key string) relayerapi.Sponsor {
	t.Helper()
	resp, err := s.Client.GetSponsorWithResponse(ctx, withKey(key))
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("GET /sponsor: %v %s", err, resp.Body)
	}
	return *resp.JSON200
}

// costOf is what a mined transaction cost its sender: its receipt's gas used × effective price.
func costOf(t testing.TB, c *devchain.Chain, hash string) *big.Int {
	t.Helper()
	rc, err := c.Client().TransactionReceipt(ctx, common.HexToHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice)
}

const oneEther = "1000000000000000000"

// A sponsor pays for the reveals its key carries, on a relayer whose treasury is off: a reveal
// without the key is 402 PAYMENT_REQUIRED, nothing sent; with it the reveal is mined and the
// sponsor debited exactly the receipt's gas used × effective price, nothing left reserved; the
// same reveal again is NULLIFIER_USED and debits nothing. GET /sponsor reads the account with
// the key (401 without one, SPONSOR_KEY_UNKNOWN with another). Keyed reveals are limited per
// sponsor (RateLimit's policy "sponsor"), not per IP: the sponsor's fifth request (its GET /sponsor count too) is 429 while a
// request from the same IP without the key still passes the limit. On SQLite and on Postgres.
func TestSponsorPaysForAKeyedReveal(t *testing.T) {
	t.Parallel()
	over := map[string]string{"RELAYER_FUNDING": "sponsor", "RATE_LIMIT_PER_SPONSOR": "4/1m"}
	t.Run("sqlite", func(t *testing.T) {
		c := devchaintest.Start(t)
		sponsorPaysForAKeyedReveal(t, c, relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), over)))
	})
	t.Run("postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		sponsorPaysForAKeyedReveal(t, c, relayertest.Start(t, c, sponsorEnv(sqldbtest.Postgres(t), over)))
	})
}

func sponsorPaysForAKeyedReveal(t *testing.T, c *devchain.Chain, s *relayertest.Server) {
	sp, key := createSponsor(t, s, "Card Issuer Ltd", nil)
	creditSponsor(t, s, sp.Id, oneEther)
	_, unpaid := relayertest.Request(t, c, relayertest.User(c, 0), 41)
	nonce := relayertest.PendingOperatorNonce(t, c)
	relayertest.WantCode(t, "a reveal without a key, the treasury off", relayertest.Reveal(t, s, unpaid), 402, "PAYMENT_REQUIRED")
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("an unpaid reveal sent %d transactions", n-nonce)
	}

	resp := revealAs(t, s, unpaid, key)
	if resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("the sponsored reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	if p := resp.HTTPResponse.Header.Get("RateLimit-Policy"); p != `"sponsor";q=4;w=60` {
		t.Errorf("RateLimit-Policy %q, want the sponsor's", p)
	}
	cost := costOf(t, c, resp.JSON200.TxHash)
	want := func(what string) {
		t.Helper()
		got := sponsorOf(t, s, key)
		left := new(big.Int).Sub(bigOf(t, oneEther), cost)
		if got.Id != sp.Id || got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 1 || got.Balance != left.String() || got.Available != left.String() {
			t.Fatalf("%s: the sponsor is %+v, want debited the receipt's cost %s once", what, got, cost)
		}
	}
	want("mined")
	relayertest.WantCode(t, "the same reveal again", revealAs(t, s, unpaid, key), 409, "NULLIFIER_USED")
	want("the same reveal again")

	_, other := relayertest.Request(t, c, relayertest.User(c, 1), 42)
	relayertest.WantCode(t, "the sponsor's fifth request in the window", revealAs(t, s, other, key), 429, "RATE_LIMITED")
	relayertest.WantCode(t, "a reveal from the same IP without the key", relayertest.Reveal(t, s, other), 402, "PAYMENT_REQUIRED")

	if r, err := s.Client.GetSponsorWithResponse(ctx); err != nil || r.StatusCode() != 401 || !codeIs(r.Body, "UNAUTHORIZED") {
		t.Fatalf("GET /sponsor without a key: %v %s", err, r.Body)
	}
	if r, err := s.Client.GetSponsorWithResponse(ctx, withKey("vsk_"+strings.Repeat("ab", 32))); err != nil || r.StatusCode() != 401 || !codeIs(r.Body, "SPONSOR_KEY_UNKNOWN") {
		t.Fatalf("GET /sponsor with an unknown key: %v %s", err, r.Body)
	}
}

// A sponsor that cannot pay is refused before anything is sent, each with its own code: too
// little left for the reveal's worst case (402 SPONSOR_BALANCE_LOW), a revoked key (403
// SPONSOR_REVOKED), an unknown key (401 SPONSOR_KEY_UNKNOWN), a key with a fee (400), a key at a
// relayer that takes no sponsors (422 SPONSORS_NOT_ACCEPTED). The operator's nonce is unchanged,
// nothing is left reserved, and the card can be revealed after.
func TestSponsorRefusals(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), map[string]string{"RELAYER_FUNDING": "sponsor,treasury"}))
	poor, poorKey := createSponsor(t, s, "Poor", nil)
	creditSponsor(t, s, poor.Id, "1000000000") // 1 gwei: far below a reveal's worst case
	gone, goneKey := createSponsor(t, s, "Gone", nil)
	creditSponsor(t, s, gone.Id, oneEther)
	if r, err := s.Client.RevokeSponsorWithResponse(ctx, gone.Id, bearer(adminKey)); err != nil || r.JSON200 == nil {
		t.Fatalf("revoke: %v", err)
	}
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 43)
	nonce := relayertest.PendingOperatorNonce(t, c)
	relayertest.WantCode(t, "a sponsor with too little", revealAs(t, s, req, poorKey), 402, "SPONSOR_BALANCE_LOW")
	relayertest.WantCode(t, "a revoked key", revealAs(t, s, req, goneKey), 403, "SPONSOR_REVOKED")
	relayertest.WantCode(t, "an unknown key", revealAs(t, s, req, "vsk_"+strings.Repeat("cd", 32)), 401, "SPONSOR_KEY_UNKNOWN")
	withFee := relayertest.Clone(req)
	withFee.Fee = &relayerapi.RevealFee{Amount: "1", Receiver: c.Accounts.Operator.Address.Hex()}
	relayertest.WantCode(t, "a key and a fee", revealAs(t, s, withFee, poorKey), 400, "INVALID_REQUEST")
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("refused sponsored reveals sent %d transactions", n-nonce)
	}
	if got := sponsorOf(t, s, poorKey); got.Reserved != "0" || got.Debited != "0" {
		t.Fatalf("a refused reveal left %+v", got)
	}
	if got := sponsorOf(t, s, goneKey); !got.Revoked || got.Balance != oneEther {
		t.Fatalf("a revoked sponsor reads %+v", got)
	}
	if resp := relayertest.Reveal(t, s, req); resp.JSON200 == nil {
		t.Fatalf("the card, by the treasury after: %d %s", resp.StatusCode(), resp.Body)
	}

	plain := relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "p.db"), nil))
	_, req = relayertest.Request(t, c, relayertest.User(c, 1), 44)
	relayertest.WantCode(t, "a key at a relayer without sponsors", revealAs(t, plain, req, poorKey), 422, "SPONSORS_NOT_ACCEPTED")
}

// A sponsored reveal is reserved and debited once across a restart: sent and not mined (504
// TX_PENDING), the relayer restarted on the same database, the same reveal with the same key
// joins the transaction found in flight (nothing reserved again); once mined, the sponsor is
// debited exactly its receipt's cost and nothing is left reserved.
func TestSponsorDebitedOnceAcrossARestart(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	over := sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), map[string]string{"RELAYER_FUNDING": "sponsor", "RECEIPT_TIMEOUT": "1s", "REPLACE_AFTER": "500ms",
		"RATE_LIMIT_PER_SPONSOR": "100000/1m"}) // the test polls GET /sponsor
	s := relayertest.Start(t, c, over)
	sp, key := createSponsor(t, s, "Card Issuer Ltd", nil)
	creditSponsor(t, s, sp.Id, oneEther)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 45)
	before := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	relayertest.WantCode(t, "the sponsored reveal, not mined in time", revealAs(t, s, req, key), 504, "TX_PENDING")
	held := sponsorOf(t, s, key)
	if held.Reserved == "0" || held.Debited != "0" {
		t.Fatalf("in flight, the sponsor is %+v: want its worst case reserved", held)
	}
	s.Stop()
	s = relayertest.Start(t, c, over)
	relayertest.WantCode(t, "the same reveal after a restart", revealAs(t, s, req, key), 504, "TX_PENDING")
	if got := sponsorOf(t, s, key); got.Reserved != held.Reserved {
		t.Fatalf("after a restart and a repeat, reserved %s, want %s (once)", got.Reserved, held.Reserved)
	}
	c.ResumeSealing()
	edgetest.WaitFor(t, "the reveal mined", func() bool { return relayertest.OperatorNonce(t, c) == before+1 })
	edgetest.WaitFor(t, "the sponsor debited", func() bool { return sponsorOf(t, s, key).RevealsPaid == 1 })
	st := relayertest.Status(t, s, req)
	if st.TxHash == nil {
		t.Fatalf("status %+v", st)
	}
	got, cost := sponsorOf(t, s, key), costOf(t, c, *st.TxHash)
	if got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 1 {
		t.Fatalf("mined after a restart: the sponsor is %+v, want debited %s once and nothing reserved", got, cost)
	}
	if n := relayertest.OperatorNonce(t, c); n != before+1 {
		t.Fatalf("%d transactions for one sponsored nullifier", n-before)
	}
}

// signVoucher is a voucher of sponsor for allowance wei until expires, with id, signed by key as
// EIP-712 typed data through go-ethereum's reference implementation (what wallets use): of type
// Voucher (bound to the reveal whose nullifier is id), or BearerVoucher when bearer.
func signVoucher(t testing.TB, c *devchain.Chain, key *ecdsa.PrivateKey, sponsor, allowance string, expires int64, id common.Hash, bearer bool) relayerapi.Voucher {
	t.Helper()
	primary := "Voucher"
	if bearer {
		primary = "BearerVoucher"
	}
	typed := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "version", Type: "string"}, {Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
			primary:        {{Name: "sponsor", Type: "string"}, {Name: "allowance", Type: "uint256"}, {Name: "expiresAt", Type: "uint256"}, {Name: "id", Type: "bytes32"}},
		},
		PrimaryType: primary,
		Domain:      apitypes.TypedDataDomain{Name: "vaultd relayer", Version: "1", ChainId: math.NewHexOrDecimal256(int64(c.ChainID)), VerifyingContract: c.Contracts.Vault.Hex()},
		Message:     apitypes.TypedDataMessage{"sponsor": sponsor, "allowance": allowance, "expiresAt": strconv.FormatInt(expires, 10), "id": id.Hex()},
	}
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	v := relayerapi.Voucher{Sponsor: sponsor, Allowance: allowance, ExpiresAt: expires, Id: id.Hex(), Signature: hexutil.Encode(sig)}
	if bearer {
		v.Bearer = &bearer
	}
	return v
}

// nullifierOf is req's nullifier: the id of a voucher bound to its reveal.
func nullifierOf(t testing.TB, req relayerapi.RevealRequest) common.Hash {
	return common.HexToHash(relayertest.NullifierHex(t, req))
}

// randomID is a bearer voucher's id: random bytes.
func randomID(t testing.TB) common.Hash {
	return common.BytesToHash(crypto.FromECDSA(relayertest.FreshKey(t)))
}

// A voucher the sponsor's voucherSigner signed pays for one reveal, carried by the recipient's
// device instead of the key: the sponsor is debited exactly the receipt's cost, and a bearer
// voucher used again (for another card) is 409 VOUCHER_USED, nothing sent. Refused before anything is
// sent, each with its own code: expired (402 VOUCHER_EXPIRED), signed by another key (422
// VOUCHER_INVALID), an allowance below the reveal's worst case (402 VOUCHER_ALLOWANCE_LOW). A
// voucher whose reveal a step after the reservation refused (the per-recipient limit) is given
// back whole by the reveal's undo: nothing held, and it pays for another reveal after.
// On SQLite and on Postgres.
func TestSponsorVoucher(t *testing.T) {
	t.Parallel()
	over := map[string]string{"RELAYER_FUNDING": "sponsor", "RATE_LIMIT_PER_RECIPIENT": "1/1h"}
	t.Run("sqlite", func(t *testing.T) {
		c := devchaintest.Start(t)
		sponsorVoucher(t, c, relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), over)))
	})
	t.Run("postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		sponsorVoucher(t, c, relayertest.Start(t, c, sponsorEnv(sqldbtest.Postgres(t), over)))
	})
}

// voucherSponsor creates a sponsor at s whose voucher signer is signer, credited one native
// token, and answers it with its key.
func voucherSponsor(t *testing.T, s *relayertest.Server) (signer *ecdsa.PrivateKey, sp relayerapi.Sponsor, key string) {
	signer = relayertest.FreshKey(t)
	signerAddr := crypto.PubkeyToAddress(signer.PublicKey).Hex()
	sp, key = createSponsor(t, s, "Card Issuer Ltd", &signerAddr)
	creditSponsor(t, s, sp.Id, oneEther)
	return signer, sp, key
}

func sponsorVoucher(t *testing.T, c *devchain.Chain, s *relayertest.Server) {
	signer, sp, key := voucherSponsor(t, s)
	later := time.Now().Add(time.Hour).Unix()
	const allowance = "500000000000000000" // 0.5: above a reveal's worst case at MAX_FEE_PER_GAS

	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	first := relayertest.PrepareFor(t, c, newCard(t, c, 0, c.Tokens[0].Address, 51), recipient)
	third := relayertest.PrepareFor(t, c, newCard(t, c, 2, c.Tokens[0].Address, 53), recipient) // to the same recipient: over its limit
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 52)
	nonce := relayertest.PendingOperatorNonce(t, c)
	refused := func(what string, req relayerapi.RevealRequest, v relayerapi.Voucher, status int, code string) {
		t.Helper()
		req = relayertest.Clone(req)
		req.Voucher = &v
		relayertest.WantCode(t, what, relayertest.Reveal(t, s, req), status, code)
	}
	own := nullifierOf(t, first)
	refused("an expired voucher", first, signVoucher(t, c, signer, sp.Id, allowance, time.Now().Add(-time.Minute).Unix(), own, false), 402, "VOUCHER_EXPIRED")
	refused("a voucher signed by another key", first, signVoucher(t, c, relayertest.FreshKey(t), sp.Id, allowance, later, own, false), 422, "VOUCHER_INVALID")
	forged := signVoucher(t, c, signer, sp.Id, allowance, later, own, false)
	forged.Allowance = oneEther // not what was signed
	refused("a voucher changed", first, forged, 422, "VOUCHER_INVALID")
	refused("an allowance below the worst case", first, signVoucher(t, c, signer, sp.Id, "1000", later, own, false), 402, "VOUCHER_ALLOWANCE_LOW")
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("refused vouchers sent %d transactions", n-nonce)
	}

	v := signVoucher(t, c, signer, sp.Id, allowance, later, randomID(t), true)
	paid := relayertest.Clone(first)
	paid.Voucher = &v
	resp := relayertest.Reveal(t, s, paid)
	if resp.JSON200 == nil {
		t.Fatalf("the voucher's reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	cost := costOf(t, c, resp.JSON200.TxHash)
	if got := sponsorOf(t, s, key); got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 1 {
		t.Fatalf("the sponsor is %+v, want debited the receipt's cost %s", got, cost)
	}
	nonce = relayertest.PendingOperatorNonce(t, c)
	w := signVoucher(t, c, signer, sp.Id, allowance, later, randomID(t), true)
	refused("a voucher's reveal over the recipient's limit", third, w, 429, "RATE_LIMITED")
	refused("the voucher used again", second, v, 409, "VOUCHER_USED")
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("refused vouchers sent %d transactions", n-nonce)
	}
	if got := sponsorOf(t, s, key); got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 1 {
		t.Fatalf("after refused vouchers, the sponsor is %+v", got)
	}
	again := relayertest.Clone(second)
	again.Voucher = &w
	if resp = relayertest.Reveal(t, s, again); resp.JSON200 == nil {
		t.Fatalf("a voucher given back, on another reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	cost.Add(cost, costOf(t, c, resp.JSON200.TxHash))
	if got := sponsorOf(t, s, key); got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 2 {
		t.Fatalf("after two vouchers, the sponsor is %+v, want debited %s", got, cost)
	}
}

// A voucher of type Voucher is bound to the reveal whose nullifier is its id: card A's voucher
// sent with card B's reveal is 422 VOUCHER_INVALID, nothing sent, the sponsor's account
// unchanged and the voucher not used, so that A's reveal with it is paid after. The two types'
// signatures do not pass for each other's: a bound voucher presented as a bearer one, and a
// bearer voucher (its id A's nullifier) presented without bearer, are 422 VOUCHER_INVALID. A
// bearer voucher pays for any reveal.
func TestAVoucherPaysForItsOwnRevealAlone(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), map[string]string{"RELAYER_FUNDING": "sponsor"}))
	signer, sp, key := voucherSponsor(t, s)
	later := time.Now().Add(time.Hour).Unix()
	const allowance = "500000000000000000"
	_, cardA := relayertest.Request(t, c, relayertest.User(c, 0), 55)
	_, cardB := relayertest.Request(t, c, relayertest.User(c, 1), 56)
	with := func(req relayerapi.RevealRequest, v relayerapi.Voucher) relayerapi.RevealRequest {
		req = relayertest.Clone(req)
		req.Voucher = &v
		return req
	}
	bound := signVoucher(t, c, signer, sp.Id, allowance, later, nullifierOf(t, cardA), false)
	nonce := relayertest.PendingOperatorNonce(t, c)
	relayertest.WantCode(t, "card A's voucher with card B's reveal", relayertest.Reveal(t, s, with(cardB, bound)), 422, "VOUCHER_INVALID")
	asBearer, yes := bound, true
	asBearer.Bearer = &yes
	relayertest.WantCode(t, "a bound voucher presented as a bearer one", relayertest.Reveal(t, s, with(cardB, asBearer)), 422, "VOUCHER_INVALID")
	bearerA := signVoucher(t, c, signer, sp.Id, allowance, later, nullifierOf(t, cardA), true)
	bearerA.Bearer = nil
	relayertest.WantCode(t, "a bearer voucher presented without bearer", relayertest.Reveal(t, s, with(cardA, bearerA)), 422, "VOUCHER_INVALID")
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("refused vouchers sent %d transactions", n-nonce)
	}
	if got := sponsorOf(t, s, key); got.Balance != oneEther || got.Debited != "0" || got.Reserved != "0" || got.RevealsPaid != 0 {
		t.Fatalf("after vouchers refused, the sponsor is %+v", got)
	}

	resp := relayertest.Reveal(t, s, with(cardA, bound))
	if resp.JSON200 == nil {
		t.Fatalf("card A's reveal with its own voucher: %d %s", resp.StatusCode(), resp.Body)
	}
	cost := costOf(t, c, resp.JSON200.TxHash)
	if resp = relayertest.Reveal(t, s, with(cardB, signVoucher(t, c, signer, sp.Id, allowance, later, randomID(t), true))); resp.JSON200 == nil {
		t.Fatalf("card B's reveal with a bearer voucher: %d %s", resp.StatusCode(), resp.Body)
	}
	cost.Add(cost, costOf(t, c, resp.JSON200.TxHash))
	if got := sponsorOf(t, s, key); got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 2 {
		t.Fatalf("after two vouchers' reveals, the sponsor is %+v, want debited %s", got, cost)
	}
}

// A voucher sent with a negative allowance or expiry is refused 400 INVALID_REQUEST before its
// signature is checked, nothing sent or reserved: signed for an allowance of 5 and sent as -5 (or
// its expiry negated), it is not taken for its sponsor's signature, as a digest of the
// magnitudes alone would take it. The document's validator refuses both over HTTP with the same
// answer; the relayer refuses them itself (the edge's parseReveal, under the validator).
func TestAVoucherWithANegativeNumberIsRefused(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), map[string]string{"RELAYER_FUNDING": "sponsor"}))
	signer, sp, key := voucherSponsor(t, s)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 57)
	later := time.Now().Add(time.Hour).Unix()
	lessAllowance := signVoucher(t, c, signer, sp.Id, "5", later, nullifierOf(t, req), false)
	lessAllowance.Allowance = "-5"
	pastExpiry := signVoucher(t, c, signer, sp.Id, "500000000000000000", later, nullifierOf(t, req), false)
	pastExpiry.ExpiresAt = -later
	nonce := relayertest.PendingOperatorNonce(t, c)
	for what, v := range map[string]relayerapi.Voucher{"allowance -5": lessAllowance, "a negative expiry": pastExpiry} {
		r := relayertest.Clone(req)
		r.Voucher = &v
		_, err := s.Svc.Reveal(ctx, r)
		if re, ok := errors.AsType[*relayer.RevealError](err); !ok || re.Reason != relayer.InvalidInput {
			t.Errorf("a voucher with %s: %v, want the relayer's InvalidInput (400 INVALID_REQUEST)", what, err)
		}
		relayertest.WantCode(t, "a voucher with "+what+" over HTTP", relayertest.Reveal(t, s, r), 400, "INVALID_REQUEST")
	}
	if n := relayertest.PendingOperatorNonce(t, c); n != nonce {
		t.Fatalf("refused vouchers sent %d transactions", n-nonce)
	}
	if got := sponsorOf(t, s, key); got.Debited != "0" || got.Reserved != "0" {
		t.Fatalf("after vouchers refused, the sponsor is %+v", got)
	}
}

// What a sponsor's debits show: its balance gauge (vaultd_relayer_sponsor_balance_ether, from
// the database), its debits (vaultd_relayer_sponsor_debited_ether_total), the reveal counted as
// the sponsor's (vaultd_relayer_reveals_funded_total{funding="sponsor"}), and the webhook
// sponsor.balance_low once, when a debit takes its balance under RELAYER_SPONSOR_LOW_BALANCE
// (a second debit under it tells nothing more).
func TestSponsorMetricsAndLowBalanceWebhook(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	const secret = "a webhook secret for the tests"
	h := webhooktest.Start(t, secret)
	s := relayertest.Start(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), map[string]string{"RELAYER_FUNDING": "sponsor",
		"WEBHOOK_URLS": h.URL, "WEBHOOK_SECRET": secret, "RELAYER_SPONSOR_LOW_BALANCE": "0.999999999999999999"})) // 1 wei under what is credited
	sp, key := createSponsor(t, s, "Card Issuer Ltd", nil)
	creditSponsor(t, s, sp.Id, oneEther)
	if m := scrape(t, s); !strings.Contains(m, `vaultd_relayer_sponsor_balance_ether{sponsor="`+sp.Id+`"} 1`+"\n") {
		t.Fatalf("the balance gauge before any reveal:\n%s", edgetest.Grep(m, "sponsor"))
	}
	cost := new(big.Int)
	for i := range 2 {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(61+i))
		resp := revealAs(t, s, req, key)
		if resp.JSON200 == nil {
			t.Fatalf("sponsored reveal %d: %d %s", i, resp.StatusCode(), resp.Body)
		}
		cost.Add(cost, costOf(t, c, resp.JSON200.TxHash))
	}
	left, _ := new(big.Float).Quo(new(big.Float).SetInt(new(big.Int).Sub(bigOf(t, oneEther), cost)), big.NewFloat(1e18)).Float64()
	spent, _ := new(big.Float).Quo(new(big.Float).SetInt(cost), big.NewFloat(1e18)).Float64()
	m := scrape(t, s)
	// The ether figures are float64 sums: equal to the wei's within rounding, not to the digit.
	for series, want := range map[string]float64{
		`vaultd_relayer_sponsor_balance_ether{sponsor="` + sp.Id + `"}`:       left,
		`vaultd_relayer_sponsor_debited_ether_total{sponsor="` + sp.Id + `"}`: spent,
	} {
		if got, ok := edgetest.SeriesValue(m, series); !ok || got < want*(1-1e-9) || got > want*(1+1e-9) {
			t.Errorf("%s is %v (listed: %v), want %v", series, got, ok, want)
		}
	}
	for _, want := range []string{
		`vaultd_relayer_reveals_funded_total{funding="sponsor"} 2`,
		`vaultd_relayer_reveals_funded_total{funding="treasury"} 0`,
	} {
		if !strings.Contains(m, want+"\n") {
			t.Errorf("metrics lack %s:\n%s", want, edgetest.Grep(m, "sponsor"))
		}
	}
	edgetest.WaitFor(t, "sponsor.balance_low", func() bool { return slices.Contains(h.Types(), "sponsor.balance_low") })
	time.Sleep(webhooktest.Quiet) // nothing more arrives
	low := 0
	for _, e := range h.Events() {
		if e.Type != "sponsor.balance_low" {
			continue
		}
		low++
		if !strings.Contains(string(e.Data), sp.Id) || !strings.Contains(string(e.Data), `"threshold":"999999999999999999"`) {
			t.Errorf("sponsor.balance_low: %s", e.Data)
		}
	}
	if low != 1 {
		t.Fatalf("sponsor.balance_low told %d times, want once", low)
	}
}

// A sponsor's key is never logged: a keyed reveal, a revoked key's, an unknown key's and the
// sponsor's GET /sponsor leave no line, at debug level, that holds the key or its hex part.
func TestSponsorKeysAreNeverLogged(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	logs := &edgetest.Logs{}
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, sponsorEnv("sqlite:"+filepath.Join(t.TempDir(), "r.db"), map[string]string{"RELAYER_FUNDING": "sponsor"})))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{Logger: edge.NewLogger(logs, slog.LevelDebug, "relayer")})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
	client, _ := relayertest.NewClient(url)
	s := &relayertest.Server{Svc: svc, URL: url, Client: client}
	sp, key := createSponsor(t, s, "Card Issuer Ltd", nil)
	creditSponsor(t, s, sp.Id, oneEther)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 71)
	if resp := revealAs(t, s, req, key); resp.JSON200 == nil {
		t.Fatalf("a keyed reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	sponsorOf(t, s, key)
	unknown := "vsk_" + strings.Repeat("ef", 32)
	_, other := relayertest.Request(t, c, relayertest.User(c, 1), 72)
	relayertest.WantCode(t, "an unknown key", revealAs(t, s, other, unknown), 401, "SPONSOR_KEY_UNKNOWN")
	s.Client.RevokeSponsorWithResponse(ctx, sp.Id, bearer(adminKey))
	relayertest.WantCode(t, "a revoked key", revealAs(t, s, other, key), 403, "SPONSOR_REVOKED")
	for _, secret := range []string{key[4:], unknown[4:]} {
		if strings.Contains(logs.String(), secret) {
			t.Fatalf("a sponsor's key is in the logs:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "SPONSOR_REVOKED") && !strings.Contains(logs.String(), "status=403") && !strings.Contains(logs.String(), `"status":403`) {
		t.Fatalf("the logs do not show the requests at all:\n%s", logs.String())
	}
}

// Across replicas sharing Redis and Postgres, a sponsored reveal sent to both at once is one
// transaction (both answers name it), reserved and debited once: the sponsor, read at either
// replica, is debited exactly that transaction's cost, nothing left reserved.
func TestSponsorDebitedOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	a, b, _ := replicaPair(t, c, map[string]string{"RELAYER_FUNDING": "sponsor", "ADMIN_API_KEY": adminKey}, nil)
	sp, key := createSponsor(t, a, "Card Issuer Ltd", nil)
	creditSponsor(t, b, sp.Id, oneEther) // one account, whichever replica is asked
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 81)
	answers := make(chan *relayerapi.RevealResponse, 2)
	c.PauseSealing() // both copies simulated before the one transaction is mined
	for _, s := range []*relayertest.Server{a, b} {
		go func() {
			resp, err := s.Client.RevealWithResponse(ctx, req, withKey(key))
			if err != nil {
				t.Error(err)
			}
			answers <- resp
		}()
	}
	waitSimulated(t, a.URL)
	waitSimulated(t, b.URL)
	c.ResumeSealing()
	first, second := <-answers, <-answers
	if first == nil || second == nil || first.JSON200 == nil || second.JSON200 == nil || first.JSON200.TxHash != second.JSON200.TxHash {
		t.Fatalf("the reveal sent to both replicas: %s / %s", first.Body, second.Body)
	}
	cost := costOf(t, c, first.JSON200.TxHash)
	for _, s := range []*relayertest.Server{a, b} {
		if got := sponsorOf(t, s, key); got.Debited != cost.String() || got.Reserved != "0" || got.RevealsPaid != 1 {
			t.Fatalf("the sponsor is %+v, want debited %s once", got, cost)
		}
	}
}

// An operator's credit sent with an Idempotency-Key credits once, on SQLite and on Postgres:
// sent again (a retry after a lost answer) it credits nothing and answers the first answer
// byte for byte, an unkeyed credit in between notwithstanding; eight at once with one key
// credit once and all answer alike; the key with another amount or another sponsor is 409
// IDEMPOTENCY_KEY_REUSED, nothing credited; a refused credit (404) records nothing, so its key
// serves the credit that follows; a malformed key is 400. A key older than a day is new again,
// and keyed credits clear such old keys out of the database.
func TestACreditWithAnIdempotencyKeyCreditsOnce(t *testing.T) {
	t.Parallel()
	over := map[string]string{"ADMIN_RATE_LIMIT_PER_IP": "1000/1m"}
	t.Run("sqlite", func(t *testing.T) {
		c := devchaintest.Start(t)
		url := "sqlite:" + filepath.Join(t.TempDir(), "relayer.db")
		creditsOnce(t, url, relayertest.Start(t, c, sponsorEnv(url, over)))
	})
	t.Run("postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		url := sqldbtest.Postgres(t)
		creditsOnce(t, url, relayertest.Start(t, c, sponsorEnv(url, over)))
	})
}

func creditsOnce(t *testing.T, databaseURL string, s *relayertest.Server) {
	credit := func(id, wei, key string) *relayerapi.CreditSponsorResponse {
		t.Helper()
		var params *relayerapi.CreditSponsorParams
		if key != "" {
			params = &relayerapi.CreditSponsorParams{IdempotencyKey: &key}
		}
		r, err := s.Client.CreditSponsorWithResponse(ctx, id, params, relayerapi.SponsorCredit{Amount: wei}, bearer(adminKey))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	credited := func() map[string]string {
		t.Helper()
		list, err := s.Client.ListSponsorsWithResponse(ctx, bearer(adminKey))
		if err != nil || list.JSON200 == nil {
			t.Fatalf("list: %v %s", err, list.Body)
		}
		out := map[string]string{}
		for _, sp := range list.JSON200.Sponsors {
			out[sp.Id] = sp.Credited
		}
		return out
	}
	sp, _ := createSponsor(t, s, "Card Issuer Ltd", nil)
	other, _ := createSponsor(t, s, "Partner App", nil)

	const key = "3f2b6c1e-credit-2026-11-28"
	first := credit(sp.Id, "1000", key)
	if first.JSON200 == nil || first.JSON200.Credited != "1000" {
		t.Fatalf("the first credit: %d %s", first.StatusCode(), first.Body)
	}
	creditSponsor(t, s, sp.Id, "5") // without a key, as before: credited each time
	for range 2 {
		if again := credit(sp.Id, "1000", key); again.StatusCode() != 200 || !bytes.Equal(again.Body, first.Body) {
			t.Fatalf("the credit again: %d %s, want the first answer %s", again.StatusCode(), again.Body, first.Body)
		}
	}
	if got := credited(); got[sp.Id] != "1005" {
		t.Fatalf("credited %s, want 1000 once and 5", got[sp.Id])
	}
	for _, c := range []struct{ id, wei string }{{sp.Id, "999"}, {sp.Id, "10000"}, {other.Id, "1000"}} {
		if r := credit(c.id, c.wei, key); r.StatusCode() != 409 || !codeIs(r.Body, "IDEMPOTENCY_KEY_REUSED") {
			t.Fatalf("the key again for %s wei to %s: %d %s, want 409 IDEMPOTENCY_KEY_REUSED", c.wei, c.id, r.StatusCode(), r.Body)
		}
	}
	for _, bad := range []string{"a key", strings.Repeat("k", 129)} {
		if r := credit(other.Id, "1", bad); r.StatusCode() != 400 || !codeIs(r.Body, "INVALID_REQUEST") {
			t.Fatalf("the key %q: %d %s, want 400", bad, r.StatusCode(), r.Body)
		}
	}
	if got := credited(); got[sp.Id] != "1005" || got[other.Id] != "0" {
		t.Fatalf("credited %v after the refusals, want %s 1005 and %s 0", got, sp.Id, other.Id)
	}
	if r := credit("sp_"+strings.Repeat("0", 32), "1", "refused"); r.StatusCode() != 404 {
		t.Fatalf("a keyed credit of an unknown sponsor: %d %s", r.StatusCode(), r.Body)
	}
	if r := credit(other.Id, "1", "refused"); r.JSON200 == nil || r.JSON200.Credited != "1" {
		t.Fatalf("the key of a refused credit, used for another: %d %s", r.StatusCode(), r.Body)
	}

	answers := make(chan *relayerapi.CreditSponsorResponse, 8)
	concurrent := "concurrent"
	for range cap(answers) {
		go func() {
			params := &relayerapi.CreditSponsorParams{IdempotencyKey: &concurrent}
			r, err := s.Client.CreditSponsorWithResponse(ctx, other.Id, params, relayerapi.SponsorCredit{Amount: "7"}, bearer(adminKey))
			if err != nil {
				t.Error(err)
			}
			answers <- r
		}()
	}
	var bodies [][]byte
	for range cap(answers) {
		if r := <-answers; r != nil {
			if r.StatusCode() != 200 {
				t.Fatalf("one of eight at once: %d %s", r.StatusCode(), r.Body)
			}
			bodies = append(bodies, r.Body)
		}
	}
	for _, b := range bodies[1:] {
		if !bytes.Equal(b, bodies[0]) {
			t.Fatalf("eight at once answered %s and %s", bodies[0], b)
		}
	}
	if got := credited(); got[other.Id] != "8" {
		t.Fatalf("eight credits of 7 at once with one key: credited %s, want 1 and 7 once", got[other.Id])
	}

	// A day later (the keys' records made older), the key is new again; the old records that no
	// key takes over are cleared out.
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE sponsor_credit_keys SET created_at = created_at - $1`, (25 * time.Hour).Milliseconds()); err != nil {
		t.Fatal(err)
	}
	if r := credit(sp.Id, "1000", key); r.JSON200 == nil || r.JSON200.Credited != "2005" {
		t.Fatalf("the key a day later: %d %s, want credited again", r.StatusCode(), r.Body)
	}
	var keys []string
	rows, err := db.Query(`SELECT idempotency_key FROM sponsor_credit_keys`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil || !slices.Equal(keys, []string{key}) {
		t.Fatalf("the keys kept: %v (%v), want the one used today", keys, err)
	}
}
