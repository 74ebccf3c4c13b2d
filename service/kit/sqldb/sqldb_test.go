package sqldb_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

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

// Replicas sharing one SQLite file open it at once: the one that finds the file locked by
// another (which is switching it to WAL, or migrating) waits for the lock rather than failing
// to start with "database is locked".
func TestOpenWaitsForAnotherProcessesLock(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "shared.db")
	holder, err := sqldb.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.Exec(`PRAGMA journal_mode=DELETE`); err != nil { // as a file no replica has opened yet
		t.Fatal(err)
	}
	tx, err := holder.Begin() // _txlock=immediate: the file's write lock, held
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`CREATE TABLE a (id INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		tx.Commit()
		close(released)
	}()
	db, err := sqldb.Open(url)
	if err != nil {
		t.Fatalf("opened while another process held the file's lock: %v", err)
	}
	defer db.Close()
	<-released
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q, %v; want wal", mode, err)
	}
}
