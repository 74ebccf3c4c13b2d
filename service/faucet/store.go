package faucet

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/pressly/goose/v3"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// Status is a claim's state.
type Status string

// A claim's states (openapi/faucet.yaml). A claim is pending from the moment it is recorded,
// before its transaction is signed, until its transaction is mined or known dropped.
const (
	StatusNone      Status = "none"
	StatusPending   Status = "pending"
	StatusConfirmed Status = "confirmed"
	StatusFailed    Status = "failed"
)

// Claim is one address's claim as stored.
type Claim struct {
	Address              common.Address
	Amount               *big.Int
	Status               Status
	Nonce                *uint64       // of its transaction, once signed
	Hashes               []common.Hash // every version of its transaction that was signed, oldest first
	Raw                  []byte        // the newest signed version, to send again after a crash
	Block                uint64        // once confirmed
	Reason               string        // once failed
	CreatedAt, UpdatedAt time.Time
}

// TxHash is the newest version's hash, or the zero hash before one is signed.
func (c Claim) TxHash() common.Hash {
	if len(c.Hashes) == 0 {
		return common.Hash{}
	}
	return c.Hashes[len(c.Hashes)-1]
}

// errExists is an insert of a claim for an address that has one.
var errExists = errors.New("the address has a claim")

// errNotFound is a claim that is not there.
var errNotFound = errors.New("no claim")

// store keeps the claims of one chain in an SQL database, one row per address: the primary key
// (chain id, address) is what makes a claim happen once, whatever the requests' timing and
// whichever replica they reach. Each row names the wallet that pays it; a replica signs,
// settles and reconciles only its own wallet's rows, so with one wallet per replica no two
// processes ever work on one claim's transaction.
type store struct {
	db      *sqldb.DB
	chainID uint64
	wallet  string // lowercase 0x hex: this process's paying wallet

	guardMu sync.Mutex
	guard   *sql.Conn // holds the wallet's advisory lock (Postgres); nil while lost

	hooks *webhook.Outbox // the claims' webhook events (nil: none)

	powPurged atomic.Int64 // when spent challenges were last purged (unix seconds)
}

// openStore opens DATABASE_URL's database, creates the table if needed, and on Postgres takes
// the wallet's advisory lock for the life of the store: a second replica configured with the
// same wallet refuses to start (it would race this one's nonces).
func openStore(databaseURL string, chainID uint64, wallet common.Address, traces trace.TracerProvider) (*store, error) {
	db, err := sqldb.Open(databaseURL, sqldb.Traced(traces))
	if err != nil {
		return nil, err
	}
	s := &store{db: db, chainID: chainID, wallet: key(wallet)}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if db.Dialect == sqldb.Postgres {
		if err := s.lockWallet(); err != nil {
			db.Close()
			return nil, err
		}
	}
	return s, nil
}

//go:embed migrations
var migrations embed.FS

// Schema is the faucet's own numbered migrations (goose_faucet); its database holds the
// webhook outbox's and the pause's too (Schemas).
var Schema = sqldb.Schema{Owner: "faucet", Files: migrations, SQLiteGo: []*goose.Migration{
	goose.NewGoMigration(1, &goose.GoFunc{RunTx: sqliteSchema}, nil),
}}

// sqliteSchema is migration 1 on SQLite: the claims as they were before numbered migrations
// (migrations/postgres/00001_schema.sql on Postgres, whose statements it runs). In Go, since
// SQLite has no ADD COLUMN IF NOT EXISTS: a file made then (no goose_faucet table yet) has the
// tables already, and one from before the wallet column lacks it.
func sqliteSchema(ctx context.Context, tx *sql.Tx) error {
	schema, err := migrations.ReadFile("migrations/postgres/00001_schema.sql")
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(schema)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `ALTER TABLE claims ADD COLUMN wallet TEXT NOT NULL DEFAULT ''`); err != nil && !strings.Contains(err.Error(), "duplicate column") {
		return err
	}
	return nil
}

// Schemas are the migrations of everything the faucet keeps in its database, in the order a
// start runs them.
var Schemas = []sqldb.Schema{Schema, webhook.Schema, pause.Schema}

func (s *store) migrate() error {
	if _, err := s.db.Migrate(context.Background(), Schema); err != nil {
		return err
	}
	if s.db.Dialect == sqldb.Postgres {
		return nil
	}
	// Rows from before the wallet column: given to the one wallet that paid them (SQLite has one
	// faucet process).
	_, err := s.db.Exec(`UPDATE claims SET wallet = $1 WHERE wallet = ''`, s.wallet)
	return err
}

// lockWait is how long a start waits for its wallet's advisory lock.
const lockWait = 3 * time.Second

// errWalletNotHeld is a send refused because the store's connection no longer holds the
// wallet's advisory lock.
var errWalletNotHeld = errors.New("this process does not hold the wallet's advisory lock now (its database session ended)")

// Hold is the faucet's txmgr.Fence on Postgres: a transaction is signed and sent only while the
// connection that took the wallet's advisory lock still holds it, asked before every send. A
// Postgres restart (or a killed session) frees the lock, and a second process with the same key
// could take it; this process then signs nothing until relock has the lock again and the
// nonce is read afresh (keepWalletLock).
func (s *store) Hold() (time.Time, error) {
	s.guardMu.Lock()
	defer s.guardMu.Unlock()
	if s.guard == nil {
		return time.Time{}, errWalletNotHeld
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var held bool
	err := s.guard.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted)`).Scan(&held)
	if err != nil || !held {
		s.guard.Close()
		s.guard = nil
		return time.Time{}, errWalletNotHeld
	}
	return time.Now().Add(time.Minute), nil
}

// held reports whether the store holds its wallet's lock (as Hold last found).
func (s *store) held() bool {
	s.guardMu.Lock()
	defer s.guardMu.Unlock()
	return s.guard != nil
}

// lockWallet takes the Postgres advisory lock of this wallet on a connection held until Close;
// the server frees it when that connection ends (the process stopped or died).
func (s *store) lockWallet() error {
	conn, err := s.takeLock()
	if err != nil {
		return err
	}
	s.setGuard(conn)
	return nil
}

// setGuard makes conn, which holds the wallet's lock, the one Hold asks.
func (s *store) setGuard(conn *sql.Conn) {
	s.guardMu.Lock()
	defer s.guardMu.Unlock()
	s.guard = conn
}

// dropLock releases the lock conn holds and gives conn back (closing a *sql.Conn only returns it
// to the pool, lock and all).
func (s *store) dropLock(conn *sql.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = conn.ExecContext(ctx, `SELECT pg_advisory_unlock_all()`)
	conn.Close()
}

// takeLock takes the wallet's advisory lock on a connection of its own and returns it.
func (s *store) takeLock() (*sql.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second+lockWait)
	defer cancel()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	// Another replica finishing this wallet's orphaned claims holds the lock for milliseconds
	// (adoptOrphans): wait a little before calling it a second replica with this wallet.
	var ok bool
	for wait := time.Now().Add(lockWait); ; time.Sleep(100 * time.Millisecond) {
		if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, "vaultd:faucet:"+s.wallet).Scan(&ok); err != nil {
			conn.Close()
			return nil, fmt.Errorf("DATABASE_URL: %w", err)
		}
		if ok || time.Now().After(wait) {
			break
		}
	}
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("another faucet replica on this DATABASE_URL pays from wallet %s: give each replica its own FAUCET_PRIVATE_KEY", s.wallet)
	}
	return conn, nil
}

// shared reports whether other replicas may use the store (Postgres).
func (s *store) shared() bool { return s.db.Dialect == sqldb.Postgres }

func (s *store) Close() error {
	s.guardMu.Lock()
	if s.guard != nil {
		s.guard.Close()
	}
	s.guardMu.Unlock()
	return s.db.Close()
}

func key(a common.Address) string { return strings.ToLower(a.Hex()) }

func millis(t time.Time) int64 { return t.UnixMilli() }

// insert records a new pending claim; errExists when the address has one.
func (s *store) insert(ctx context.Context, addr common.Address, amount *big.Int, now time.Time) error {
	res, err := s.db.ExecContext(ctx, `INSERT INTO claims (chain_id, address, amount, status, created_at, updated_at, wallet)
		VALUES ($1, $2, $3, 'pending', $4, $4, $5) ON CONFLICT (chain_id, address) DO NOTHING`,
		s.chainID, key(addr), amount.String(), millis(now), s.wallet)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return cmp.Or(err, errExists)
	}
	return nil
}

// reopen turns a failed claim back into a pending one without a transaction; false when the
// claim is not failed (another request reopened it first).
func (s *store) reopen(ctx context.Context, addr common.Address, amount *big.Int, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE claims SET status = 'pending', amount = $1, nonce = NULL, hashes = '', raw = NULL,
		block_number = NULL, reason = '', created_at = $2, updated_at = $2, wallet = $3 WHERE chain_id = $4 AND address = $5 AND status = 'failed'`,
		amount.String(), millis(now), s.wallet, s.chainID, key(addr))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// recordTx stores a signed version of the claim's transaction before it is sent. Every version
// ever signed stays in the list, whatever its nonce: a receipt of any of them is the claim's
// payment (a version whose answer was lost may be mined after a later one was signed).
func (s *store) recordTx(ctx context.Context, addr common.Address, tx *types.Transaction) error {
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	h := tx.Hash().Hex()
	res, err := s.db.ExecContext(ctx, `UPDATE claims SET
		hashes = CASE WHEN hashes != '' THEN hashes || ',' || $2 ELSE $2 END,
		nonce = $1, raw = $3, updated_at = $4
		WHERE chain_id = $5 AND address = $6 AND status = 'pending' AND wallet = $7`,
		int64(tx.Nonce()), h, hexutil.Encode(raw), millis(time.Now()), s.chainID, key(addr), s.wallet)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("the claim is not pending: transaction not recorded")
	}
	return nil
}

// unrecordTx makes standing, the version that stands after version was refused, the claim's
// transaction again: its bytes and nonce (what the reconciler broadcasts after a restart), and
// the last of its hashes (the one GET /api/faucet/status names). version's hash stays in the
// list, before standing's: a receipt of any version ever signed is the claim's payment, and a
// refusal misread is paid once all the same. A version refused with none standing (a first
// send) changes nothing: its claim is withdrawn, or the reconciler sends those bytes again.
func (s *store) unrecordTx(ctx context.Context, addr common.Address, version, standing *types.Transaction) error {
	if standing == nil {
		return nil
	}
	raw, err := standing.MarshalBinary()
	if err != nil {
		return err
	}
	var hashes string
	err = s.db.QueryRowContext(ctx, `SELECT hashes FROM claims WHERE chain_id = $1 AND address = $2 AND status = 'pending' AND wallet = $3`,
		s.chainID, key(addr), s.wallet).Scan(&hashes)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // settled meanwhile
	}
	if err != nil {
		return err
	}
	// Only if no version was recorded since: a newer one stands then.
	_, err = s.db.ExecContext(ctx, `UPDATE claims SET hashes = $1, nonce = $2, raw = $3
		WHERE chain_id = $4 AND address = $5 AND status = 'pending' AND wallet = $6 AND hashes = $7`,
		strings.Join(txmgr.StandingLast(strings.Split(hashes, ","), version.Hash(), standing.Hash()), ","),
		int64(standing.Nonce()), hexutil.Encode(raw), s.chainID, key(addr), s.wallet, hashes)
	return err
}

// settle marks a pending claim of this wallet confirmed (block) or failed (reason).
func (s *store) settle(ctx context.Context, addr common.Address, status Status, block uint64, reason string) error {
	return s.settleOf(ctx, s.wallet, addr, status, block, reason)
}

// settleOf marks a pending claim of wallet confirmed (block) or failed (reason). The claim's
// webhook event (claim.confirmed, claim.failed) is recorded in the same transaction, once: a
// claim no longer pending changes nothing and tells nothing.
func (s *store) settleOf(ctx context.Context, wallet string, addr common.Address, status Status, block uint64, reason string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE claims SET status = $1, block_number = $2, reason = $3, updated_at = $4
		WHERE chain_id = $5 AND address = $6 AND status = 'pending' AND wallet = $7`,
		string(status), int64(block), reason, millis(time.Now()), s.chainID, key(addr), wallet)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		ev := claimEvent{Address: addr.Hex(), Reason: reason}
		if block > 0 {
			ev.BlockNumber = &block
		}
		if err := s.hooks.Emit(ctx, tx, "claim."+string(status), ev); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// claimEvent is the data of a claim's webhook events.
type claimEvent struct {
	Address     string  `json:"address"`
	TxHash      string  `json:"txHash,omitempty"`
	BlockNumber *uint64 `json:"blockNumber,omitempty"`
	Reason      string  `json:"reason,omitempty"`
}

// orphans runs adopt for each other wallet with pending claims whose replica is not running
// (its advisory lock is free), holding that lock meanwhile, so that its replica cannot start
// and work on them at the same time. Postgres only: SQLite has one process.
func (s *store) orphans(ctx context.Context, adopt func(wallet string, claims []Claim) error) error {
	if s.db.Dialect != sqldb.Postgres {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT wallet FROM claims WHERE chain_id = $1 AND status = 'pending' AND wallet <> $2`, s.chainID, s.wallet)
	if err != nil {
		return err
	}
	var wallets []string
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			rows.Close()
			return err
		}
		wallets = append(wallets, w)
	}
	rows.Close()
	for _, w := range wallets {
		if err := s.withWalletLock(ctx, w, func() error {
			claims, err := s.pendingOf(ctx, w)
			if err != nil {
				return err
			}
			return adopt(w, claims)
		}); err != nil {
			return err
		}
	}
	return nil
}

// withWalletLock runs fn while holding wallet's advisory lock, if it is free (its replica is
// not running); the lock's session is discarded after, which frees it.
func (s *store) withWalletLock(ctx context.Context, wallet string, fn func() error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // never back to the pool holding the lock
		conn.Close()
	}()
	var ok bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, "vaultd:faucet:"+wallet).Scan(&ok); err != nil || !ok {
		return err // held: its replica is running and works on its claims itself
	}
	return fn()
}

// pendingOf is every pending claim of wallet.
func (s *store) pendingOf(ctx context.Context, wallet string) ([]Claim, error) {
	return s.claims(ctx, `SELECT `+columns+` FROM claims WHERE chain_id = $1 AND status = 'pending' AND wallet = $2`, s.chainID, wallet)
}

// takeUnsigned makes wallet's claim of addr this process's, if it was recorded but never
// signed: true when it did.
func (s *store) takeUnsigned(ctx context.Context, wallet string, addr common.Address) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE claims SET wallet = $1, updated_at = $2
		WHERE chain_id = $3 AND address = $4 AND status = 'pending' AND wallet = $5 AND nonce IS NULL`,
		s.wallet, millis(time.Now()), s.chainID, key(addr), wallet)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// withdraw deletes a pending claim whose transaction was certainly never accepted by the node,
// so the address may claim again.
func (s *store) withdraw(ctx context.Context, addr common.Address) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM claims WHERE chain_id = $1 AND address = $2 AND status = 'pending' AND wallet = $3`, s.chainID, key(addr), s.wallet)
	return err
}

const columns = `address, amount, status, nonce, hashes, raw, block_number, reason, created_at, updated_at`

// get returns the address's claim, or errNotFound.
func (s *store) get(ctx context.Context, addr common.Address) (Claim, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM claims WHERE chain_id = $1 AND address = $2`, s.chainID, key(addr))
	c, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Claim{}, errNotFound
	}
	return c, err
}

// pending returns every pending claim of this process's wallet, those with a transaction first,
// by nonce.
func (s *store) pending(ctx context.Context) ([]Claim, error) {
	return s.claims(ctx, `SELECT `+columns+` FROM claims WHERE chain_id = $1 AND status = 'pending' AND wallet = $2
		ORDER BY nonce IS NULL, nonce, created_at`, s.chainID, s.wallet)
}

// claims runs a query of columns and scans every row.
func (s *store) claims(ctx context.Context, query string, args ...any) ([]Claim, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Claim
	for rows.Next() {
		c, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func scan(row interface{ Scan(...any) error }) (Claim, error) {
	var (
		c                Claim
		addr, amount     string
		status, hashes   string
		nonce, block     sql.NullInt64
		raw              sql.NullString
		created, updated int64
	)
	if err := row.Scan(&addr, &amount, &status, &nonce, &hashes, &raw, &block, &c.Reason, &created, &updated); err != nil {
		return c, err
	}
	c.Address = common.HexToAddress(addr)
	c.Amount, _ = new(big.Int).SetString(amount, 10)
	c.Status = Status(status)
	if nonce.Valid {
		n := uint64(nonce.Int64)
		c.Nonce = &n
	}
	for h := range strings.SplitSeq(hashes, ",") {
		if h != "" {
			c.Hashes = append(c.Hashes, common.HexToHash(h))
		}
	}
	if raw.Valid {
		c.Raw, _ = hexutil.Decode(raw.String)
	}
	c.Block = uint64(block.Int64)
	c.CreatedAt, c.UpdatedAt = time.UnixMilli(created), time.UnixMilli(updated)
	return c, nil
}

// list reads a page of this wallet's claims' transactions, newest first (txmgr.Paged). A claim retried after failing shows its newest
// attempt.
func (s *store) list(ctx context.Context, q txmgr.PageQuery) (txmgr.Page, error) {
	return s.listOf(ctx, s.wallet, q)
}

// listOf is list for any wallet paying claims from this store (key form): another replica's, for
// the fleet view.
func (s *store) listOf(ctx context.Context, wallet string, q txmgr.PageQuery) (txmgr.Page, error) {
	return txmgr.Paged(q, func(before uint64, n int) ([]txmgr.Listed, error) {
		rows, err := s.db.QueryContext(ctx, `SELECT nonce, address, hashes, COALESCE(raw, ''), status, COALESCE(block_number, -1), reason, updated_at
			FROM claims WHERE chain_id = $1 AND wallet = $2 AND nonce IS NOT NULL AND nonce < $3 ORDER BY nonce DESC LIMIT $4`,
			s.chainID, wallet, int64(before), n)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []txmgr.Listed
		for rows.Next() {
			var nonce, block, updated int64
			var addr, hashes, raw, status, reason string
			if err := rows.Scan(&nonce, &addr, &hashes, &raw, &status, &block, &reason, &updated); err != nil {
				return nil, err
			}
			l := txmgr.Listed{Nonce: uint64(nonce), Purpose: "claim " + addr, Versions: txmgr.Versions(hashes, raw),
				Reason: reason, UpdatedAt: time.UnixMilli(updated).UTC()}
			switch Status(status) {
			case StatusPending:
				l.State = txmgr.ListedPending
			case StatusConfirmed:
				l.State = txmgr.ListedMined
			default:
				l.State = txmgr.ListedFailed
			}
			if block >= 0 && l.State != txmgr.ListedPending {
				b := uint64(block)
				l.BlockNumber = &b
			}
			out = append(out, l)
		}
		return out, rows.Err()
	})
}

// spendChallenge records the challenge id spent until expires, or answers false when it was
// spent already.
func (s *store) spendChallenge(ctx context.Context, id string, expires, now time.Time) (bool, error) {
	if err := s.purgeChallenges(ctx, now); err != nil {
		return false, err
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO pow_spent (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, id, expires.Unix())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// unspendChallenge makes the challenge id unspent again: its claim was not made after all.
func (s *store) unspendChallenge(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM pow_spent WHERE id = $1`, id)
	return err
}

// tryChallenge counts nonce as one more solution checked against the challenge id (valid
// until expires), unless it is the nonce that already met it (passed: no hash needed, no try
// counted), and answers the tries, this one included: one statement, so tries made at once on
// several replicas are each counted.
func (s *store) tryChallenge(ctx context.Context, id string, nonce uint64, expires, now time.Time) (tries int, passed bool, err error) {
	if err := s.purgeChallenges(ctx, now); err != nil {
		return 0, false, err
	}
	var met sql.NullInt64
	err = s.db.QueryRowContext(ctx, `INSERT INTO pow_tries (id, tries, expires_at) VALUES ($1, 1, $2)
		ON CONFLICT (id) DO UPDATE SET tries = CASE WHEN pow_tries.passed = $3 THEN pow_tries.tries ELSE pow_tries.tries + 1 END
		RETURNING tries, passed`, id, expires.Unix(), int64(nonce)).Scan(&tries, &met)
	return tries, met.Valid && met.Int64 == int64(nonce), err
}

// passChallenge records nonce as the one that met the challenge id, and gives its try back: a
// right solution never uses up a challenge's tries.
func (s *store) passChallenge(ctx context.Context, id string, nonce uint64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE pow_tries SET passed = $2, tries = tries - 1 WHERE id = $1 AND passed IS NULL`, id, int64(nonce))
	return err
}

// purgeChallenges drops the spent and tried challenges past their expiry, at most once a minute
// (each replica): they can no longer be used, and their random ids never come again.
func (s *store) purgeChallenges(ctx context.Context, now time.Time) error {
	last := s.powPurged.Load()
	if now.Unix()-last < 60 || !s.powPurged.CompareAndSwap(last, now.Unix()) {
		return nil
	}
	for _, table := range []string{"pow_spent", "pow_tries"} {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM `+table+` WHERE expires_at < $1`, now.Unix()); err != nil {
			return err
		}
	}
	return nil
}
