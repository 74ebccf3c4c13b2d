package sqldb

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Schema is the numbered migrations of what owns tables in a database (a service, or a kit
// package that keeps tables in the databases of several): Files holds a folder per engine,
// sqlite/ and postgres/, of goose SQL files 00001_….sql, 00002_….sql. Each owner records its
// version in a table of its own, goose_<owner>: owners sharing one database (the faucet and the
// webhook outbox in the faucet's) number their migrations apart, and each knows only its own.
type Schema struct {
	Owner string // [a-z_]+: names its version table
	Files fs.FS
	// SQLiteGo are SQLite's migrations written in Go (goose.NewGoMigration), numbered with its
	// files, for what its SQL cannot say: ADD COLUMN IF NOT EXISTS, say.
	SQLiteGo []*goose.Migration
}

// Applied is a migration that ran: owner's schema is at Version.
type Applied struct {
	Owner   string
	Version int64
}

// lockID is the Postgres advisory lock every migration takes, whichever its owner: replicas
// starting together migrate one at a time, and one that finds the lock held waits for it.
var lockID = func() int64 {
	h := fnv.New64a()
	h.Write([]byte("vaultd:migrate"))
	return int64(h.Sum64() >> 1)
}()

// Migrate applies, in order, each schema's migrations the database has not recorded, and
// answers those it applied. A database recording a version above a schema's newest migration was
// migrated by a newer binary: it is refused, nothing applied, since this code would misread it.
// On Postgres each owner's migrations run under a session advisory lock; SQLite has one process.
func (db *DB) Migrate(ctx context.Context, schemas ...Schema) ([]Applied, error) {
	var applied []Applied
	for _, s := range schemas {
		p, err := db.provider(s)
		if err != nil {
			return applied, err
		}
		if err := newerThanBinary(ctx, s.Owner, p); err != nil {
			return applied, err
		}
		results, err := p.Up(ctx)
		if err != nil {
			return applied, fmt.Errorf("migrate %s: %w", s.Owner, err)
		}
		for _, r := range results {
			applied = append(applied, Applied{Owner: s.Owner, Version: r.Source.Version})
		}
	}
	return applied, nil
}

// Versions answers each schema's version as the database records it (0: none applied).
func (db *DB) Versions(ctx context.Context, schemas ...Schema) (map[string]int64, error) {
	out := map[string]int64{}
	for _, s := range schemas {
		p, err := db.provider(s)
		if err != nil {
			return nil, err
		}
		v, err := p.GetDBVersion(ctx)
		if err != nil {
			return nil, fmt.Errorf("the %s schema's version: %w", s.Owner, err)
		}
		out[s.Owner] = v
	}
	return out, nil
}

// newerThanBinary refuses a database whose recorded version of owner's schema is above the
// newest migration p knows.
func newerThanBinary(ctx context.Context, owner string, p *goose.Provider) error {
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("the %s schema's version: %w", owner, err)
	}
	sources := p.ListSources()
	known := sources[len(sources)-1].Version
	if current > known {
		return fmt.Errorf("the database's %s schema is at version %d, newer than this binary's %d: a newer release migrated it; run that release (or one as new), never this one", owner, current, known)
	}
	return nil
}

func (db *DB) provider(s Schema) (*goose.Provider, error) {
	dialect, folder := goose.DialectSQLite3, "sqlite"
	opts := []goose.ProviderOption{goose.WithTableName("goose_" + s.Owner), goose.WithDisableGlobalRegistry(true)}
	if db.Dialect == Postgres {
		dialect, folder = goose.DialectPostgres, "postgres"
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(lockID), lock.WithLockTimeout(1, 300))
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	} else if len(s.SQLiteGo) > 0 {
		opts = append(opts, goose.WithGoMigrations(s.SQLiteGo...))
	}
	files, err := fs.Sub(s.Files, "migrations/"+folder)
	if err != nil {
		return nil, err
	}
	p, err := goose.NewProvider(dialect, db.DB, files, opts...)
	if err != nil {
		return nil, fmt.Errorf("the %s schema's migrations: %w", s.Owner, err)
	}
	return p, nil
}
