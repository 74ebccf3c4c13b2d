package registry

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// Replicas. With DATABASE_URL=postgres://…, any number of registries share one Postgres: the
// entries are rows of registry_tokens, the icons rows of registry_icons, the token list and the
// relayer directory one row each of registry_tokenlist and registry_relayers. A write takes a
// transaction-level advisory lock (writes from every replica happen one at a time), reads the
// entries inside it, applies the change to them, and notifies the channel vaultd_registry in the
// same transaction. Every replica listens on that channel and, on each notification of another
// replica's write (and after each reconnection, for what it may have missed), reloads the
// entries and publishes them (its own writes it published already, as read under the lock): the
// list bodies are computed from the entries alone, so every replica answers the same body with
// the same ETag.

// notifyChannel is the LISTEN/NOTIFY channel of registry writes.
const notifyChannel = "vaultd_registry"

//go:embed migrations
var migrations embed.FS

// Schema is the registry's numbered migrations (goose_registry), on Postgres alone.
var Schema = sqldb.Schema{Owner: "registry", Files: migrations}

type pgBackend struct {
	url string
	db  *sqldb.DB
	id  string // names this replica's writes in their notifications, so that it skips its own
}

func newPGBackend(databaseURL string) (*pgBackend, error) {
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(context.Background(), Schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return &pgBackend{url: databaseURL, db: db, id: rand.Text()}, nil
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func loadRows(ctx context.Context, q queryer) (storeFile, bool, error) {
	f := storeFile{Version: fileVersion}
	rows, err := q.QueryContext(ctx, `SELECT chain_id, entry FROM registry_tokens ORDER BY address`)
	if err != nil {
		return f, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var chainID uint64
		var entry string
		if err := rows.Scan(&chainID, &entry); err != nil {
			return f, false, err
		}
		if f.ChainID != 0 && chainID != f.ChainID {
			return f, true, fmt.Errorf("DATABASE_URL holds tokens of chains %d and %d", f.ChainID, chainID)
		}
		f.ChainID = chainID
		var t storedToken
		if err := json.Unmarshal([]byte(entry), &t); err != nil {
			return f, true, fmt.Errorf("DATABASE_URL: the entry of %s: %w", t.Address, err)
		}
		f.Tokens = append(f.Tokens, t)
	}
	if err := rows.Err(); err != nil {
		return f, false, err
	}
	var list string
	switch err := q.QueryRowContext(ctx, `SELECT list FROM registry_tokenlist WHERE id = 1`).Scan(&list); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return f, false, err
	default:
		f.TokenList = &storedList{}
		if err := json.Unmarshal([]byte(list), f.TokenList); err != nil {
			return f, true, fmt.Errorf("DATABASE_URL: the token list: %w", err)
		}
	}
	var directory string
	switch err := q.QueryRowContext(ctx, `SELECT directory FROM registry_relayers WHERE id = 1`).Scan(&directory); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return f, false, err
	default:
		f.Directory = &storedDirectory{}
		if err := json.Unmarshal([]byte(directory), f.Directory); err != nil {
			return f, true, fmt.Errorf("DATABASE_URL: the relayer directory: %w", err)
		}
	}
	if err := f.validate(); err != nil {
		return f, true, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return f, len(f.Tokens) > 0, nil
}

func (b *pgBackend) load(ctx context.Context) (storeFile, bool, error) { return loadRows(ctx, b.db) }

func (b *pgBackend) write(ctx context.Context, _ contents, chainID uint64, apply func(contents) (edit, error)) (contents, edit, error) {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return contents{}, edit{}, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('vaultd:registry:write', 0))`); err != nil {
		return contents{}, edit{}, err
	}
	f, _, err := loadRows(ctx, tx)
	if err != nil {
		return contents{}, edit{}, err
	}
	cur := contentsOf(f)
	e, err := apply(cur)
	if err != nil || e.empty() {
		return cur, e, err
	}
	if e.icon != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO registry_icons (name, data) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, e.icon.name, e.icon.data); err != nil {
			return cur, e, fmt.Errorf("store icon: %w", err)
		}
	}
	if e.dropIcon != "" && iconFilePattern.MatchString(e.dropIcon) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM registry_icons WHERE name = $1`, e.dropIcon); err != nil {
			return cur, e, err
		}
	}
	if e.put != nil {
		entry, err := json.Marshal(*e.put)
		if err != nil {
			return cur, e, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO registry_tokens (chain_id, address, entry) VALUES ($1, $2, $3)
		ON CONFLICT (address) DO UPDATE SET chain_id = excluded.chain_id, entry = excluded.entry`, int64(chainID), e.put.Address, string(entry)); err != nil {
			return cur, e, err
		}
	}
	if e.remove != nil {
		if _, err := tx.ExecContext(ctx, `DELETE FROM registry_tokens WHERE address = $1`, e.remove.Hex()); err != nil {
			return cur, e, err
		}
	}
	if e.list != nil {
		list, err := json.Marshal(*e.list)
		if err != nil {
			return cur, e, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO registry_tokenlist (id, list) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET list = excluded.list`, string(list)); err != nil {
			return cur, e, err
		}
	}
	if e.directory != nil {
		directory, err := json.Marshal(*e.directory)
		if err != nil {
			return cur, e, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO registry_relayers (id, directory) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET directory = excluded.directory`, string(directory)); err != nil {
			return cur, e, err
		}
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, b.id); err != nil {
		return cur, e, err
	}
	if err := tx.Commit(); err != nil {
		return cur, e, err
	}
	return cur.applied(e), e, nil
}

func (b *pgBackend) icon(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error) {
	var data []byte
	var at time.Time
	err := b.db.QueryRowContext(ctx, `SELECT data, created_at FROM registry_icons WHERE name = $1`, name).Scan(&data, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, at, fmt.Errorf("no icon %s", name)
	}
	if err != nil {
		return nil, at, err
	}
	return readSeekNopCloser{bytes.NewReader(data)}, at, nil
}

func (b *pgBackend) close() { b.db.Close() }

// follow listens on notifyChannel until ctx is done and calls reload after each notification,
// and after each (re)connection: a change made while this replica was not listening is loaded
// too. A lost connection is retried every second, with one warning per outage.
func (b *pgBackend) follow(ctx context.Context, log *slog.Logger, reload func(context.Context) error) {
	failing := false
	for ctx.Err() == nil {
		err := b.listen(ctx, reload, func() {
			if failing {
				log.Info("following the other replicas' writes again")
				failing = false
			}
		})
		if ctx.Err() != nil {
			return
		}
		if !failing {
			log.Warn("lost the connection that follows the other replicas' writes; retrying every second (this replica may answer an old list meanwhile)", "err", err)
			failing = true
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func (b *pgBackend) listen(ctx context.Context, reload func(context.Context) error, connected func()) error {
	conn, err := pgx.Connect(ctx, b.url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	if err := reload(ctx); err != nil {
		return err
	}
	connected()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Payload == b.id {
			continue // this replica's own write: it published the entries it wrote, read under the lock
		}
		if err := reload(ctx); err != nil {
			return err
		}
	}
}
