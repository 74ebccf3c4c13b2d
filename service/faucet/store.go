package faucet

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/seed018cc74c/vaultd/service/sqldb"
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
// (chain id, address) is what makes a claim happen once, whatever the requests' timing.
type store struct {
	db      *sqldb.DB
	chainID uint64
}

// openStore opens DATABASE_URL's database and creates the table if needed.
func openStore(databaseURL string, chainID uint64) (*store, error) {
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		return nil, err
	}
	_, err = db.Exec(`CREATE TABLE IF NOT EXISTS claims (
		chain_id     INTEGER NOT NULL,
		address      TEXT    NOT NULL, -- lowercase 0x hex
		amount       TEXT    NOT NULL, -- wei, decimal
		status       TEXT    NOT NULL, -- pending, confirmed, failed
		nonce        INTEGER,          -- of its transaction, once signed
		hashes       TEXT    NOT NULL DEFAULT '', -- every signed version, comma-separated, oldest first
		raw          TEXT,             -- the newest signed version, 0x hex
		block_number INTEGER,
		reason       TEXT    NOT NULL DEFAULT '',
		created_at   INTEGER NOT NULL, -- unix milliseconds
		updated_at   INTEGER NOT NULL,
		PRIMARY KEY (chain_id, address)
	)`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return &store{db: db, chainID: chainID}, nil
}

func (s *store) Close() error { return s.db.Close() }

func key(a common.Address) string { return strings.ToLower(a.Hex()) }

func millis(t time.Time) int64 { return t.UnixMilli() }

// insert records a new pending claim; errExists when the address has one.
func (s *store) insert(ctx context.Context, addr common.Address, amount *big.Int, now time.Time) error {
	res, err := s.db.ExecContext(ctx, `INSERT INTO claims (chain_id, address, amount, status, created_at, updated_at)
		VALUES (?, ?, ?, 'pending', ?, ?) ON CONFLICT (chain_id, address) DO NOTHING`,
		s.chainID, key(addr), amount.String(), millis(now), millis(now))
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
	res, err := s.db.ExecContext(ctx, `UPDATE claims SET status = 'pending', amount = ?, nonce = NULL, hashes = '', raw = NULL,
		block_number = NULL, reason = '', created_at = ?, updated_at = ? WHERE chain_id = ? AND address = ? AND status = 'failed'`,
		amount.String(), millis(now), millis(now), s.chainID, key(addr))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// recordTx stores a signed version of the claim's transaction before it is sent: a new nonce
// starts the list of versions afresh (the previous nonce was never accepted, or is dead), the
// same nonce adds a replacement.
func (s *store) recordTx(ctx context.Context, addr common.Address, tx *types.Transaction) error {
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	h := tx.Hash().Hex()
	res, err := s.db.ExecContext(ctx, `UPDATE claims SET
		hashes = CASE WHEN nonce IS ? AND hashes != '' THEN hashes || ',' || ? ELSE ? END,
		nonce = ?, raw = ?, updated_at = ?
		WHERE chain_id = ? AND address = ? AND status = 'pending'`,
		tx.Nonce(), h, h, tx.Nonce(), hexutil.Encode(raw), millis(time.Now()), s.chainID, key(addr))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("claim of %s is not pending: transaction not recorded", addr.Hex())
	}
	return nil
}

// settle marks a pending claim confirmed (block) or failed (reason).
func (s *store) settle(ctx context.Context, addr common.Address, status Status, block uint64, reason string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE claims SET status = ?, block_number = ?, reason = ?, updated_at = ?
		WHERE chain_id = ? AND address = ? AND status = 'pending'`,
		string(status), block, reason, millis(time.Now()), s.chainID, key(addr))
	return err
}

// withdraw deletes a pending claim whose transaction was certainly never accepted by the node,
// so the address may claim again.
func (s *store) withdraw(ctx context.Context, addr common.Address) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM claims WHERE chain_id = ? AND address = ? AND status = 'pending'`, s.chainID, key(addr))
	return err
}

const columns = `address, amount, status, nonce, hashes, raw, block_number, reason, created_at, updated_at`

// get returns the address's claim, or errNotFound.
func (s *store) get(ctx context.Context, addr common.Address) (Claim, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM claims WHERE chain_id = ? AND address = ?`, s.chainID, key(addr))
	c, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Claim{}, errNotFound
	}
	return c, err
}

// pending returns every pending claim, those with a transaction first, by nonce.
func (s *store) pending(ctx context.Context) ([]Claim, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+columns+` FROM claims WHERE chain_id = ? AND status = 'pending'
		ORDER BY nonce IS NULL, nonce, created_at`, s.chainID)
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
