package sqldb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

func TestMain(m *testing.M) { os.Exit(sqldbtest.Main(m)) }

// schema is a test owner's migrations, both engines alike: the first n of three.
func schema(n int) sqldb.Schema {
	files := []string{
		"CREATE TABLE IF NOT EXISTS a (id BIGINT PRIMARY KEY, v TEXT NOT NULL);\nCREATE TABLE IF NOT EXISTS b (id BIGINT PRIMARY KEY);",
		"ALTER TABLE a ADD COLUMN w TEXT NOT NULL DEFAULT '';",
		"CREATE INDEX a_by_w ON a (w);",
	}
	fsys := fstest.MapFS{}
	for i, body := range files[:n] {
		for _, engine := range []string{"sqlite", "postgres"} {
			fsys[fmt.Sprintf("migrations/%s/%05d_step.sql", engine, i+1)] = &fstest.MapFile{Data: []byte("-- +goose Up\n" + body + "\n")}
		}
	}
	return sqldb.Schema{Owner: "test", Files: fsys}
}

// Replicas starting together migrate at once: on Postgres one at a time (goose's session
// lock), each migration applied once, and every replica finds the schema at its newest.
func TestMigrateFromManyReplicasAtOnce(t *testing.T) {
	url := sqldbtest.Postgres(t)
	var wg sync.WaitGroup
	applied := make(chan []sqldb.Applied, 8)
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			db, err := sqldb.Open(url)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			a, err := db.Migrate(context.Background(), schema(3))
			errs <- err
			applied <- a
		})
	}
	wg.Wait()
	close(errs)
	close(applied)
	for err := range errs {
		if err != nil {
			t.Fatalf("a replica's migration: %v", err)
		}
	}
	var all []sqldb.Applied
	for a := range applied {
		all = append(all, a...)
	}
	if len(all) != 3 {
		t.Fatalf("applied %v across the replicas, want versions 1, 2, 3 once", all)
	}
}

// A database a newer binary migrated (its version above this binary's newest migration) is
// refused at start with both versions named, nothing applied; the binary it came from, and a
// newer one, open it.
func TestMigrateRefusesADatabaseNewerThanTheBinary(t *testing.T) {
	for name, url := range map[string]string{"sqlite": "sqlite:" + filepath.Join(t.TempDir(), "db"), "postgres": sqldbtest.Postgres(t)} {
		t.Run(name, func(t *testing.T) {
			db, err := sqldb.Open(url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			if a, err := db.Migrate(ctx, schema(3)); err != nil || len(a) != 3 {
				t.Fatalf("the newer binary's migration: %v %v", a, err)
			}
			_, err = db.Migrate(ctx, schema(2))
			if err == nil || !strings.Contains(err.Error(), "test schema is at version 3, newer than this binary's 2") {
				t.Fatalf("an older binary's start: %v, want the database refused", err)
			}
			if v, err := db.Versions(ctx, schema(3)); err != nil || v["test"] != 3 {
				t.Fatalf("versions %v %v", v, err)
			}
			if a, err := db.Migrate(ctx, schema(3)); err != nil || len(a) != 0 {
				t.Fatalf("the same binary again: %v %v", a, err)
			}
		})
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

// A database that cannot be reached is named in the error without its password, wherever the
// URL carries it: in its user info, or as pgx also takes it, in the query.
func TestOpenShowsNoPassword(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"postgres://u:hunter2@127.0.0.1:1/db?connect_timeout=1",
		"postgres://u@127.0.0.1:1/db?password=hunter2&connect_timeout=1",
		"postgres://u@127.0.0.1:1/db?sslpassword=hunter2&connect_timeout=1&sslmode=disable",
	} {
		_, err := sqldb.Open(u)
		if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "127.0.0.1:1") {
			t.Errorf("opening an unreachable database: %v", err)
		}
	}
}
