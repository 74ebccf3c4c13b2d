package relayer

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// sentStore is the relayer's durable record of what it signed: every version of every reveal's
// transaction, by wallet and nonce, with the nullifier it reveals, written before that version is
// sent (as the faucet records its claims' transactions). After a restart, or when a replica
// takes over a key, the record says which reveals may still be in flight, with the bytes to
// broadcast again: nothing depends on the node's txpool_* methods, which most hosted providers
// do not have. DATABASE_URL: SQLite for one relayer, Postgres shared by replicas.
type sentStore struct {
	db      *sqldb.DB
	chainID uint64
	hooks   *webhook.Outbox  // the reveals' webhook events (nil: none)
	funding *funding.Funding // what sponsors hold for reveals, settled with their outcome
}

// sentTx is one nonce's reveal transaction as recorded.
type sentTx struct {
	nonce     uint64
	nullifier common.Hash
	hashes    []common.Hash // every version signed, oldest first
	raw       []byte        // the newest version
}

// keepSettled is how long a settled record is kept (for people reading the table).
const keepSettled = 7 * 24 * time.Hour

//go:embed migrations
var migrations embed.FS

// Schema is the relayer's own numbered migrations (goose_relayer); its database holds the
// sponsors', the webhook outbox's and the pause's too (Schemas).
var Schema = sqldb.Schema{Owner: "relayer", Files: migrations}

// Schemas are the migrations of everything the relayer keeps in its database, in the order a
// start runs them.
var Schemas = []sqldb.Schema{Schema, webhook.Schema, funding.Schema, pause.Schema}

func openSentStore(databaseURL string, chainID uint64, traces trace.TracerProvider) (*sentStore, error) {
	db, err := sqldb.Open(databaseURL, sqldb.Traced(traces))
	if err != nil {
		return nil, err
	}
	_, err = db.Migrate(context.Background(), Schema)
	if err == nil {
		old := time.Now().Add(-keepSettled).UnixMilli()
		if _, err = db.Exec(`DELETE FROM reveal_transactions WHERE status = 'settled' AND updated_at < $1`, old); err == nil {
			_, err = db.Exec(`DELETE FROM reveal_outcomes WHERE updated_at < $1`, old)
		}
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return &sentStore{db: db, chainID: chainID}, nil
}

func (s *sentStore) Close() error { return s.db.Close() }

func walletKey(a common.Address) string { return strings.ToLower(a.Hex()) }

// record stores a signed version of nullifier's transaction from wallet before it is sent. A
// nonce recorded for another nullifier (whose transaction was never accepted, or was given up)
// is the new one's from now on.
func (s *sentStore) record(ctx context.Context, wallet common.Address, nullifier common.Hash, tx *types.Transaction) error {
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO reveal_transactions (chain_id, wallet, nonce, nullifier, hashes, raw, status, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)
		ON CONFLICT (chain_id, wallet, nonce) DO UPDATE SET
			hashes = CASE WHEN reveal_transactions.nullifier = excluded.nullifier AND reveal_transactions.status = 'pending'
				THEN reveal_transactions.hashes || ',' || excluded.hashes ELSE excluded.hashes END,
			nullifier = excluded.nullifier, raw = excluded.raw, status = 'pending', updated_at = excluded.updated_at`,
		s.chainID, walletKey(wallet), int64(tx.Nonce()), nullifier.Hex(), tx.Hash().Hex(), hexutil.Encode(raw), time.Now().UnixMilli())
	return err
}

// unrecord is version of nullifier's transaction from wallet refused by the node. With a version
// standing (a replacement refused), standing is the record's again: its bytes (broadcast after a
// restart) and the last of its hashes (the one a status names); version's hash stays in the list,
// before it, since a receipt of any version is the reveal's. With none (a first send), the record
// of the nonce goes if it holds that version alone: nothing of the reveal was ever taken there.
func (s *sentStore) unrecord(ctx context.Context, wallet common.Address, nullifier common.Hash, version, standing *types.Transaction) error {
	key := []any{s.chainID, walletKey(wallet), int64(version.Nonce()), nullifier.Hex()}
	if standing == nil {
		_, err := s.db.ExecContext(ctx, `DELETE FROM reveal_transactions
			WHERE chain_id = $1 AND wallet = $2 AND nonce = $3 AND nullifier = $4 AND status = 'pending' AND hashes = $5`,
			append(key, version.Hash().Hex())...)
		return err
	}
	raw, err := standing.MarshalBinary()
	if err != nil {
		return err
	}
	var hashes string
	err = s.db.QueryRowContext(ctx, `SELECT hashes FROM reveal_transactions
		WHERE chain_id = $1 AND wallet = $2 AND nonce = $3 AND nullifier = $4 AND status = 'pending'`, key...).Scan(&hashes)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // settled, or another reveal's by now
	}
	if err != nil {
		return err
	}
	// Only if no version was recorded since: a newer one stands then.
	_, err = s.db.ExecContext(ctx, `UPDATE reveal_transactions SET hashes = $6, raw = $7
		WHERE chain_id = $1 AND wallet = $2 AND nonce = $3 AND nullifier = $4 AND status = 'pending' AND hashes = $5`,
		append(key, hashes, strings.Join(txmgr.StandingLast(strings.Split(hashes, ","), version.Hash(), standing.Hash()), ","), hexutil.Encode(raw))...)
	return err
}

// settle marks wallet's transaction at nonce settled: mined, or known never to be.
func (s *sentStore) settle(ctx context.Context, wallet common.Address, nonce uint64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE reveal_transactions SET status = 'settled', updated_at = $1
		WHERE chain_id = $2 AND wallet = $3 AND nonce = $4`, time.Now().UnixMilli(), s.chainID, walletKey(wallet), int64(nonce))
	return err
}

// versions lists the versions recorded for nullifier's transaction from wallet at nonce, oldest
// first (none when the nonce's record is another reveal's now).
func (s *sentStore) versions(ctx context.Context, wallet common.Address, nonce uint64, nullifier common.Hash) ([]common.Hash, error) {
	var hashes string
	err := s.db.QueryRowContext(ctx, `SELECT hashes FROM reveal_transactions WHERE chain_id = $1 AND wallet = $2 AND nonce = $3 AND nullifier = $4`,
		s.chainID, walletKey(wallet), int64(nonce), nullifier.Hex()).Scan(&hashes)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []common.Hash
	for _, h := range strings.Split(hashes, ",") {
		out = append(out, common.HexToHash(h))
	}
	return out, nil
}

// Reveal states, as GET /reveal/{nullifier} answers them (dropped is stored, and answered as
// unknown: nothing of it is on chain).
const (
	statePending   = "pending"
	stateMined     = "mined"
	stateReverted  = "reverted"
	stateDropped   = "dropped"
	stateCancelled = "cancelled" // an operator's cancel was mined at its nonce
	stateUnknown   = "unknown"
)

// revealOutcome is where a reveal this relayer signed stands.
type revealOutcome struct {
	state       string
	txHash      common.Hash // the version mined, or the newest one sent while pending
	blockNumber uint64
	gasUsed     uint64
	reason      string   // a revert's, decoded
	cost        *big.Int // what a mined transaction cost its sender: gas used × effective price (nil: unknown)
}

// outcomeOf is a mined reveal's outcome, from its receipt and, when it reverted, the reason.
func outcomeOf(rc *types.Receipt, reason string) revealOutcome {
	o := revealOutcome{state: stateMined, txHash: rc.TxHash, blockNumber: rc.BlockNumber.Uint64(), gasUsed: rc.GasUsed}
	if rc.EffectiveGasPrice != nil {
		o.cost = new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice)
	}
	if rc.Status != types.ReceiptStatusSuccessful {
		o.state, o.reason = stateReverted, reason
	}
	return o
}

// finish stores how nullifier's reveal ended. A mined reveal's outcome is final: a version of an
// earlier attempt found dropped later does not overwrite it. When the outcome is new (not the
// one stored already) its webhook event (reveal.mined, reveal.reverted, reveal.dropped) is
// recorded in the same transaction: both or neither, and so is the settling of what a sponsor
// holds for the reveal (funding.Settle): a reveal's outcome is new once, so it is debited once.
func (s *sentStore) finish(ctx context.Context, nullifier common.Hash, o revealOutcome) (*funding.Debit, error) {
	hash := ""
	if o.txHash != (common.Hash{}) {
		hash = o.txHash.Hex()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO reveal_outcomes (chain_id, nullifier, state, tx_hash, block_number, gas_used, reason, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (chain_id, nullifier) DO UPDATE SET state = excluded.state, tx_hash = excluded.tx_hash,
			block_number = excluded.block_number, gas_used = excluded.gas_used, reason = excluded.reason, updated_at = excluded.updated_at
		WHERE reveal_outcomes.state <> 'mined' AND (reveal_outcomes.state <> excluded.state OR reveal_outcomes.tx_hash <> excluded.tx_hash)`,
		s.chainID, nullifier.Hex(), o.state, hash, int64(o.blockNumber), int64(o.gasUsed), o.reason, time.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	var d *funding.Debit
	if n, _ := res.RowsAffected(); n == 1 {
		ev := revealEvent{Nullifier: nullifier.Hex(), TxHash: hash, Reason: o.reason}
		if o.state == stateMined || o.state == stateReverted {
			ev.BlockNumber, ev.GasUsed = &o.blockNumber, strconv.FormatUint(o.gasUsed, 10)
		}
		if err := s.hooks.Emit(ctx, tx, "reveal."+o.state, ev); err != nil {
			return nil, err
		}
		if s.funding != nil { // its gas paid, mined or reverted
			if d, err = s.funding.Settle(ctx, tx, nullifier, o.state == stateMined || o.state == stateReverted, o.cost); err != nil {
				return nil, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return d, nil
}

// status is where nullifier's reveal stands: its outcome when mined (or reverted), else pending
// with the newest version sent when a transaction of it is in flight, else unknown (never sent
// by this relayer's fleet, dropped, or settled longer ago than keepSettled).
func (s *sentStore) status(ctx context.Context, nullifier common.Hash) (revealOutcome, error) {
	var o revealOutcome
	var hash string
	var block, gas int64
	err := s.db.QueryRowContext(ctx, `SELECT state, tx_hash, block_number, gas_used, reason FROM reveal_outcomes
		WHERE chain_id = $1 AND nullifier = $2`, s.chainID, nullifier.Hex()).Scan(&o.state, &hash, &block, &gas, &o.reason)
	switch {
	case err == nil && (o.state == stateMined || o.state == stateReverted):
		o.txHash, o.blockNumber, o.gasUsed = common.HexToHash(hash), uint64(block), uint64(gas)
		return o, nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return revealOutcome{}, err
	}
	var hashes string
	err = s.db.QueryRowContext(ctx, `SELECT hashes FROM reveal_transactions WHERE chain_id = $1 AND nullifier = $2 AND status = 'pending'
		ORDER BY updated_at DESC LIMIT 1`, s.chainID, nullifier.Hex()).Scan(&hashes)
	switch {
	case err == nil:
		versions := strings.Split(hashes, ",")
		return revealOutcome{state: statePending, txHash: common.HexToHash(versions[len(versions)-1])}, nil
	case errors.Is(err, sql.ErrNoRows):
		return revealOutcome{state: stateUnknown}, nil
	}
	return revealOutcome{}, err
}

// pending lists wallet's transactions not known to be settled, by nonce.
func (s *sentStore) pending(ctx context.Context, wallet common.Address) ([]sentTx, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT nonce, nullifier, hashes, raw FROM reveal_transactions
		WHERE chain_id = $1 AND wallet = $2 AND status = 'pending' ORDER BY nonce`, s.chainID, walletKey(wallet))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sentTx
	for rows.Next() {
		var nonce int64
		var nullifier, hashes, raw string
		if err := rows.Scan(&nonce, &nullifier, &hashes, &raw); err != nil {
			return nil, err
		}
		t := sentTx{nonce: uint64(nonce), nullifier: common.HexToHash(nullifier)}
		for _, h := range strings.Split(hashes, ",") {
			t.hashes = append(t.hashes, common.HexToHash(h))
		}
		if t.raw, err = hexutil.Decode(raw); err != nil {
			return nil, fmt.Errorf("the recorded transaction at nonce %d: %w", nonce, err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// recorder is a txmgr.Tx's Record for nullifier's reveal: the version is stored durably, and
// with replicas its hash is published on the nullifier's hold, before it is sent.
func (r *Relayer) recorder(nullifier common.Hash, hold *holds.Token) func(context.Context, *types.Transaction) error {
	return func(ctx context.Context, t *types.Transaction) error {
		// In the sender's trace, but not cut short by a caller going away.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.Chain.RPCTimeout)
		defer cancel()
		if err := r.sentTxs.record(ctx, r.tx.From(), nullifier, t); err != nil {
			return fmt.Errorf("record the reveal's transaction: %w", err)
		}
		if r.holds != nil && hold != nil {
			return r.holds.Record(ctx, nullifier, hold, t.Hash())
		}
		return nil
	}
}

// unrecorder is a txmgr.Tx's Unsent for nullifier's reveal: a version the node did not take
// goes from the record, and with replicas the hold names the version that stands, so that no
// status, no waiting copy and no restart takes it for one that was sent.
func (r *Relayer) unrecorder(nullifier common.Hash, hold *holds.Token) func(context.Context, *types.Transaction, *types.Transaction) {
	return func(ctx context.Context, version, standing *types.Transaction) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.Chain.RPCTimeout)
		defer cancel()
		if err := r.sentTxs.unrecord(ctx, r.tx.From(), nullifier, version, standing); err != nil {
			r.log.Warn("could not take a version the node did not take out of the record of what was sent; a restart may broadcast it",
				"nonce", version.Nonce(), "tx", version.Hash(), "err", err)
		}
		if standing != nil && r.holds != nil && hold != nil {
			if err := r.holds.Record(ctx, nullifier, hold, standing.Hash()); err != nil && !errors.Is(err, holds.ErrLost) {
				r.log.Warn("could not name the version that stands on the reveal's hold", "nonce", version.Nonce(), "err", err)
			}
		}
	}
}

// recover follows again the reveals this wallet signed and that are not known to be settled
// (sent before a restart, or by the replica that held this key before), from the durable
// record: a version mined settles its record; otherwise the newest version is broadcast again
// (the same bytes: it can be mined once at most) and followed, so a repeat of the reveal gets
// its outcome, never a second transaction. A nonce another transaction took is settled once
// that is proven (txmgr.Displaced). A record beyond the wallet's pending nonce is broadcast only
// in order, with no gap before it (one after a gap is from a pool that dropped the ones before
// it, or from before a chain was reset: it could only hold every later nonce behind it). It
// returns how many reveals it follows.
func (r *Relayer) recover(ctx context.Context) (following int, err error) {
	wallet := r.tx.From()
	txs, err := r.sentTxs.pending(ctx, wallet)
	if err != nil || len(txs) == 0 {
		return 0, err
	}
	next, err := r.client.PendingNonceAt(ctx, wallet)
	if err != nil {
		return 0, err
	}
	for _, st := range txs { // by nonce
		if st.nonce > next {
			r.log.Warn("a recorded reveal transaction is beyond the wallet's next nonce with a gap before it; not broadcast again (it is looked at again on the next start)",
				"nonce", st.nonce, "next", next, "nullifier", st.nullifier.Hex())
			continue
		}
		if st.nonce == next {
			next++
		}
		r.mu.Lock()
		_, tracked := r.sent[st.nullifier]
		r.mu.Unlock()
		if tracked {
			continue
		}
		if rc := r.minedOne(ctx, st.hashes); rc != nil {
			tx := new(types.Transaction)
			reason := ""
			if tx.UnmarshalBinary(st.raw) == nil {
				reason = r.revertReason(ctx, tx, rc)
			}
			if _, err := r.finish(ctx, st.nullifier, outcomeOf(rc, reason)); err != nil {
				return following, err
			}
			if err := r.sentTxs.settle(ctx, wallet, st.nonce); err != nil {
				return following, err
			}
			if rc.Status != types.ReceiptStatusSuccessful {
				r.giveBackRecorded(ctx, st)
			}
			continue
		}
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(st.raw); err != nil {
			r.log.Error("a recorded reveal transaction does not decode; left as it is", "nonce", st.nonce, "err", err)
			continue
		}
		f, err := r.tx.Resend(ctx, tx, r.recorder(st.nullifier, nil), r.unrecorder(st.nullifier, nil))
		if errors.Is(err, txmgr.ErrNonceUsed) {
			displaced, by, derr := r.tx.Displaced(ctx, st.nonce, st.hashes)
			if derr == nil && displaced {
				r.log.Warn("a recorded reveal transaction was displaced (another transaction of the wallet is mined at its nonce); its reveal was not sent",
					"nonce", st.nonce, "nullifier", st.nullifier.Hex(), "by", by.Hex())
				if err := r.sentTxs.settle(ctx, wallet, st.nonce); err != nil {
					return following, err
				}
				if _, err := r.finish(ctx, st.nullifier, revealOutcome{state: stateDropped}); err != nil {
					return following, err
				}
				r.giveBackRecorded(ctx, st)
			}
			continue
		}
		if err != nil {
			return following, err
		}
		release := func() {}
		if changeOf(tx) { // one of the inserts ahead of new reveals
			release = r.addInsert()
		}
		r.track(st.nullifier, f, func() { release(); r.giveBackFollowed(st.nullifier, f) })
		following++
	}
	return following, nil
}

// giveBackRecorded gives the nullifier of st, a recorded reveal found reverted or displaced,
// back to the other replicas (if its hold names one of st's versions): it may be sent again.
func (r *Relayer) giveBackRecorded(ctx context.Context, st sentTx) {
	if r.holds == nil {
		return
	}
	if err := r.holds.ReleaseSent(ctx, st.nullifier, st.hashes); err != nil {
		r.log.Warn("could not give an unrevealed reveal's nullifier back to the other replicas; its hold lapses in an hour", "nonce", st.nonce, "err", err)
	}
}

// recoverLogged runs recover and says what it did; a failure is a warning (the reveals it could
// not look at stay recorded, for the next start).
func (r *Relayer) recoverLogged(ctx context.Context) {
	n, err := r.recover(ctx)
	if err != nil {
		r.log.Warn("could not follow again every reveal transaction recorded as possibly in flight; the rest are looked at on the next start", "following", n, "err", err)
	} else if n > 0 {
		r.log.Info("following again the reveal transactions recorded before this start", "count", n)
	}
}

// minedOne is the receipt of whichever of hashes is mined, or nil (one batched lookup).
func (r *Relayer) minedOne(ctx context.Context, hashes []common.Hash) *types.Receipt {
	receipts, _ := r.client.TransactionReceipts(ctx, hashes)
	for _, rc := range receipts {
		if rc != nil {
			return rc
		}
	}
	return nil
}

// changeOf reports whether a reveal transaction inserts a change commitment.
func changeOf(tx *types.Transaction) bool {
	signals, ok := revealSignals(tx)
	return ok && signals[zk.SignalChangeCommitment].Sign() != 0
}

// revealFee decodes the fee of a vault revealWithFee's calldata (false: a reveal without fee).
func revealFee(tx *types.Transaction) (*big.Int, bool) {
	if len(tx.Data()) < 4 {
		return nil, false
	}
	method, err := vaultError.MethodById(tx.Data()[:4])
	if err != nil || method.Name != "revealWithFee" {
		return nil, false
	}
	args, err := method.Inputs.Unpack(tx.Data()[4:])
	if err != nil || len(args) != 7 {
		return nil, false
	}
	fee, ok := args[5].(*big.Int)
	return fee, ok
}

// revealSignals decodes the public signals of a vault reveal's calldata: reveal's, or
// revealWithFee's (the same arguments, then the fee and its receiver).
func revealSignals(tx *types.Transaction) ([zk.NumSignals]*big.Int, bool) {
	if len(tx.Data()) < 4 {
		return [zk.NumSignals]*big.Int{}, false
	}
	method, err := vaultError.MethodById(tx.Data()[:4])
	if err != nil || method.Name != "reveal" && method.Name != "revealWithFee" {
		return [zk.NumSignals]*big.Int{}, false
	}
	args, err := method.Inputs.Unpack(tx.Data()[4:])
	if err != nil || len(args) < 5 {
		return [zk.NumSignals]*big.Int{}, false
	}
	signals, ok := args[3].([zk.NumSignals]*big.Int)
	return signals, ok
}

// list reads a page of wallet's recorded transactions, newest first, with their outcomes
// (txmgr.Paged).
func (s *sentStore) list(ctx context.Context, wallet common.Address, q txmgr.PageQuery) (txmgr.Page, error) {
	return txmgr.Paged(q, func(before uint64, n int) ([]txmgr.Listed, error) {
		rows, err := s.db.QueryContext(ctx, `SELECT t.nonce, t.nullifier, t.hashes, t.raw, t.status, t.updated_at,
				COALESCE(o.state, ''), COALESCE(o.tx_hash, ''), COALESCE(o.block_number, 0), COALESCE(o.reason, '')
			FROM reveal_transactions t LEFT JOIN reveal_outcomes o ON o.chain_id = t.chain_id AND o.nullifier = t.nullifier
			WHERE t.chain_id = $1 AND t.wallet = $2 AND t.nonce < $3 ORDER BY t.nonce DESC LIMIT $4`,
			s.chainID, walletKey(wallet), int64(before), n)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []txmgr.Listed
		for rows.Next() {
			var nonce, updated, block int64
			var nullifier, hashes, raw, status, outcome, minedHash, reason string
			if err := rows.Scan(&nonce, &nullifier, &hashes, &raw, &status, &updated, &outcome, &minedHash, &block, &reason); err != nil {
				return nil, err
			}
			l := txmgr.Listed{Nonce: uint64(nonce), Purpose: "reveal " + nullifier, Versions: txmgr.Versions(hashes, raw),
				UpdatedAt: time.UnixMilli(updated).UTC(), State: txmgr.ListedFailed}
			ours := minedHash != "" && strings.Contains(","+hashes+",", ","+minedHash+",") // the outcome is this nonce's, not a retry's
			switch {
			case status == "pending":
				l.State = txmgr.ListedPending
			case outcome == "": // settled before outcomes were kept (a mined reveal, most likely)
				l.State = txmgr.ListedMined
			case ours && outcome == stateMined:
				l.State, l.MinedHash, l.BlockNumber = txmgr.ListedMined, minedHash, ptr(uint64(block))
			case ours && outcome == stateReverted:
				l.MinedHash, l.BlockNumber, l.Reason = minedHash, ptr(uint64(block)), "reverted: "+reason
			default:
				l.Reason = "never mined (given up, or its nonce taken by another transaction)"
			}
			out = append(out, l)
		}
		return out, rows.Err()
	})
}

func ptr[T any](v T) *T { return &v }
