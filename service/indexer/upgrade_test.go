package indexer_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// writeFixtures makes TestWriteUpgradeFixtures write testdata/upgrade anew: run it with the
// code whose databases the upgrade tests must open, never after a schema change.
var writeFixtures = flag.Bool("write-fixtures", false, "write testdata/upgrade with this code")

// TestWriteUpgradeFixtures writes what an indexer leaves in its database, on SQLite (a file) and
// on Postgres (a dump): what it indexes (meta), the recent blocks' hashes (its cursor) and three
// cards' commit events, indexed to the chain's head.
func TestWriteUpgradeFixtures(t *testing.T) {
	if !*writeFixtures {
		t.Skip("run with -write-fixtures to write testdata/upgrade")
	}
	dir := t.TempDir()
	writeFixture(t, dir, map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(dir, "indexer.db")})
	data, err := os.ReadFile(filepath.Join(dir, "indexer.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/upgrade/indexer.db", data, 0o644); err != nil {
		t.Fatal(err)
	}
	pg := sqldbtest.Postgres(t)
	writeFixture(t, t.TempDir(), map[string]string{"DATABASE_URL": pg})
	if err := os.WriteFile("testdata/upgrade/indexer.pg.sql", sqldbtest.Dump(t, pg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFixture(t *testing.T, dir string, over map[string]string) {
	c := devchaintest.Start(t)
	commit(t, c, 0, 3)
	s := startIndexer(t, c, dir, over)
	caughtUp(t, s, c)
	s.stop()
}
