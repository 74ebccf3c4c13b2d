package sqldb_test

import (
	"os"
	"sync"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

func TestMain(m *testing.M) { os.Exit(sqldbtest.Main(m)) }

// Replicas starting together create their tables at once: on Postgres, concurrent CREATE TABLE
// IF NOT EXISTS of one table can fail on the catalog's unique index; Migrate serialises them.
func TestMigrateFromManyReplicasAtOnce(t *testing.T) {
	url := sqldbtest.Postgres(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			db, err := sqldb.Open(url)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			errs <- db.Migrate("test",
				`CREATE TABLE IF NOT EXISTS a (id BIGINT PRIMARY KEY, v TEXT NOT NULL)`,
				`CREATE TABLE IF NOT EXISTS b (id BIGINT PRIMARY KEY)`)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a replica's migration: %v", err)
		}
	}
}
