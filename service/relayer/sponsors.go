package relayer

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// Sponsors pay ahead for reveals (issue 34, part 2): an operator creates one on the admin
// routes, which answer its key once (only the key's SHA-256 is stored), and credits its balance
// in wei. A reveal carrying the key (X-Sponsor-Key), or a voucher the sponsor signed, is paid
// from that balance: the worst case is reserved at admission, as the spend gate reserves it,
// and what the transaction really cost is debited once mined, in the same database transaction
// that stores the reveal's outcome (sentStore.finish), so a reveal is debited once however
// often its outcome is written down. The accounts live in the relayer's database (DATABASE_URL),
// which replicas share. Amounts are decimal text: wei overflow BIGINT, and SQLite has no exact
// wider integer; they are added up in Go, under the sponsor's row lock.

// sponsorStore is the sponsors' accounts and what is reserved for reveals in flight.
type sponsorStore struct {
	db      *sqldb.DB
	chainID uint64
	hooks   *webhook.Outbox // sponsor.balance_low (nil: none)
	low     *big.Int        // a balance crossing under it is told (RELAYER_SPONSOR_LOW_BALANCE)
}

// debit is what a sponsor was debited for a mined reveal.
type debit struct {
	sponsor string
	cost    *big.Int
}

// sponsor is a sponsor's row.
type sponsor struct {
	id, name                    string
	signer                      common.Address // its vouchers' signer; zero: none
	credited, debited, reserved *big.Int
	revealsPaid                 int64
	createdAt, revokedAt        time.Time // revokedAt zero: not revoked
}

func (s sponsor) revoked() bool { return !s.revokedAt.IsZero() }

// balance is what was credited less what was debited; available is the balance less what
// reveals in flight hold.
func (s sponsor) balance() *big.Int   { return new(big.Int).Sub(s.credited, s.debited) }
func (s sponsor) available() *big.Int { return new(big.Int).Sub(s.balance(), s.reserved) }

// errNoSponsor is an id or a key that names no sponsor.
var errNoSponsor = errors.New("no such sponsor")

const sponsorKeyPrefix = "vsk_"

func openSponsorStore(db *sqldb.DB, chainID uint64) (*sponsorStore, error) {
	err := db.Migrate("relayer-sponsors", `CREATE TABLE IF NOT EXISTS sponsors (
		id             TEXT   PRIMARY KEY, -- sp_ and 32 hex digits
		name           TEXT   NOT NULL,
		key_hash       TEXT   NOT NULL UNIQUE, -- SHA-256 of the key, hex: the key itself is never stored
		voucher_signer TEXT   NOT NULL, -- 0x hex, '' for none
		credited       TEXT   NOT NULL, -- wei, decimal
		debited        TEXT   NOT NULL, -- wei, decimal
		reserved       TEXT   NOT NULL, -- wei, decimal: the worst case of its reveals in flight
		reveals_paid   BIGINT NOT NULL,
		created_at     BIGINT NOT NULL, -- unix milliseconds
		revoked_at     BIGINT NOT NULL  -- unix milliseconds, 0 while not revoked
	)`, `CREATE TABLE IF NOT EXISTS sponsor_charges (
		chain_id   BIGINT NOT NULL,
		nullifier  TEXT   NOT NULL, -- 0x hex
		sponsor_id TEXT   NOT NULL,
		voucher_id TEXT   NOT NULL, -- 0x hex, '' for a keyed reveal
		reserved   TEXT   NOT NULL, -- wei, decimal: held while state is reserved
		cost       TEXT   NOT NULL, -- wei, decimal: debited once settled
		state      TEXT   NOT NULL, -- reserved, settled
		updated_at BIGINT NOT NULL, -- unix milliseconds
		PRIMARY KEY (chain_id, nullifier)
	)`, `CREATE TABLE IF NOT EXISTS sponsor_vouchers (
		sponsor_id TEXT   NOT NULL,
		voucher_id TEXT   NOT NULL, -- 0x hex
		nullifier  TEXT   NOT NULL, -- the reveal it paid for
		used_at    BIGINT NOT NULL, -- unix milliseconds
		PRIMARY KEY (sponsor_id, voucher_id)
	)`)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return &sponsorStore{db: db, chainID: chainID}, nil
}

// keyHash is what is stored of a sponsor's key.
func keyHash(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	return hex.EncodeToString(b)
}

// create makes a sponsor and answers its key, which is not stored.
func (s *sponsorStore) create(ctx context.Context, name string, signer common.Address) (sponsor, string, error) {
	key := sponsorKeyPrefix + randomHex(32)
	sp := sponsor{id: "sp_" + randomHex(16), name: name, signer: signer, credited: new(big.Int), debited: new(big.Int), reserved: new(big.Int),
		createdAt: time.UnixMilli(time.Now().UnixMilli())}
	_, err := s.db.ExecContext(ctx, `INSERT INTO sponsors (id, name, key_hash, voucher_signer, credited, debited, reserved, reveals_paid, created_at, revoked_at)
		VALUES ($1, $2, $3, $4, '0', '0', '0', 0, $5, 0)`, sp.id, name, keyHash(key), signerText(signer), sp.createdAt.UnixMilli())
	return sp, key, err
}

func signerText(a common.Address) string {
	if a == (common.Address{}) {
		return ""
	}
	return a.Hex()
}

const sponsorColumns = `id, name, voucher_signer, credited, debited, reserved, reveals_paid, created_at, revoked_at`

type scanner interface{ Scan(...any) error }

func scanSponsor(row scanner) (sponsor, error) {
	var sp sponsor
	var signer, credited, debited, reserved string
	var created, revoked int64
	if err := row.Scan(&sp.id, &sp.name, &signer, &credited, &debited, &reserved, &sp.revealsPaid, &created, &revoked); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return sp, errNoSponsor
		}
		return sp, err
	}
	sp.signer = common.HexToAddress(signer)
	sp.credited, sp.debited, sp.reserved = wei(credited), wei(debited), wei(reserved)
	sp.createdAt = time.UnixMilli(created)
	if revoked != 0 {
		sp.revokedAt = time.UnixMilli(revoked)
	}
	return sp, nil
}

// wei reads an amount the store wrote.
func wei(s string) *big.Int {
	v, _ := new(big.Int).SetString(s, 10)
	if v == nil {
		return new(big.Int)
	}
	return v
}

// get reads a sponsor by id.
func (s *sponsorStore) get(ctx context.Context, id string) (sponsor, error) {
	return scanSponsor(s.db.QueryRowContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors WHERE id = $1`, id))
}

// byKey reads the sponsor whose key this is (errNoSponsor: none).
func (s *sponsorStore) byKey(ctx context.Context, key string) (sponsor, error) {
	if !strings.HasPrefix(key, sponsorKeyPrefix) {
		return sponsor{}, errNoSponsor
	}
	return scanSponsor(s.db.QueryRowContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors WHERE key_hash = $1`, keyHash(key)))
}

// list reads every sponsor, oldest first.
func (s *sponsorStore) list(ctx context.Context) ([]sponsor, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sponsor
	for rows.Next() {
		sp, err := scanSponsor(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// revoke marks a sponsor revoked (once: revoking again keeps the first time).
func (s *sponsorStore) revoke(ctx context.Context, id string) (sponsor, error) {
	if _, err := s.db.ExecContext(ctx, `UPDATE sponsors SET revoked_at = $1 WHERE id = $2 AND revoked_at = 0`, time.Now().UnixMilli(), id); err != nil {
		return sponsor{}, err
	}
	return s.get(ctx, id)
}

// credit adds amount wei to a sponsor's balance.
func (s *sponsorStore) credit(ctx context.Context, id string, amount *big.Int) (sponsor, error) {
	var out sponsor
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		sp, err := s.lock(ctx, tx, id)
		if err != nil {
			return err
		}
		sp.credited.Add(sp.credited, amount)
		out = sp
		return s.write(ctx, tx, sp)
	})
	return out, err
}

// inTx runs f in a database transaction, committed when f returns nil.
func (s *sponsorStore) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// forUpdate locks the rows a Postgres SELECT reads until the transaction ends; SQLite has one
// writer, whose transactions take the database's lock at BEGIN (_txlock=immediate).
func forUpdate(db *sqldb.DB) string {
	if db.Dialect == sqldb.Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// lock reads a sponsor's row in tx, locked until tx ends.
func (s *sponsorStore) lock(ctx context.Context, tx *sql.Tx, id string) (sponsor, error) {
	return scanSponsor(tx.QueryRowContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors WHERE id = $1`+forUpdate(s.db), id))
}

// write stores a sponsor's account, read by lock in tx.
func (s *sponsorStore) write(ctx context.Context, tx *sql.Tx, sp sponsor) error {
	_, err := tx.ExecContext(ctx, `UPDATE sponsors SET credited = $1, debited = $2, reserved = $3, reveals_paid = $4 WHERE id = $5`,
		sp.credited.String(), sp.debited.String(), sp.reserved.String(), sp.revealsPaid, sp.id)
	return err
}

// charge is what a sponsor holds for a reveal in flight.
type charge struct {
	sponsorID, voucherID string
	reserved             *big.Int
}

// held reads, locked, the charge reserved for nullifier's reveal (nil: none).
func (s *sponsorStore) held(ctx context.Context, tx *sql.Tx, nullifier common.Hash) (*charge, error) {
	var c charge
	var reserved string
	err := tx.QueryRowContext(ctx, `SELECT sponsor_id, voucher_id, reserved FROM sponsor_charges
		WHERE chain_id = $1 AND nullifier = $2 AND state = 'reserved'`+forUpdate(s.db), s.chainID, nullifier.Hex()).Scan(&c.sponsorID, &c.voucherID, &reserved)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	c.reserved = wei(reserved)
	return &c, err
}

// reserve holds worst wei of the sponsor's balance for nullifier's reveal, in one transaction
// with the checks that it may: the sponsor is not revoked and has that much available. A reveal
// that holds a charge already (an attempt stopped after its reservation, whose process died
// before giving it back) keeps it: a reveal is reserved once.
func (s *sponsorStore) reserve(ctx context.Context, nullifier common.Hash, p payer, worst *big.Int) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		c, err := s.held(ctx, tx, nullifier)
		if err != nil {
			return err
		}
		if c != nil && c.sponsorID == p.sponsor && c.voucherID == p.voucher {
			return nil
		}
		if c != nil { // another payer's, for this nullifier: this attempt's payer pays
			if err := s.unhold(ctx, tx, nullifier, *c); err != nil {
				return err
			}
		}
		sp, err := s.lock(ctx, tx, p.sponsor)
		if err != nil {
			return err
		}
		if err := checkCanPay(sp, worst); err != nil {
			return err
		}
		if err := s.useVoucher(ctx, tx, p, nullifier); err != nil {
			return err
		}
		sp.reserved.Add(sp.reserved, worst)
		if err := s.write(ctx, tx, sp); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO sponsor_charges (chain_id, nullifier, sponsor_id, voucher_id, reserved, cost, state, updated_at)
			VALUES ($1, $2, $3, $4, $5, '0', 'reserved', $6)
			ON CONFLICT (chain_id, nullifier) DO UPDATE SET sponsor_id = excluded.sponsor_id, voucher_id = excluded.voucher_id,
				reserved = excluded.reserved, cost = '0', state = 'reserved', updated_at = excluded.updated_at`,
			s.chainID, nullifier.Hex(), p.sponsor, p.voucher, worst.String(), time.Now().UnixMilli())
		return err
	})
}

// checkCanPay refuses a revoked sponsor, or one with less than worst available.
func checkCanPay(sp sponsor, worst *big.Int) error {
	if sp.revoked() {
		return reject(SponsorRevoked, "the sponsor's key was revoked: it pays for no reveal")
	}
	if sp.available().Cmp(worst) < 0 {
		return reject(SponsorBalanceLow, "the sponsor has %s wei available, less than this reveal's worst case of %s wei", sp.available(), worst)
	}
	return nil
}

// release gives back what nullifier's reveal holds, when it was not sent.
func (s *sponsorStore) release(ctx context.Context, nullifier common.Hash) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		c, err := s.held(ctx, tx, nullifier)
		if err != nil || c == nil {
			return err
		}
		return s.unhold(ctx, tx, nullifier, *c)
	})
}

// unhold gives c back to its sponsor in tx, and forgets it (and its voucher's use).
func (s *sponsorStore) unhold(ctx context.Context, tx *sql.Tx, nullifier common.Hash, c charge) error {
	sp, err := s.lock(ctx, tx, c.sponsorID)
	if err != nil {
		return err
	}
	sp.reserved.Sub(sp.reserved, c.reserved)
	if err := s.write(ctx, tx, sp); err != nil {
		return err
	}
	if c.voucherID != "" {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sponsor_vouchers WHERE sponsor_id = $1 AND voucher_id = $2`, c.sponsorID, c.voucherID); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM sponsor_charges WHERE chain_id = $1 AND nullifier = $2`, s.chainID, nullifier.Hex())
	return err
}

// settle ends what nullifier's reveal holds, in tx, the transaction that stores its outcome
// (sentStore.finish): mined (reverted too: its gas was paid), the sponsor is debited what it
// cost and the rest given back; never mined (dropped, cancelled), all of it is given back.
// A charge settles once: a second outcome finds nothing reserved. It answers the debit (nil:
// no sponsor paid), and tells sponsor.balance_low, in tx too, when the debit takes the
// sponsor's balance under RELAYER_SPONSOR_LOW_BALANCE: once per crossing.
func (s *sponsorStore) settle(ctx context.Context, tx *sql.Tx, nullifier common.Hash, o revealOutcome) (*debit, error) {
	c, err := s.held(ctx, tx, nullifier)
	if err != nil || c == nil {
		return nil, err
	}
	if o.state != stateMined && o.state != stateReverted {
		return nil, s.unhold(ctx, tx, nullifier, *c)
	}
	sp, err := s.lock(ctx, tx, c.sponsorID)
	if err != nil {
		return nil, err
	}
	before := sp.balance()
	cost := o.cost
	if cost == nil { // a node that does not say the effective price: the most it could have cost
		cost = c.reserved
	}
	sp.reserved.Sub(sp.reserved, c.reserved)
	sp.debited.Add(sp.debited, cost)
	sp.revealsPaid++
	if err := s.write(ctx, tx, sp); err != nil {
		return nil, err
	}
	if s.low != nil && before.Cmp(s.low) >= 0 && sp.balance().Cmp(s.low) < 0 {
		ev := sponsorLowEvent{Sponsor: sp.id, Balance: sp.balance().String(), Threshold: s.low.String()}
		if err := s.hooks.Emit(ctx, tx, "sponsor.balance_low", ev); err != nil {
			return nil, err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE sponsor_charges SET state = 'settled', cost = $1, updated_at = $2 WHERE chain_id = $3 AND nullifier = $4`,
		cost.String(), time.Now().UnixMilli(), s.chainID, nullifier.Hex())
	if err != nil {
		return nil, err
	}
	return &debit{sponsor: sp.id, cost: cost}, nil
}

// sponsorLowEvent is the data of sponsor.balance_low: the sponsor, its balance and the
// threshold it went under, in wei.
type sponsorLowEvent struct {
	Sponsor   string `json:"sponsor"`
	Balance   string `json:"balance"`
	Threshold string `json:"threshold"`
}

// useVoucher records p's voucher used by nullifier's reveal, in tx with its reservation: a
// voucher used already is refused (nothing without a voucher).
func (s *sponsorStore) useVoucher(ctx context.Context, tx *sql.Tx, p payer, nullifier common.Hash) error {
	if p.voucher == "" {
		return nil
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO sponsor_vouchers (sponsor_id, voucher_id, nullifier, used_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (sponsor_id, voucher_id) DO NOTHING`, p.sponsor, p.voucher, nullifier.Hex(), time.Now().UnixMilli())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return reject(VoucherUsed, "the voucher paid for another reveal already: a voucher pays for one")
	}
	return nil
}
