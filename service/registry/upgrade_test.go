package registry_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"io"
	"maps"
	"net/http"
	"os"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/registry"
)

// writeFixtures makes TestWriteUpgradeFixtures write testdata/upgrade anew: run it with the
// code whose databases the upgrade tests must open, never after a schema change.
var writeFixtures = flag.Bool("write-fixtures", false, "write testdata/upgrade with this code")

// TestWriteUpgradeFixtures writes what registries leave in their Postgres (a dump; the registry
// keeps no SQLite): two of the dev chain's tokens, one with an icon, the other disabled.
func TestWriteUpgradeFixtures(t *testing.T) {
	if !*writeFixtures {
		t.Skip("run with -write-fixtures to write testdata/upgrade")
	}
	db := sqldbtest.Postgres(t)
	s := startServer(t, "", map[string]string{"DATABASE_URL": db, "PUBLIC_BASE_URL": "https://registry.example"})
	tokens := testChain.Tokens[:2]
	if r := upsert(t, s, registryapi.TokenInput{Address: tokens[0].Address.Hex(), Category: ptr("stable"),
		Icon: ptr("data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes(7)))}); r.StatusCode() != 201 {
		t.Fatalf("upsert: %d %s", r.StatusCode(), r.Body)
	}
	if r := upsert(t, s, registryapi.TokenInput{Address: tokens[1].Address.Hex(), Enabled: ptr(false)}); r.StatusCode() != 201 {
		t.Fatalf("upsert: %d %s", r.StatusCode(), r.Body)
	}
	s.close()
	if err := os.WriteFile("testdata/upgrade/registry.pg.sql", sqldbtest.Dump(t, db), 0o644); err != nil {
		t.Fatal(err)
	}
}

// storedEntry is a token's entry as the fixture's registry_tokens holds it (JSON).
type storedEntry struct {
	Address, Name, Symbol, IconFile, Category string
	Decimals                                  int
	Enabled                                   bool
	SortOrder                                 int32
}

// A registry's Postgres from before numbered migrations (testdata/upgrade, written by
// TestWriteUpgradeFixtures at 6520340) is migrated by this code's start and goes on: each
// stored token reads back through GET /tokens as stored (the disabled one to the admin only),
// the stored icon is served at its URL byte for byte, and the disabled token is enabled.
func TestAnUpgradedDatabaseGoesOn(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/upgrade/registry.pg.sql")
	if err != nil {
		t.Fatal(err)
	}
	url := sqldbtest.Postgres(t)
	sqldbtest.Restore(t, url, data)

	db, err := sqldb.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := map[string]storedEntry{}
	rows, err := db.Query(`SELECT entry FROM registry_tokens`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var entry string
		var e storedEntry
		if err := rows.Scan(&entry); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(entry), &e); err != nil {
			t.Fatal(err)
		}
		stored[e.Address] = e
	}
	rows.Close()
	icons := map[string][]byte{}
	rows, err = db.Query(`SELECT name, data FROM registry_icons`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		var icon []byte
		if err := rows.Scan(&name, &icon); err != nil {
			t.Fatal(err)
		}
		icons[name] = icon
	}
	rows.Close()
	if len(stored) != 2 || len(icons) != 1 {
		t.Fatalf("the fixture holds %d tokens and %d icons: want two and one", len(stored), len(icons))
	}

	s := startServer(t, "", map[string]string{"DATABASE_URL": url})
	all := listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
	if all.JSON200 == nil || len(all.JSON200.Tokens) != len(stored) {
		t.Fatalf("the admin's list: %d %s", all.StatusCode(), all.Body)
	}
	var disabled string
	for _, tok := range all.JSON200.Tokens {
		e, ok := stored[tok.Address]
		if !ok || tok.Name != e.Name || tok.Symbol != e.Symbol || tok.Decimals != e.Decimals || tok.Category != e.Category ||
			tok.Enabled != e.Enabled || tok.SortOrder != e.SortOrder {
			t.Fatalf("%s read back as %+v, stored as %+v", tok.Address, tok, e)
		}
		if !e.Enabled {
			disabled = e.Address
		}
		if e.IconFile == "" {
			continue
		}
		if tok.Icon != s.url+"/icons/"+e.IconFile {
			t.Fatalf("%s's icon at %q, stored as %s", tok.Address, tok.Icon, e.IconFile)
		}
		resp, err := http.Get(tok.Icon)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(body, icons[e.IconFile]) {
			t.Fatalf("GET %s: %d, %d bytes, want the %d stored", tok.Icon, resp.StatusCode, len(body), len(icons[e.IconFile]))
		}
	}
	if public := listTokens(t, s.public, nil); public.JSON200 == nil || len(public.JSON200.Tokens) != len(stored)-1 {
		t.Fatalf("the public list: %d %s", public.StatusCode(), public.Body)
	}

	if r := upsert(t, s, registryapi.TokenInput{Address: disabled, Enabled: ptr(true)}); r.JSON200 == nil || !r.JSON200.Enabled {
		t.Fatalf("enable %s: %d %s", disabled, r.StatusCode(), r.Body)
	}
	if public := listTokens(t, s.public, nil); public.JSON200 == nil || len(public.JSON200.Tokens) != len(stored) {
		t.Fatalf("the public list after enabling %s: %d %s", disabled, public.StatusCode(), public.Body)
	}
	v, err := db.Versions(ctx, registry.Schema)
	if err != nil || v["registry"] != 1 {
		t.Fatalf("the schema's version: %v %v", v, err)
	}
	if h, err := s.public.GetHealthWithResponse(ctx); err != nil || h.JSON200 == nil || h.JSON200.Schema == nil || !maps.Equal(*h.JSON200.Schema, v) {
		t.Fatalf("GET /health's schema, want %v: %v", v, err)
	}
}
