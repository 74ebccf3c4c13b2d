package relayer_test

import (
	"database/sql"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// sponsorEnv is a relayer with the admin routes, on the database at databaseURL.
func sponsorEnv(databaseURL string, over map[string]string) map[string]string {
	m := map[string]string{"ADMIN_API_KEY": adminKey, "DATABASE_URL": databaseURL}
	maps.Copy(m, over)
	return m
}

// createSponsor makes a sponsor on the admin routes and answers it with its key.
func createSponsor(t testing.TB, s *server, name string, signer *string) (relayerapi.Sponsor, string) {
	t.Helper()
	resp, err := s.client.CreateSponsorWithResponse(ctx, relayerapi.SponsorRequest{Name: name, VoucherSigner: signer}, bearer(adminKey))
	if err != nil || resp.JSON201 == nil {
		t.Fatalf("create a sponsor: %v %s", err, resp.Body)
	}
	return resp.JSON201.Sponsor, resp.JSON201.Key
}

func creditSponsor(t testing.TB, s *server, id, wei string) relayerapi.Sponsor {
	t.Helper()
	resp, err := s.client.CreditSponsorWithResponse(ctx, id, relayerapi.SponsorCredit{Amount: wei}, bearer(adminKey))
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("credit %s: %v %s", id, err, resp.Body)
	}
	return *resp.JSON200
}

// The operator's sponsor routes, on SQLite and on Postgres: a sponsor is created with its key
// answered once (vsk_ and 64 hex digits; the database holds only its SHA-256), credited, listed
// and revoked (once: revoking again keeps the first time); an unknown id is 404, a credit of
// nothing 400, and without the admin key every route is 401.
func TestSponsorAdminRoutes(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "relayer.db")
		c := devchaintest.Start(t)
		key := sponsorAdminRoutes(t, c, startRelayer(t, c, sponsorEnv("sqlite:"+path, nil)))
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
		sponsorAdminRoutes(t, c, startRelayer(t, c, sponsorEnv(sqldbtest.Postgres(t), nil)))
	})
}

func sponsorAdminRoutes(t *testing.T, c *devchain.Chain, s *server) (key string) {
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
		r, err := s.client.CreditSponsorWithResponse(ctx, sp.Id, relayerapi.SponsorCredit{Amount: bad}, bearer(adminKey))
		if err != nil || r.StatusCode() != 400 {
			t.Fatalf("a credit of %q: %v %d %s", bad, err, r.StatusCode(), r.Body)
		}
	}
	unknown := "sp_" + strings.Repeat("0", 32)
	if r, err := s.client.CreditSponsorWithResponse(ctx, unknown, relayerapi.SponsorCredit{Amount: "1"}, bearer(adminKey)); err != nil || r.StatusCode() != 404 || !codeIs(r.Body, "NOT_FOUND") {
		t.Fatalf("a credit of an unknown sponsor: %v %s", err, r.Body)
	}
	if r, err := s.client.RevokeSponsorWithResponse(ctx, unknown, bearer(adminKey)); err != nil || r.StatusCode() != 404 {
		t.Fatalf("a revoke of an unknown sponsor: %v %s", err, r.Body)
	}
	rv, err := s.client.RevokeSponsorWithResponse(ctx, sp.Id, bearer(adminKey))
	if err != nil || rv.JSON200 == nil || !rv.JSON200.Revoked || rv.JSON200.RevokedAt == nil || rv.JSON200.Balance != "1234" {
		t.Fatalf("revoke: %v %s", err, rv.Body)
	}
	again, err := s.client.RevokeSponsorWithResponse(ctx, sp.Id, bearer(adminKey))
	if err != nil || again.JSON200 == nil || !again.JSON200.RevokedAt.Equal(*rv.JSON200.RevokedAt) {
		t.Fatalf("revoke again: %v %s", err, again.Body)
	}
	list, err := s.client.ListSponsorsWithResponse(ctx, bearer(adminKey))
	if err != nil || list.JSON200 == nil || len(list.JSON200.Sponsors) != 2 || list.JSON200.Sponsors[0].Id != sp.Id || !list.JSON200.Sponsors[0].Revoked ||
		list.JSON200.Sponsors[1].Id != other.Id || strings.Contains(string(list.Body), key[4:]) {
		t.Fatalf("list: %v %s", err, list.Body)
	}
	if r, err := s.client.ListSponsorsWithResponse(ctx); err != nil || r.StatusCode() != 401 {
		t.Fatalf("list without the admin key: %v %d", err, r.StatusCode())
	}
	if r, err := s.client.CreateSponsorWithResponse(ctx, relayerapi.SponsorRequest{Name: "x"}, bearer(key)); err != nil || r.StatusCode() != 401 {
		t.Fatalf("create with a sponsor's key as the admin's: %v %d", err, r.StatusCode())
	}
	return key
}
