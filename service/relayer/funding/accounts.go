package funding

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// Sponsors pay ahead for reveals: an operator creates one on the admin
// routes, which answer its key once (only the key's SHA-256 is stored), and credits its balance
// in wei. A reveal carrying the key (X-Sponsor-Key), or a voucher the sponsor signed, is paid
// from that balance: the worst case is reserved at admission, as the spend gate reserves it,
// and what the transaction really cost is debited once mined, in the same database transaction
// that stores the reveal's outcome (the relayer's sentStore.finish), so a reveal is debited once however
// often its outcome is written down. The accounts live in the relayer's database (DATABASE_URL),
// which replicas share. Amounts are decimal text: wei overflow BIGINT, and SQLite has no exact
// wider integer; they are added up in Go, under the sponsor's row lock.

// Accounts are the sponsors' accounts and what is reserved for reveals in flight.
type Accounts struct {
	db      *sqldb.DB
	chainID uint64
	hooks   *webhook.Outbox // sponsor.balance_low (nil: none)
	low     *big.Int        // a balance crossing under it is told (RELAYER_SPONSOR_LOW_BALANCE)
}

// Debit is what a sponsor was debited for a mined reveal.
type Debit struct {
	Sponsor string   // its id
	Cost    *big.Int // wei
}

// Account is a sponsor's account.
type Account struct {
	ID, Name                    string
	Signer                      common.Address // its vouchers' signer; zero: none
	Credited, Debited, Reserved *big.Int       // wei
	RevealsPaid                 int64
	CreatedAt, RevokedAt        time.Time // RevokedAt zero: not revoked
}

// Revoked reports whether the sponsor's key was revoked: it pays for no reveal.
func (s Account) Revoked() bool { return !s.RevokedAt.IsZero() }

// Balance is what was credited less what was debited; Available is the balance less what
// reveals in flight hold.
func (s Account) Balance() *big.Int   { return new(big.Int).Sub(s.Credited, s.Debited) }
func (s Account) Available() *big.Int { return new(big.Int).Sub(s.Balance(), s.Reserved) }

const sponsorKeyPrefix = "vsk_"

//go:embed migrations
var migrations embed.FS

// Schema is the sponsors' accounts' numbered migrations (goose_sponsors), in the relayer's
// database.
var Schema = sqldb.Schema{Owner: "sponsors", Files: migrations}

// OpenAccounts opens the sponsors' accounts of chainID's relayer in db (the relayer's
// DATABASE_URL), telling hooks (nil: none) of a balance crossing under low (nil: never).
func OpenAccounts(db *sqldb.DB, chainID uint64, hooks *webhook.Outbox, low *big.Int) (*Accounts, error) {
	_, err := db.Migrate(context.Background(), Schema)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return &Accounts{db: db, chainID: chainID, hooks: hooks, low: low}, nil
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

// Create makes a sponsor and answers its key, which is not stored.
func (s *Accounts) Create(ctx context.Context, name string, signer common.Address) (Account, string, error) {
	key := sponsorKeyPrefix + randomHex(32)
	sp := Account{ID: "sp_" + randomHex(16), Name: name, Signer: signer, Credited: new(big.Int), Debited: new(big.Int), Reserved: new(big.Int),
		CreatedAt: time.UnixMilli(time.Now().UnixMilli())}
	_, err := s.db.ExecContext(ctx, `INSERT INTO sponsors (id, name, key_hash, voucher_signer, credited, debited, reserved, reveals_paid, created_at, revoked_at)
		VALUES ($1, $2, $3, $4, '0', '0', '0', 0, $5, 0)`, sp.ID, name, keyHash(key), signerText(signer), sp.CreatedAt.UnixMilli())
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

func scanSponsor(row scanner) (Account, error) {
	var sp Account
	var signer, credited, debited, reserved string
	var created, revoked int64
	if err := row.Scan(&sp.ID, &sp.Name, &signer, &credited, &debited, &reserved, &sp.RevealsPaid, &created, &revoked); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return sp, ErrNoSponsor
		}
		return sp, err
	}
	sp.Signer = common.HexToAddress(signer)
	sp.Credited, sp.Debited, sp.Reserved = wei(credited), wei(debited), wei(reserved)
	sp.CreatedAt = time.UnixMilli(created)
	if revoked != 0 {
		sp.RevokedAt = time.UnixMilli(revoked)
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
func (s *Accounts) get(ctx context.Context, id string) (Account, error) {
	return scanSponsor(s.db.QueryRowContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors WHERE id = $1`, id))
}

// ByKey reads the sponsor whose key this is (ErrNoSponsor: none).
func (s *Accounts) ByKey(ctx context.Context, key string) (Account, error) {
	if !strings.HasPrefix(key, sponsorKeyPrefix) {
		return Account{}, ErrNoSponsor
	}
	return scanSponsor(s.db.QueryRowContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors WHERE key_hash = $1`, keyHash(key)))
}

// List reads every sponsor, oldest first.
func (s *Accounts) List(ctx context.Context) ([]Account, error) {
	order := "rowid"
	if s.db.Dialect == sqldb.Postgres {
		order = "created_seq"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors ORDER BY created_at, `+order)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Account
	for rows.Next() {
		sp, err := scanSponsor(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// Revoke marks a sponsor revoked (once: revoking again keeps the first time).
func (s *Accounts) Revoke(ctx context.Context, id string) (Account, error) {
	if _, err := s.db.ExecContext(ctx, `UPDATE sponsors SET revoked_at = $1 WHERE id = $2 AND revoked_at = 0`, time.Now().UnixMilli(), id); err != nil {
		return Account{}, err
	}
	return s.get(ctx, id)
}

// keepCreditKeys is how long a credit's idempotency key is remembered: a retry within it
// credits nothing; after it, the key is new again.
const keepCreditKeys = 24 * time.Hour

// Credit adds amount wei to a sponsor's balance. With an idempotency key ("" for none), a
// Credit happens once per key: the first credits and records the key with its answer in the
// same database transaction, so no crash leaves one without the other; a later one with the
// same sponsor and amount credits nothing and answers the first's answer again; one with
// another is refused IdempotencyKeyReused. The key's row is held first, by its primary key,
// so concurrent requests with one key wait for the first's transaction (Postgres; SQLite's
// writers take turns) instead of each finding it absent. A refused credit (ErrNoSponsor)
// records nothing.
func (s *Accounts) Credit(ctx context.Context, id string, amount *big.Int, key string) (Account, error) {
	var out Account
	now := time.Now()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if key != "" {
			first, err := s.takeCreditKey(ctx, tx, key, id, amount, now)
			if err != nil {
				return err
			}
			if !first {
				out, err = s.creditAnswered(ctx, tx, key, id, amount)
				return err
			}
		}
		sp, err := s.lock(ctx, tx, id)
		if err != nil {
			return err
		}
		sp.Credited.Add(sp.Credited, amount)
		out = sp
		if err := s.write(ctx, tx, sp); err != nil {
			return err
		}
		if key == "" {
			return nil
		}
		answer, err := json.Marshal(answerOf(sp))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sponsor_credit_keys SET answer = $1 WHERE idempotency_key = $2`, string(answer), key)
		return err
	})
	if err == nil && key != "" {
		// Keys past keepCreditKeys are deleted as keyed credits come (through the index on
		// their age). One left behind is taken over by its next use (takeCreditKey), so this
		// only keeps the table small, and its failure changes nothing.
		_, _ = s.db.ExecContext(ctx, `DELETE FROM sponsor_credit_keys WHERE created_at < $1`, now.Add(-keepCreditKeys).UnixMilli())
	}
	return out, err
}

// takeCreditKey records key for a credit of amount to sponsor id in tx, and reports whether
// this is the key's first credit: false when a credit within keepCreditKeys holds it (a key
// older than that is taken over, as new).
func (s *Accounts) takeCreditKey(ctx context.Context, tx *sql.Tx, key, id string, amount *big.Int, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO sponsor_credit_keys (idempotency_key, sponsor_id, amount, answer, created_at) VALUES ($1, $2, $3, '', $4)
		ON CONFLICT (idempotency_key) DO UPDATE SET sponsor_id = excluded.sponsor_id, amount = excluded.amount, answer = '', created_at = excluded.created_at
		WHERE sponsor_credit_keys.created_at < $5`, key, id, amount.String(), now.UnixMilli(), now.Add(-keepCreditKeys).UnixMilli())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// creditAnswered is what the credit that holds key answered, when it was of amount to sponsor
// id; another credit's key is refused.
func (s *Accounts) creditAnswered(ctx context.Context, tx *sql.Tx, key, id string, amount *big.Int) (Account, error) {
	var sponsorID, credited, answer string
	err := tx.QueryRowContext(ctx, `SELECT sponsor_id, amount, answer FROM sponsor_credit_keys WHERE idempotency_key = $1`, key).Scan(&sponsorID, &credited, &answer)
	if err != nil {
		return Account{}, err
	}
	if sponsorID != id || credited != amount.String() {
		return Account{}, refuse(IdempotencyKeyReused, "the Idempotency-Key was used within %d hours for a credit of another sponsor or amount: use a new key for a new credit", int(keepCreditKeys.Hours()))
	}
	var a creditAnswer
	if err := json.Unmarshal([]byte(answer), &a); err != nil {
		return Account{}, fmt.Errorf("the answer stored with an idempotency key: %w", err)
	}
	return a.sponsor(), nil
}

// creditAnswer is a sponsor as a keyed credit left it, stored with the key to be answered again.
type creditAnswer struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Signer      string `json:"signer"`
	Credited    string `json:"credited"`
	Debited     string `json:"debited"`
	Reserved    string `json:"reserved"`
	RevealsPaid int64  `json:"revealsPaid"`
	CreatedAt   int64  `json:"createdAt"` // unix milliseconds
	RevokedAt   int64  `json:"revokedAt"` // unix milliseconds, 0 while not revoked
}

func answerOf(sp Account) creditAnswer {
	a := creditAnswer{ID: sp.ID, Name: sp.Name, Signer: signerText(sp.Signer), Credited: sp.Credited.String(), Debited: sp.Debited.String(),
		Reserved: sp.Reserved.String(), RevealsPaid: sp.RevealsPaid, CreatedAt: sp.CreatedAt.UnixMilli()}
	if sp.Revoked() {
		a.RevokedAt = sp.RevokedAt.UnixMilli()
	}
	return a
}

func (a creditAnswer) sponsor() Account {
	sp := Account{ID: a.ID, Name: a.Name, Signer: common.HexToAddress(a.Signer), Credited: wei(a.Credited), Debited: wei(a.Debited),
		Reserved: wei(a.Reserved), RevealsPaid: a.RevealsPaid, CreatedAt: time.UnixMilli(a.CreatedAt)}
	if a.RevokedAt != 0 {
		sp.RevokedAt = time.UnixMilli(a.RevokedAt)
	}
	return sp
}

// inTx runs f in a database transaction, committed when f returns nil.
func (s *Accounts) inTx(ctx context.Context, f func(*sql.Tx) error) error {
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
func (s *Accounts) lock(ctx context.Context, tx *sql.Tx, id string) (Account, error) {
	return scanSponsor(tx.QueryRowContext(ctx, `SELECT `+sponsorColumns+` FROM sponsors WHERE id = $1`+forUpdate(s.db), id))
}

// write stores a sponsor's account, read by lock in tx.
func (s *Accounts) write(ctx context.Context, tx *sql.Tx, sp Account) error {
	_, err := tx.ExecContext(ctx, `UPDATE sponsors SET credited = $1, debited = $2, reserved = $3, reveals_paid = $4 WHERE id = $5`,
		sp.Credited.String(), sp.Debited.String(), sp.Reserved.String(), sp.RevealsPaid, sp.ID)
	return err
}

// charge is what a sponsor holds for a reveal in flight.
type charge struct {
	sponsorID, voucherID string
	reserved             *big.Int
}

// held reads, locked, the charge reserved for nullifier's reveal (nil: none).
func (s *Accounts) held(ctx context.Context, tx *sql.Tx, nullifier common.Hash) (*charge, error) {
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
//
// The charge's insert never overwrites a charge still reserved: where no hold orders the
// attempts (a nullifier's hold on REDIS_URL lapsed while its attempt was stalled; replicas
// without it are refused at start, service.go), two reservations of one nullifier may both
// read that none is held before either writes; the second to write finds the
// first's and is refused, its transaction (what it reserved, its voucher's use) rolled back, so
// that the sponsor's reserved total is always what its charges hold. A settled charge (its
// reveal reverted: the nullifier is free again) is replaced.
func (s *Accounts) reserve(ctx context.Context, nullifier common.Hash, p payer, worst *big.Int) error {
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
		sp.Reserved.Add(sp.Reserved, worst)
		if err := s.write(ctx, tx, sp); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO sponsor_charges (chain_id, nullifier, sponsor_id, voucher_id, reserved, cost, state, updated_at)
			VALUES ($1, $2, $3, $4, $5, '0', 'reserved', $6)
			ON CONFLICT (chain_id, nullifier) DO UPDATE SET sponsor_id = excluded.sponsor_id, voucher_id = excluded.voucher_id,
				reserved = excluded.reserved, cost = '0', state = 'reserved', updated_at = excluded.updated_at
			WHERE sponsor_charges.state <> 'reserved'`,
			s.chainID, nullifier.Hex(), p.sponsor, p.voucher, worst.String(), time.Now().UnixMilli())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err == nil && n == 0 { // another attempt's charge, written since held read none
			err = ErrInProgress
		}
		return err
	})
}

// checkCanPay refuses a revoked sponsor, or one with less than worst available.
func checkCanPay(sp Account, worst *big.Int) error {
	if sp.Revoked() {
		return refuse(SponsorRevoked, "the sponsor's key was revoked: it pays for no reveal")
	}
	if sp.Available().Cmp(worst) < 0 {
		return refuse(SponsorBalanceLow, "the sponsor has %s wei available, less than this reveal's worst case of %s wei", sp.Available(), worst)
	}
	return nil
}

// release gives back what nullifier's reveal holds, when it was not sent.
func (s *Accounts) release(ctx context.Context, nullifier common.Hash) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		c, err := s.held(ctx, tx, nullifier)
		if err != nil || c == nil {
			return err
		}
		return s.unhold(ctx, tx, nullifier, *c)
	})
}

// unhold gives c back to its sponsor in tx, and forgets it (and its voucher's use).
func (s *Accounts) unhold(ctx context.Context, tx *sql.Tx, nullifier common.Hash, c charge) error {
	sp, err := s.lock(ctx, tx, c.sponsorID)
	if err != nil {
		return err
	}
	sp.Reserved.Sub(sp.Reserved, c.reserved)
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
// (the relayer's sentStore.finish): paid (mined, reverted too: its gas was paid), the sponsor is
// debited what it cost and the rest given back; never mined (dropped, cancelled), all of it is
// given back.
// A charge settles once: a second outcome finds nothing reserved. It answers the debit (nil:
// no sponsor paid), and tells sponsor.balance_low, in tx too, when the debit takes the
// sponsor's balance under RELAYER_SPONSOR_LOW_BALANCE: once per crossing.
func (s *Accounts) settle(ctx context.Context, tx *sql.Tx, nullifier common.Hash, paid bool, cost *big.Int) (*Debit, error) {
	c, err := s.held(ctx, tx, nullifier)
	if err != nil || c == nil {
		return nil, err
	}
	if !paid {
		return nil, s.unhold(ctx, tx, nullifier, *c)
	}
	sp, err := s.lock(ctx, tx, c.sponsorID)
	if err != nil {
		return nil, err
	}
	before := sp.Balance()
	if cost == nil { // a node that does not say the effective price: the most it could have cost
		cost = c.reserved
	}
	sp.Reserved.Sub(sp.Reserved, c.reserved)
	sp.Debited.Add(sp.Debited, cost)
	sp.RevealsPaid++
	if err := s.write(ctx, tx, sp); err != nil {
		return nil, err
	}
	if s.low != nil && before.Cmp(s.low) >= 0 && sp.Balance().Cmp(s.low) < 0 {
		ev := sponsorLowEvent{Sponsor: sp.ID, Balance: sp.Balance().String(), Threshold: s.low.String()}
		if err := s.hooks.Emit(ctx, tx, "sponsor.balance_low", ev); err != nil {
			return nil, err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE sponsor_charges SET state = 'settled', cost = $1, updated_at = $2 WHERE chain_id = $3 AND nullifier = $4`,
		cost.String(), time.Now().UnixMilli(), s.chainID, nullifier.Hex())
	if err != nil {
		return nil, err
	}
	return &Debit{Sponsor: sp.ID, Cost: cost}, nil
}

// sponsorLowEvent is the data of sponsor.balance_low: the sponsor, its balance and the
// threshold it went under, in wei.
type sponsorLowEvent struct {
	Sponsor   string `json:"sponsor"`
	Balance   string `json:"balance"`
	Threshold string `json:"threshold"`
}

// useVoucher records p's voucher used by nullifier's reveal, in tx with its reservation: a
// voucher used already is refused (nothing without a voucher). Used by this same reveal, it is
// another attempt's at it, racing this one (both read no charge held, the other's now holds
// one): refused as the reveal in progress, not as a voucher spent on another.
func (s *Accounts) useVoucher(ctx context.Context, tx *sql.Tx, p payer, nullifier common.Hash) error {
	if p.voucher == "" {
		return nil
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO sponsor_vouchers (sponsor_id, voucher_id, nullifier, used_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (sponsor_id, voucher_id) DO NOTHING`, p.sponsor, p.voucher, nullifier.Hex(), time.Now().UnixMilli())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var by string
		if err := tx.QueryRowContext(ctx, `SELECT nullifier FROM sponsor_vouchers WHERE sponsor_id = $1 AND voucher_id = $2`, p.sponsor, p.voucher).Scan(&by); err != nil {
			return err
		}
		if by != nullifier.Hex() {
			return refuse(VoucherUsed, "the voucher paid for another reveal already: a voucher pays for one")
		}
		if c, err := s.held(ctx, tx, nullifier); err != nil || c != nil {
			return cmp.Or(err, ErrInProgress)
		}
		return refuse(VoucherUsed, "the voucher paid for this reveal already (its transaction was mined and reverted): a voucher pays for one")
	}
	return nil
}
