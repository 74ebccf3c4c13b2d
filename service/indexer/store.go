package indexer

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// keepBlocks is how many recent block hashes the store keeps to find the common ancestor of a
// reorg; a deeper reorg re-indexes from START_BLOCK.
const keepBlocks = 4096

// Block is a block number with its hash.
type Block struct {
	Number uint64
	Hash   common.Hash
}

// Event is one indexed event.
type Event struct {
	Name     string
	Block    Block
	LogIndex uint
	TxHash   common.Hash
	Address  common.Address
	Args     json.RawMessage
}

// indexedBlock is a block to store with its events.
type indexedBlock struct {
	Block
	Parent common.Hash
	Events []Event
}

// store keeps the indexed events and the hashes of recent blocks in an SQL database. The
// indexing writes and reads through db; the API's queries and streams read through readers, a
// pool of their own, so that they never hold up the writer (SQLite has one writing connection).
type store struct {
	db      *sqldb.DB
	readers *sqldb.DB
	lock    *sql.Conn // on Postgres, while this process is the writer: the session holding the lock; used by Run's goroutine only
}

//go:embed migrations
var migrations embed.FS

// Schema is the indexer's numbered migrations (goose_indexer).
var Schema = sqldb.Schema{Owner: "indexer", Files: migrations}

func openStore(databaseURL string, traces trace.TracerProvider) (*store, error) {
	db, err := sqldb.Open(databaseURL, sqldb.Traced(traces))
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(context.Background(), Schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	readers, err := sqldb.OpenReaders(databaseURL, sqldb.Traced(traces))
	if err != nil {
		db.Close()
		return nil, err
	}
	return &store{db: db, readers: readers}, nil
}

func (s *store) Close() error {
	s.dropWriter()
	s.readers.Close()
	return s.db.Close()
}

// checkMeta records what the store indexes (chain id, start block, each contract: "" for one
// not indexed) the first time, and refuses a store made for something else: its events would be
// wrong, or, for a contract added to an index made without it, missing from every block indexed
// so far. A setting missing from a store that holds blocks is one the index was made without.
func (s *store) checkMeta(ctx context.Context, want map[string]string) error {
	_, indexed, err := s.last(ctx)
	if err != nil {
		return err
	}
	for k, v := range want {
		first := v
		if indexed {
			first = ""
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, k, first); err != nil {
			return err
		}
		var got string
		if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = $1`, k).Scan(&got); err != nil {
			return err
		}
		if got != v {
			return fmt.Errorf("DATABASE_URL holds an index of %s %s, not %s: use another database (or empty this one)", k, cmp.Or(got, "(none)"), cmp.Or(v, "(none)"))
		}
	}
	return nil
}

// last is the newest indexed block; ok false when nothing is indexed.
func (s *store) last(ctx context.Context) (b Block, ok bool, err error) {
	var hash string
	err = s.db.QueryRowContext(ctx, `SELECT number, hash FROM blocks ORDER BY number DESC LIMIT 1`).Scan(&b.Number, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return b, false, nil
	}
	b.Hash = common.HexToHash(hash)
	return b, err == nil, err
}

// hashAt is the stored hash of block n; ok false when it is not kept.
func (s *store) hashAt(ctx context.Context, n uint64) (h common.Hash, ok bool, err error) {
	var hash string
	err = s.db.QueryRowContext(ctx, `SELECT hash FROM blocks WHERE number = $1`, n).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return h, false, nil
	}
	return common.HexToHash(hash), err == nil, err
}

// apply stores blocks (in order, each the child of the one before) and their events in one
// transaction, and forgets block hashes older than keepBlocks.
func (s *store) apply(ctx context.Context, blocks []indexedBlock) error {
	if len(blocks) == 0 {
		return nil
	}
	w, err := s.writer()
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	insBlock, err := tx.PrepareContext(ctx, `INSERT INTO blocks (number, hash, parent) VALUES ($1, $2, $3)`)
	if err != nil {
		return err
	}
	defer insBlock.Close()
	insEvents, err := tx.PrepareContext(ctx, s.insertEvents(rowsPerInsert))
	if err != nil {
		return err
	}
	defer insEvents.Close()
	// Events go rowsPerInsert rows per statement: one statement per row would pay the driver's
	// per-call work 2,000 times for a block of 2,000 events.
	args := make([]any, 0, rowsPerInsert*eventColumns)
	addresses := map[common.Address]string{} // EIP-55 costs a hash: once per contract, not per event
	for _, b := range blocks {
		blockHash := b.Hash.Hex()
		if _, err := insBlock.ExecContext(ctx, b.Number, blockHash, b.Parent.Hex()); err != nil {
			return err
		}
		for _, e := range b.Events {
			address, ok := addresses[e.Address]
			if !ok {
				address = e.Address.Hex()
				addresses[e.Address] = address
			}
			args = append(args, e.Name, b.Number, e.LogIndex, blockHash, e.TxHash.Hex(), address, string(e.Args))
			if len(args) == cap(args) {
				if _, err := insEvents.ExecContext(ctx, args...); err != nil {
					return err
				}
				args = args[:0]
			}
		}
	}
	if len(args) > 0 {
		if _, err := tx.ExecContext(ctx, s.insertEvents(len(args)/eventColumns), args...); err != nil {
			return err
		}
	}
	if last := blocks[len(blocks)-1].Number; last > keepBlocks {
		if _, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE number < $1`, last-keepBlocks); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Events are inserted rowsPerInsert rows per statement: 7 × 100 parameters, within both
// engines' limits.
const (
	eventColumns  = 7
	rowsPerInsert = 100
)

// insertEvents is the INSERT of n event rows. SQLite gets anonymous ? parameters, which it binds
// by position; $n ones it would look up by name, one by one.
func (s *store) insertEvents(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO events (event, block_number, log_index, block_hash, tx_hash, address, args) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for c := range eventColumns {
			if c > 0 {
				b.WriteByte(',')
			}
			if s.db.Dialect == sqldb.SQLite {
				b.WriteByte('?')
			} else {
				fmt.Fprintf(&b, "$%d", i*eventColumns+c+1)
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// rollback removes every block after n and its events (of every name in names); it returns how
// many events it removed.
func (s *store) rollback(ctx context.Context, n uint64, names []string) (int64, error) {
	w, err := s.writer()
	if err != nil {
		return 0, err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var removed int64
	for _, name := range names {
		res, err := tx.ExecContext(ctx, `DELETE FROM events WHERE event = $1 AND block_number > $2`, name, n)
		if err != nil {
			return 0, err
		}
		k, _ := res.RowsAffected()
		removed += k
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE number > $1`, n); err != nil {
		return 0, err
	}
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM reorgs`).Scan(&seq); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO reorgs (seq, ancestor) VALUES ($1, $2)`, seq, int64(n)); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM reorgs WHERE seq <= $1`, seq-keepReorgs); err != nil {
		return 0, err
	}
	return removed, tx.Commit()
}

// rolledBackBefore is the oldest common ancestor below n of the reorgs kept (keepReorgs, every
// replica's writer's): ok false when none is below n.
func (s *store) rolledBackBefore(ctx context.Context, n uint64) (ancestor uint64, ok bool, err error) {
	var a sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT MIN(ancestor) FROM reorgs WHERE ancestor < $1`, int64(n)).Scan(&a)
	return uint64(a.Int64), a.Valid, err
}

// query selects the events named name in blocks [from, to], after the position (afterBlock,
// afterLog) when after is set, oldest first, at most limit.
type query struct {
	name       string
	from, to   uint64
	after      bool
	afterBlock uint64
	afterLog   uint
	limit      int
}

func (s *store) events(ctx context.Context, q query) ([]Event, error) {
	afterBlock, afterLog := int64(-1), int64(-1)
	if q.after {
		afterBlock, afterLog = int64(q.afterBlock), int64(q.afterLog)
	}
	rows, err := s.readers.QueryContext(ctx, `SELECT block_number, log_index, block_hash, tx_hash, address, args FROM events
		WHERE event = $1 AND block_number >= $2 AND block_number <= $3 AND (block_number > $4 OR (block_number = $5 AND log_index > $6))
		ORDER BY block_number, log_index LIMIT $7`,
		q.name, q.from, q.to, afterBlock, afterBlock, afterLog, q.limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		e := Event{Name: q.name}
		var blockHash, txHash, address, args string
		if err := rows.Scan(&e.Block.Number, &e.LogIndex, &blockHash, &txHash, &address, &args); err != nil {
			return nil, err
		}
		e.Block.Hash, e.TxHash, e.Address, e.Args = common.HexToHash(blockHash), common.HexToHash(txHash), common.HexToAddress(address), json.RawMessage(args)
		out = append(out, e)
	}
	return out, rows.Err()
}

// eventAt is the name and block hash of the event stored at (block, logIndex), of one of names
// (every name the indexer knows: one primary-key probe each); ok false when there is none.
func (s *store) eventAt(ctx context.Context, names []string, block uint64, logIndex uint) (name string, h common.Hash, ok bool, err error) {
	args := []any{block, logIndex}
	marks := make([]string, len(names))
	for i, n := range names {
		args = append(args, n)
		marks[i] = fmt.Sprintf("$%d", i+3)
	}
	var hash string
	err = s.readers.QueryRowContext(ctx, `SELECT event, block_hash FROM events WHERE event IN (`+strings.Join(marks, ", ")+`)
		AND block_number = $1 AND log_index = $2 LIMIT 1`, args...).Scan(&name, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", h, false, nil
	}
	return name, common.HexToHash(hash), err == nil, err
}
