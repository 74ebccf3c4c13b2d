package registry_test

import (
	"encoding/base64"
	"flag"
	"os"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
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
