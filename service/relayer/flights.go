package relayer

import (
	"context"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal's transaction: sent (the last of its steps), then followed until it settles, its
// outcome written down for GET /reveal/{nullifier} and the requests waiting on it.

// follow follows a's transaction, sent, until it settles, and answers with its outcome: what the
// reveal's steps took (its insert, its hold) is given back when the transaction settles.
func (r *Relayer) follow(ctx context.Context, a *attempt) (RevealResult, error) {
	f, release, hold, nullifier := a.flight, a.release, a.hold, a.in.nullifier
	r.hooks.Tell("reveal.sent", revealEvent{Nullifier: nullifier.Hex(), TxHash: f.Hash().Hex()}) // recorded; delivered by the outbox's loop
	r.track(nullifier, f, func() {
		release()
		if unrevealed(f) { // the nullifier is free to be revealed again
			r.giveBack(context.Background(), nullifier, hold)
		}
	})
	return r.await(ctx, f)
}

// revealEvent is the data of a reveal's webhook events.
type revealEvent struct {
	Nullifier   string  `json:"nullifier"`
	TxHash      string  `json:"txHash,omitempty"`
	BlockNumber *uint64 `json:"blockNumber,omitempty"`
	GasUsed     string  `json:"gasUsed,omitempty"`
	Reason      string  `json:"reason,omitempty"`
}

// track remembers f as the transaction of nullifier until it settles: a repeat of the reveal
// (after a 504 TX_PENDING, or after a restart that adopted it from the pool) gets its outcome,
// never a second transaction.
func (r *Relayer) track(nullifier common.Hash, f *txmgr.Flight, settled func()) {
	written := make(chan struct{})
	r.mu.Lock()
	r.sent[nullifier] = f
	if r.settled == nil {
		r.settled = map[*txmgr.Flight]chan struct{}{}
	}
	r.settled[f] = written
	r.mu.Unlock()
	r.tracking.Add(1)
	go func() {
		defer r.tracking.Done()
		select {
		case <-f.Done():
		case <-r.closing: // the relayer stops first: its record stays pending, for the next start
			return
		}
		settled()
		// Its own trace, linked to the send's.
		sctx, span := r.tracer.Start(context.Background(), "relayer.settle", trace.WithLinks(trace.Link{SpanContext: f.Origin()}),
			trace.WithAttributes(attribute.String("vaultd.tx_hash", f.Hash().Hex()), attribute.Int64("vaultd.nonce", int64(f.Nonce()))))
		r.settle(sctx, nullifier, f)
		span.End()
		r.mu.Lock()
		if r.sent[nullifier] == f {
			delete(r.sent, nullifier)
		}
		delete(r.settled, f)
		r.mu.Unlock()
		close(written)
	}()
}

// settle writes down how f, nullifier's transaction, ended: its record settled and its outcome
// stored, for GET /reveal/{nullifier}, once per flight (the tracking goroutine's; a request
// waiting for the flight waits for it, so that a status asked right after the answer agrees with
// it). A flight given up stays pending, for recover.
func (r *Relayer) settle(ctx context.Context, nullifier common.Hash, f *txmgr.Flight) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Chain.RPCTimeout)
	defer cancel()
	if errors.Is(f.Err(), txmgr.ErrCancelled) { // its nonce is used and nothing is revealed: retryable
		if _, err := r.finish(ctx, nullifier, revealOutcome{state: stateCancelled}); err != nil {
			r.log.Warn("could not store a cancelled reveal's outcome", "nonce", f.Nonce(), "err", err)
		} else if err := r.sentTxs.settle(ctx, r.tx.From(), f.Nonce()); err != nil {
			r.log.Warn("could not mark a cancelled reveal's record settled; the next start looks it up again", "nonce", f.Nonce(), "err", err)
		}
		return
	}
	rc := f.Receipt()
	if rc == nil {
		return
	}
	// The outcome first: a status read between the two writes finds it, not a record no longer
	// pending and nothing else (unknown).
	d, err := r.finish(ctx, nullifier, outcomeOf(rc, r.revertReason(ctx, f.Transaction(), rc)))
	r.countFee(f.Transaction(), rc, d != nil)
	if err != nil {
		r.log.Warn("could not store a mined reveal's outcome; GET /reveal/{nullifier} answers pending for it until the next start", "nonce", f.Nonce(), "err", err)
	} else if err := r.sentTxs.settle(ctx, r.tx.From(), f.Nonce()); err != nil {
		r.log.Warn("could not mark a mined reveal's record settled; the next start looks it up again", "nonce", f.Nonce(), "err", err)
	}
}

// countFee counts a mined reveal by who paid for it (vaultd_relayer_reveals_funded_total) and
// adds a fee-paying one's fee to vaultd_relayer_fees_earned_total, under its token's address
// (the tokens the relayer prices, by their tokenId).
func (r *Relayer) countFee(tx *types.Transaction, rc *types.Receipt, sponsored bool) {
	if rc.Status != types.ReceiptStatusSuccessful {
		return
	}
	if sponsored {
		r.metrics.funded.WithLabelValues(funding.Sponsor).Inc()
		return
	}
	fee, ok := revealFee(tx)
	if !ok {
		r.metrics.funded.WithLabelValues(funding.Treasury).Inc()
		return
	}
	r.metrics.funded.WithLabelValues(funding.Fee).Inc()
	signals, _ := revealSignals(tx)
	token := "unpriced" // the price was removed since the reveal was sent
	for addr := range r.cfg.Fees.Prices {
		if id, err := tokenid.Compute(addr, r.chainID); err == nil && id.Cmp(signals[zk.SignalTokenID]) == 0 {
			token = addr.Hex()
		}
	}
	f, _ := new(big.Float).SetInt(fee).Float64()
	r.metrics.feesEarned.WithLabelValues(token).Add(f)
}

// adoptSent tracks the reveals among the transactions the manager adopted from the node's pool
// (at start, or on taking a leased key again), by the nullifier in their calldata.
func (r *Relayer) adoptSent() int {
	n := 0
	for _, f := range r.tx.Flights() {
		tx := f.Transaction()
		if tx.To() == nil || *tx.To() != r.cfg.Contracts.Vault {
			continue
		}
		signals, ok := revealSignals(tx)
		if !ok {
			continue
		}
		nullifier := common.BigToHash(signals[zk.SignalNullifier])
		r.mu.Lock()
		tracked := r.sent[nullifier] == f // adopted at an earlier sync
		r.mu.Unlock()
		if tracked {
			continue
		}
		release := func() {}
		if signals[zk.SignalChangeCommitment].Sign() != 0 { // one of the inserts ahead of new reveals
			release = r.addInsert()
		}
		r.track(nullifier, f, func() { release(); r.giveBackFollowed(nullifier, f) })
		n++
	}
	return n
}

// send is a reveal's last step: it submits the reveal from the operator wallet. It fails with 503
// when the gate closed or an operator paused the replica since the request arrived, and 502 when
// the node did not take the transaction.
func (r *Relayer) send(ctx context.Context, a *attempt) error {
	// Paused since the request was admitted (it waited on another replica's hold of the
	// nullifier, say): a pause stops new signing everywhere; 503 PAUSED, nothing sent.
	if err := r.pause.Check(); err != nil {
		return err
	}
	// Every version is recorded before it is sent: durably (recover), and on the hold for the
	// other replicas.
	tx := txmgr.Tx{To: r.cfg.Contracts.Vault, Data: a.data, Gas: a.gas, Record: r.recorder(a.in.nullifier, a.hold), Unsent: r.unrecorder(a.in.nullifier, a.hold)}
	f, err := r.tx.Send(ctx, tx)
	var refused *gate.ClosedError // the gate, closed since the request arrived
	switch {
	case err == nil:
		trace.SpanFromContext(ctx).SetAttributes(attribute.Int64("vaultd.nonce", int64(f.Nonce())), attribute.String("vaultd.tx_hash", f.Hash().Hex()),
			attribute.Int64("vaultd.gas_limit", int64(a.gas)))
		a.flight = f
	case errors.Is(err, holds.ErrLost): // nothing was sent; another replica may be sending it
		err = holdsUnavailable(err)
	case errors.Is(err, txmgr.ErrFenced):
		err = &RevealError{Reason: OperatorKeyUnavailable, Retry: time.Second, Cause: err,
			Message: "this relayer replica cannot renew the lease of its operator key right now; nothing was sent, try again"}
	case errors.Is(err, txmgr.ErrRejected): // the node answered, and took nothing: say so, not "unavailable"
		err = &RevealError{Reason: ChainUnavailable, Cause: err,
			Message: "the node refused the reveal's transaction; nothing was sent, try again later"}
	case !errors.As(err, &refused):
		err = chainUnavailable(err)
	}
	return err
}

// unrevealed reports whether a settled flight is known to have revealed nothing: an operator's
// cancel was mined at its nonce, or the reveal was mined and reverted. One given up may still
// be mined: not unrevealed.
func unrevealed(f *txmgr.Flight) bool {
	rc := f.Receipt()
	return errors.Is(f.Err(), txmgr.ErrCancelled) || rc != nil && rc.Status != types.ReceiptStatusSuccessful
}

// giveBackFollowed gives nullifier back to the other replicas when f, a reveal's flight whose
// hold's token this process does not have (adopted from the pool, or followed again from the
// record), ended unrevealed: the hold is released if the version recorded on it is one of the
// versions recorded for f's nonce.
func (r *Relayer) giveBackFollowed(nullifier common.Hash, f *txmgr.Flight) {
	if r.holds == nil || !unrevealed(f) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Chain.RPCTimeout)
	defer cancel()
	hashes, err := r.sentTxs.versions(ctx, r.tx.From(), f.Nonce(), nullifier)
	if err == nil {
		err = r.holds.ReleaseSent(ctx, nullifier, append(hashes, f.Hash()))
	}
	if err != nil {
		r.log.Warn("could not give an unrevealed reveal's nullifier back to the other replicas; its hold lapses in an hour", "nonce", f.Nonce(), "err", err)
	}
}

// resultOf is the outcome a reveal's receipt says.
func resultOf(rc *types.Receipt) RevealResult {
	return RevealResult{Success: rc.Status == types.ReceiptStatusSuccessful, TxHash: rc.TxHash.Hex(), BlockNumber: rc.BlockNumber.Int64(), GasUsed: rc.GasUsed}
}

// await waits for the sent reveal's receipt, until RECEIPT_TIMEOUT, and for its outcome to be
// written down (track), before answering.
func (r *Relayer) await(ctx context.Context, f *txmgr.Flight) (RevealResult, error) {
	wctx, end := r.stage(ctx, "receipt")
	timer := time.NewTimer(r.cfg.Tx.ReceiptTimeout)
	defer timer.Stop()
	select {
	case <-f.Done():
	case <-timer.C:
		hash := f.Hash().Hex()
		err := &RevealError{Reason: TxPending, Message: "the reveal was sent but not mined in time; it may still be mined", TxHash: hash}
		end(err)
		return RevealResult{TxHash: hash}, err
	}
	if rc := f.Receipt(); rc != nil {
		trace.SpanFromContext(wctx).SetAttributes(attribute.Int64("vaultd.block", rc.BlockNumber.Int64()), attribute.Int64("vaultd.gas_used", int64(rc.GasUsed)),
			attribute.String("vaultd.tx_hash", rc.TxHash.Hex()), attribute.Bool("vaultd.reverted", rc.Status != types.ReceiptStatusSuccessful))
	}
	end(f.Err())
	r.mu.Lock()
	written := r.settled[f]
	r.mu.Unlock()
	if written != nil { // its outcome written first: a status asked right after the answer agrees with it
		select {
		case <-written:
		case <-r.closing:
		}
	}
	if errors.Is(f.Err(), txmgr.ErrCancelled) {
		return RevealResult{}, &RevealError{Reason: TxCancelled, Retry: time.Second, TxHash: f.Hash().Hex(),
			Message: "the relayer's operator cancelled this reveal's transaction; nothing was revealed: send it again"}
	}
	if f.Err() != nil {
		return RevealResult{}, &RevealError{Reason: TxPending, Message: "the reveal was not mined", TxHash: f.Hash().Hex(), Cause: f.Err()}
	}
	rc := f.Receipt()
	res := resultOf(rc)
	r.metrics.gasUsed.Observe(float64(rc.GasUsed))
	r.gas.observe(rc.GasUsed, f.GasLimit())
	if !res.Success {
		return res, &RevealError{Reason: TxReverted, Message: "the reveal transaction reverted on chain; it is not retried", TxHash: res.TxHash}
	}
	return res, nil
}

// revertReason is why a mined reveal reverted, for its status: "out of gas" when it used all it
// was given, else the vault's error, decoded from the transaction run again on the state its
// block left (a revert comes from what the transactions before it did, the same card revealed
// first most often; "" if it goes through there). "" for a reveal that did not revert.
func (r *Relayer) revertReason(ctx context.Context, tx *types.Transaction, rc *types.Receipt) string {
	if rc.Status == types.ReceiptStatusSuccessful {
		return ""
	}
	if rc.GasUsed >= tx.Gas() {
		return "out of gas"
	}
	err := r.client.SimulateAt(ctx, ethereum.CallMsg{From: r.tx.From(), To: tx.To(), Gas: tx.Gas(), Data: tx.Data()}, rc.BlockNumber)
	if rev, ok := chain.RevertOf(vaultError, err); ok {
		return rev.String()
	}
	return ""
}

// finish stores how nullifier's reveal ended (sentStore.finish) and counts what its sponsor was
// debited for it.
func (r *Relayer) finish(ctx context.Context, nullifier common.Hash, o revealOutcome) (*funding.Debit, error) {
	d, err := r.sentTxs.finish(ctx, nullifier, o)
	if d != nil {
		r.metrics.debited.WithLabelValues(d.Sponsor).Add(gate.WeiToEther(d.Cost))
	}
	return d, err
}
